// The strict form of a schema revision, from which the generator compiles the
// `./strict` validators of its package: the same definitions with unknown
// members refused, so that a test can tell whether a message holds only what
// its revision defines (nothing a later revision added).
//
// JSON Schema leaves an object open unless it says otherwise, and the MCP
// schemas say so only where the spec's TypeScript has an index signature
// (`_meta`, `experimental`, a tool's `arguments`, `structuredContent`, the
// base `Result`, ...). The strict form keeps those, and closes every other
// object whose members the schema lists (`additionalProperties: false`):
//
// - an object that states `additionalProperties` (true, `{}` or a schema)
//   keeps it: the schema opened it on purpose;
// - an object at a pointer of the pin's `strictOpen` list stays open: the
//   places where the schema lists a few members of what the spec means as
//   open (a tool's `inputSchema`, a JSON Schema object);
// - an object with no `properties` (TypeScript's `object`) lists no members
//   and stays open;
// - an `allOf` of objects is read as one object with the members of all its
//   parts (draft-07 has no `unevaluatedProperties`, and closing each part
//   alone would refuse the other parts' members), and closed like any other
//   object. A part's own `additionalProperties` speaks for the part standing
//   alone, as the base `Result`'s `{}` does, which the results that extend
//   it by name do not carry either;
// - a request or a notification of a method is read as the message that
//   carries it. The draft-07 schemas (2025-06-18 and earlier) define every
//   method without the JSON-RPC members (`PingRequest` is `{ method, params }`,
//   and `JSONRPCRequest` adds `jsonrpc` and `id` to the base `Request`), so
//   in a schema where no method has `jsonrpc` the strict form gives each
//   method those members, optional and as `JSONRPCRequest`/
//   `JSONRPCNotification` declare them: a whole message of the method passes,
//   and its other members are still refused;
// - the params of a request or a notification may carry `_meta` as the base
//   `Request`/`Notification` definition declares it: every request may ask
//   for progress with `_meta.progressToken` (spec: basic/utilities/progress),
//   but the draft-07 schemas write each method's params out in full and drop
//   the base's `_meta`.
//
// The types and the usual validators are not affected.

import { isObject, mapSchema } from "./schema-walk.mjs";

export class StrictSchemaError extends Error {}
const fail = (message) => {
  throw new StrictSchemaError(`strict: ${message}`);
};

const DEF_PREFIX = "#/$defs/";
const refName = (s) => (typeof s?.$ref === "string" && s.$ref.startsWith(DEF_PREFIX) ? s.$ref.slice(DEF_PREFIX.length) : undefined);
/** Keywords that only annotate, kept from every part of a merged `allOf`. */
const ANNOTATIONS = new Set(["description", "title", "$comment", "examples", "default", "deprecated"]);
/** Keywords a part of a merged `allOf` may have. */
const MERGEABLE = new Set(["type", "properties", "required", "additionalProperties", ...ANNOTATIONS]);
const isOpenValue = (ap) => ap === true || (isObject(ap) && Object.keys(ap).length === 0);

/**
 * The pointers of the pin's `strictOpen` entries (`[{ pointer, why }]`,
 * pointers into the published file) as the generator's pointers into the
 * schema (`#/$defs/...`); each must name an object schema of the schema.
 * `published` tells whether the file kept its definitions under
 * `definitions` (draft-07).
 */
export function openPointers(schema, entries, { draft07 }) {
  if (entries === undefined) return new Set();
  if (!Array.isArray(entries)) fail("strictOpen must be a list of { pointer, why }");
  const out = new Set();
  for (const entry of entries) {
    const { pointer, why } = entry ?? {};
    if (typeof pointer !== "string" || typeof why !== "string" || why.trim() === "")
      fail("each strictOpen entry needs a pointer and a why");
    const prefix = draft07 ? "/definitions/" : "/$defs/";
    if (!pointer.startsWith(prefix)) fail(`strictOpen pointer ${pointer} is not under ${prefix}`);
    const inner = `#/$defs/${pointer.slice(prefix.length)}`;
    let target = schema;
    for (const key of inner.slice(2).split("/")) {
      const k = key.replaceAll("~1", "/").replaceAll("~0", "~");
      target = isObject(target) ? target[k] : undefined;
    }
    if (!isObject(target) || !isObject(target.properties)) fail(`strictOpen pointer ${pointer} names no object schema with properties`);
    if (target.additionalProperties !== undefined)
      fail(`strictOpen pointer ${pointer}: the schema already states additionalProperties there; drop the entry`);
    out.add(inner);
  }
  return out;
}

/** The object schema a part of an `allOf` stands for: itself, or the definition it refers to, its own `allOf` merged. */
function partOf(part, defs, where, depth) {
  if (depth > 20) fail(`${where}: allOf nests too deep`);
  const name = refName(part);
  if (name !== undefined) {
    const keys = Object.keys(part).filter((k) => !ANNOTATIONS.has(k));
    if (keys.length !== 1) fail(`${where}: a $ref with sibling keywords ${keys.join(", ")}`);
    if (!Object.hasOwn(defs, name)) fail(`${where}: $ref ${part.$ref} names no definition`);
    return partOf(defs[name], defs, `${DEF_PREFIX}${name}`, depth + 1);
  }
  if (Array.isArray(part.allOf)) return merged(part, defs, where, depth + 1);
  return part;
}

/** Two schemas of one member, from two parts of an `allOf`: one object when both are objects, else both apply. */
function mergeMember(a, b, defs, where, depth) {
  if (JSON.stringify(a) === JSON.stringify(b)) return a;
  // `{}` (or annotations alone) accepts anything: the other part is the whole rule.
  const anything = (s) => Object.keys(s).every((k) => ANNOTATIONS.has(k));
  if (anything(a)) return b;
  if (anything(b)) return a;
  const objectLike = (s) => isObject(s.properties) || Array.isArray(s.allOf) || refName(s) !== undefined;
  if (objectLike(a) && objectLike(b)) return merged({ allOf: [a, b] }, defs, where, depth + 1);
  return { allOf: [a, b] };
}

/** An `allOf` schema as one object schema with the members, required names and annotations of all its parts. */
function merged(schema, defs, where, depth = 0) {
  const { allOf, ...rest } = schema;
  const out = { ...rest };
  const properties = { ...(out.properties ?? {}) };
  const required = new Set(out.required ?? []);
  for (const [i, raw] of allOf.entries()) {
    const part = partOf(raw, defs, `${where}/allOf/${i}`, depth);
    const extra = Object.keys(part).filter((k) => !MERGEABLE.has(k));
    if (extra.length > 0) fail(`${where}/allOf/${i}: cannot merge a part with ${extra.join(", ")}`);
    if (part.type !== undefined && part.type !== "object") fail(`${where}/allOf/${i}: a part of type ${JSON.stringify(part.type)}`);
    if (part.additionalProperties !== undefined && !isOpenValue(part.additionalProperties))
      fail(`${where}/allOf/${i}: a part with an additionalProperties schema`);
    for (const [name, member] of Object.entries(part.properties ?? {})) {
      properties[name] = Object.hasOwn(properties, name)
        ? mergeMember(properties[name], member, defs, `${where}/properties/${name}`, depth)
        : member;
    }
    for (const name of part.required ?? []) required.add(name);
    for (const key of ANNOTATIONS) if (key in part && !(key in out)) out[key] = part[key];
  }
  out.type = "object";
  out.properties = properties;
  if (required.size > 0) out.required = [...required];
  delete out.additionalProperties;
  return out;
}

/**
 * The `$defs` of the strict form of `schema` (already with `$defs`), as
 * described at the top of this file. `open`: pointers (`#/$defs/...`) of
 * objects left open. Returns `{ defs, closed, merged, meta, envelope }`:
 * the definitions and how many objects were closed, `allOf`s merged,
 * `_meta` members and JSON-RPC members added.
 */
export function strictDefinitions(schema, open = new Set()) {
  const defs = schema.$defs;
  let mergedCount = 0;
  let metaCount = 0;
  let envelopeCount = 0;
  // The draft-07 schemas define every method apart from its envelope; later ones put `jsonrpc` in each
  // (and 2026-07-28's input requests, which travel inside a result, rightly have none).
  const isMethod = (def) => typeof def.properties?.method?.const === "string";
  const apart = !Object.values(defs).some((def) => isMethod(def) && "jsonrpc" in def.properties);
  let closedCount = 0;

  // 1. allOf merged, the JSON-RPC members and the base's _meta added to the methods (before any object is closed).
  const flat = mapSchema({ $defs: defs }, (s, pointer) => {
    if (!Array.isArray(s.allOf)) return s;
    mergedCount++;
    return merged(s, defs, pointer);
  }).$defs;
  for (const [name, def] of Object.entries(flat)) {
    if (!isMethod(def)) continue;
    const base = name.endsWith("Request") ? "Request" : name.endsWith("Notification") ? "Notification" : undefined;
    if (base === undefined) continue;
    const properties = { ...def.properties };
    const envelope = (apart && defs[`JSONRPC${base}`]?.properties) || {};
    for (const key of base === "Request" ? ["jsonrpc", "id"] : ["jsonrpc"]) {
      if (key in properties || !(key in envelope)) continue;
      properties[key] = envelope[key];
      envelopeCount++;
    }
    const baseMeta = defs[base]?.properties?.params?.properties?._meta;
    const params = properties.params;
    if (baseMeta && isObject(params?.properties) && !("_meta" in params.properties)) {
      properties.params = { ...params, properties: { ...params.properties, _meta: baseMeta } };
      metaCount++;
    }
    flat[name] = { ...def, properties };
  }

  // 2. Every object that lists its members and leaves the rest unsaid is closed.
  const closed = mapSchema({ $defs: flat }, (s, pointer) => {
    if (!isObject(s.properties) || s.additionalProperties !== undefined || open.has(pointer)) return s;
    for (const name of s.required ?? []) {
      if (!Object.hasOwn(s.properties, name))
        fail(`${pointer} requires ${name}, which it does not list: closing it would refuse every value`);
    }
    closedCount++;
    return { ...s, additionalProperties: false };
  }).$defs;
  return { defs: closed, closed: closedCount, merged: mergedCount, meta: metaCount, envelope: envelopeCount };
}
