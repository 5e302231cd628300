// The member lists of a schema revision, from which the generator writes
// `src/generated/members.ts`: for every definition, which members it has
// and what each holds, read from the strict form of the schema
// (scripts/lib/strict.mjs), so that a program can reduce a message to what
// that revision defines, and refuse nothing the strict validators would
// accept. With the method table (scripts/lib/methods.mjs): which requests
// and notifications each side sends, each request's result, and what each
// side sends as its sender reduces it (params and results, not envelopes).
//
// A place of a message is described by a shape, a small JSON value:
//   0                    anything, kept as it is (a primitive, an open
//                        object that lists no members, `{}`);
//   "Name"               the definition Name;
//   { p, r?, x? }        an object: `p` its members' shapes, `r` the
//                        members it requires; `x` absent when it is closed
//                        (other members are not of this revision), `0`
//                        when it is open, a shape when every other member
//                        holds that shape (a map);
//   { i }                an array of items of shape `i`;
//   { u }                one of the shapes `u` (`anyOf`, `oneOf`);
//   { c }                the constant `c`;
//   { e }                one of the values `e`.
// Keywords that only constrain a value (formats, bounds, patterns) are left
// out: reducing a message never changes a value it keeps.

import { isObject } from "./schema-walk.mjs";

export class MembersError extends Error {}
const fail = (message) => {
  throw new MembersError(`members: ${message}`);
};

const DEF_PREFIX = "#/$defs/";

/** The shape of one subschema of the strict form. */
function shapeOf(schema, where) {
  if (schema === true || schema === undefined) return 0;
  if (schema === false) fail(`${where}: a schema that accepts nothing`);
  if (!isObject(schema)) fail(`${where}: not a schema`);
  if (typeof schema.$ref === "string") {
    if (!schema.$ref.startsWith(DEF_PREFIX)) fail(`${where}: $ref ${schema.$ref} is not a definition`);
    return schema.$ref.slice(DEF_PREFIX.length);
  }
  if ("const" in schema) return { c: schema.const };
  if (Array.isArray(schema.enum)) return { e: schema.enum };
  const list = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(list)) {
    const u = list.map((sub, i) => shapeOf(sub, `${where}/anyOf/${i}`));
    // A union of places kept as they are (`string | integer`) is one such place.
    return u.every((s) => s === 0) ? 0 : { u };
  }
  if (Array.isArray(schema.allOf)) return 0; // what strict.mjs did not merge: a value's own rules, kept as it is
  if (isObject(schema.properties)) {
    const p = {};
    for (const [name, sub] of Object.entries(schema.properties)) p[name] = shapeOf(sub, `${where}/properties/${name}`);
    const out = { p };
    if (Array.isArray(schema.required) && schema.required.length > 0) out.r = schema.required;
    const extra = schema.additionalProperties;
    if (extra === false) {
      // Closed: `p` lists all it may hold (possibly nothing).
    } else if (extra === undefined || extra === true || (isObject(extra) && Object.keys(extra).length === 0)) {
      // Open: what it lists is read by its shape, the rest kept.
      if (Object.keys(p).length === 0 && out.r === undefined) return 0;
      out.x = 0;
    } else out.x = shapeOf(extra, `${where}/additionalProperties`);
    return out;
  }
  if (isObject(schema.additionalProperties)) {
    const x = shapeOf(schema.additionalProperties, `${where}/additionalProperties`);
    return x === 0 ? 0 : { p: {}, x };
  }
  if (schema.items !== undefined) {
    const i = shapeOf(schema.items, `${where}/items`);
    return i === 0 ? 0 : { i };
  }
  return 0;
}

/** The definition names `shape` refers to, anywhere inside it (not inside constants and enumerations). */
function referencesOf(shape, out = []) {
  if (typeof shape === "string") out.push(shape);
  else if (Array.isArray(shape)) for (const item of shape) referencesOf(item, out);
  else if (isObject(shape)) for (const [key, value] of Object.entries(shape)) if (key !== "c" && key !== "e") referencesOf(value, out);
  return out;
}

/** The names of `roots` and of every definition they reach, sorted. */
function reaching(definitions, roots) {
  const seen = new Set();
  const stack = [...roots];
  while (stack.length > 0) {
    const name = stack.pop();
    if (seen.has(name) || !Object.hasOwn(definitions, name)) continue;
    seen.add(name);
    referencesOf(definitions[name], stack);
  }
  return [...seen].sort();
}

/**
 * The shape of the `params` member of request or notification definition
 * `name` (`0` when it has none: nothing to reduce). A sender reduces the
 * params it writes, never the JSON-RPC envelope around them, so the lists
 * carry the params alone.
 */
function paramsOf(definitions, name) {
  const shape = definitions[name];
  if (!isObject(shape) || !isObject(shape.p)) fail(`${DEF_PREFIX}${name}: a method's definition that is not an object`);
  return Object.hasOwn(shape.p, "params") ? shape.p.params : 0;
}

/**
 * What one side sends, as its sender needs it to reduce a message to this
 * revision: the params of its requests and of its notifications by method
 * (the methods it may send are their keys), the result definition of each
 * request the other side sends (the requests it answers are their keys), and
 * the definitions all of these reach together with the other members of its
 * result union (`ServerResult`), sorted by name.
 */
function sentBy(definitions, table, side) {
  const other = side === "server" ? "client" : "server";
  const direction = (kind, who) => table.directions.find((d) => d.kind === kind && d.sender === who)?.methods ?? [];
  const requests = new Map(table.requests.map((e) => [e.method, e]));
  const notifications = new Map(table.notifications.map((e) => [e.method, e]));
  const requestParams = {};
  for (const m of direction("requests", side)) requestParams[m] = paramsOf(definitions, requests.get(m).name);
  const notificationParams = {};
  for (const m of direction("notifications", side)) notificationParams[m] = paramsOf(definitions, notifications.get(m).name);
  const answers = {};
  for (const m of direction("requests", other)) answers[m] = requests.get(m).result;
  const roots = [
    ...referencesOf(Object.values(requestParams)),
    ...referencesOf(Object.values(notificationParams)),
    ...direction("requests", other).flatMap((m) => requests.get(m).response),
  ];
  const union = definitions[side === "server" ? "ServerResult" : "ClientResult"];
  if (isObject(union) && Array.isArray(union.u)) roots.push(...union.u.filter((u) => typeof u === "string"));
  return { definitions: reaching(definitions, roots), requestParams, notificationParams, answers };
}

/**
 * The member lists of a revision: `defs` is the strict form's `$defs`
 * (`strictDefinitions(...).defs`), `table` the method table
 * (`methodTable(schema)`). Returns `{ definitions, sent: { server, client },
 * requests, notifications, directions, serverResults }`, every name sorted:
 * `sent.server` is what the server sends (see `sentBy`: `definitions`,
 * `requestParams`, `notificationParams`, `answers`), `sent.client` what the
 * client sends.
 */
export function memberLists(defs, table) {
  const definitions = {};
  for (const name of Object.keys(defs).sort()) definitions[name] = shapeOf(defs[name], `${DEF_PREFIX}${name}`);
  const requests = {};
  for (const r of table.requests) requests[r.method] = { request: r.name, result: r.result };
  const notifications = {};
  for (const n of table.notifications) notifications[n.method] = n.name;
  const directions = {};
  for (const d of table.directions) directions[d.alias] = d.methods ?? [];
  const union = definitions.ServerResult;
  const serverResults = isObject(union) && Array.isArray(union.u) ? union.u.filter((s) => typeof s === "string") : [];
  const sent = { server: sentBy(definitions, table, "server"), client: sentBy(definitions, table, "client") };
  return { definitions, sent, requests, notifications, directions, serverResults };
}
