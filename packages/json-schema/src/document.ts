/**
 * The check of a protocol message against one of the protocol's own schema
 * documents (a revision package's generated `{ $schema, $ref, $defs }`
 * documents: the `_meta` envelope, `initialize` params, answers to a
 * server's asks), with no JSON Schema validator package: the documents are
 * generated from the spec, trusted, and written with a few keywords only,
 * so this file applies those keywords itself. Every program checks protocol
 * messages the same way, whichever validator (if any) it chose for user
 * schemas, and a server that names none carries none.
 *
 * Keywords applied: `type`, `enum`, `const`, `properties`, `required`,
 * `additionalProperties`, `items` (one schema), `anyOf`, `allOf`,
 * `minimum`, `maximum`, `minItems`, `maxItems`, `format` (those of
 * `DOCUMENT_FORMATS`) and `$ref` to a JSON Pointer inside the document
 * (siblings ignored before 2019-09); annotations are skipped. Any other
 * keyword, format or reference is refused when the document is compiled,
 * so that a document a later generator writes with more is never checked
 * halfway. Problems are reported as ajv reports them with `allErrors` and
 * `compileSchema` words them (`is missing required property "x"`, `has
 * unknown property "x"`), in ajv's order, keyword and figures included.
 */
import { withNumbers } from "./compile.js";
import { type Dialect, schemaDialect } from "./dialect.js";
import { SchemaCompileError } from "./errors.js";
import { DOCUMENT_FORMATS } from "./formats.js";
import { pointerToken } from "./keywords.js";
import type { ValidatorCheck, ValidatorProblem } from "./validator.js";

/** Checks a value at `path`; with `out`, every problem is added there, else it stops at the first. */
type Node = (value: unknown, path: string, out: ValidatorProblem[] | undefined) => boolean;
type Schema = Record<string, unknown>;

/** Keywords that only annotate, and the places definitions are kept: never applied. */
const SKIPPED = new Set([
  "$schema",
  "$id",
  "$comment",
  "$defs",
  "definitions",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
]);
const APPLIED = new Set([
  "type",
  "enum",
  "const",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "allOf",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
  "format",
  "$ref",
]);

const isObject = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

/** The test of each JSON type, as ajv makes it. */
const TYPE_TESTS: Readonly<Record<string, (value: unknown) => boolean>> = {
  object: isObject,
  array: Array.isArray,
  string: (value) => typeof value === "string",
  number: (value) => typeof value === "number",
  // ajv's test, Infinity passing: what JSON cannot carry is the caller's check (nonFiniteProblem).
  integer: (value) => typeof value === "number" && !(value % 1) && !Number.isNaN(value),
  boolean: (value) => typeof value === "boolean",
  null: (value) => value === null,
};

/** Equality of two JSON values, as `enum` and `const` compare them. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, i) => sameJson(item, (b as unknown[])[i]));
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson((a as Schema)[key], (b as Schema)[key]))
  );
}

function refused(message: string): SchemaCompileError {
  return new SchemaCompileError("invalid", `protocol document: ${message}`);
}

/** Compiles the nodes of one document; `$ref`s to the same place share one node, made once (recursive definitions included). */
class Compiler {
  readonly #root: unknown;
  readonly #dialect: Dialect;
  readonly #refs = new Map<string, Node>();

  constructor(root: unknown) {
    this.#root = root;
    this.#dialect = schemaDialect(root);
  }

  compile(schema: unknown, at: string): Node {
    if (schema === true) return () => true;
    if (schema === false) return (_value, path, out) => fail(out, path, "false", "boolean schema is false", {});
    if (!isObject(schema)) throw refused(`${at || "(root)"} is not a schema`);
    // Before 2019-09 a $ref stands alone: its siblings are not applied.
    if (typeof schema.$ref === "string" && (this.#dialect === "draft-07" || this.#dialect === "draft-06" || this.#dialect === "draft-04"))
      return this.#ref(schema.$ref);
    for (const keyword of Object.keys(schema)) {
      if (!APPLIED.has(keyword) && !SKIPPED.has(keyword) && !keyword.startsWith("x-"))
        throw refused(`${at}/${pointerToken(keyword)} is a keyword this check does not apply`);
    }
    const nodes: Node[] = [];
    // ajv's order: the type, then what applies to any value, then each type's own keywords.
    if (schema.type !== undefined) nodes.push(typeNode(schema.type, at));
    if (typeof schema.$ref === "string") nodes.push(this.#ref(schema.$ref));
    if ("const" in schema) nodes.push(constNode(schema.const));
    if (schema.enum !== undefined) nodes.push(enumNode(schema.enum, at));
    if (schema.anyOf !== undefined) nodes.push(anyOfNode(this.#list(schema.anyOf, `${at}/anyOf`)));
    if (schema.allOf !== undefined) nodes.push(allOfNode(this.#list(schema.allOf, `${at}/allOf`)));
    if (schema.maximum !== undefined) nodes.push(boundNode(schema.maximum, "maximum", at));
    if (schema.minimum !== undefined) nodes.push(boundNode(schema.minimum, "minimum", at));
    if (schema.format !== undefined) nodes.push(formatNode(schema.format, at));
    if (schema.maxItems !== undefined) nodes.push(countNode(schema.maxItems, "maxItems", at));
    if (schema.minItems !== undefined) nodes.push(countNode(schema.minItems, "minItems", at));
    if (schema.items !== undefined) nodes.push(itemsNode(this.compile(schema.items, `${at}/items`)));
    if (schema.required !== undefined) nodes.push(requiredNode(schema.required, at));
    const parts = schema.properties !== undefined || schema.additionalProperties !== undefined ? this.#properties(schema, at) : undefined;
    if (parts) nodes.push(propertiesNode(parts));
    const checks = all(nodes);
    // Most of the protocol's definitions are objects and no more: one closure checks such a value when nothing is recorded.
    if (schema.type !== "object" || !Object.keys(schema).every((k) => OBJECT_KEYWORDS.has(k) || SKIPPED.has(k) || k.startsWith("x-")))
      return checks;
    const required = (schema.required ?? []) as string[];
    const byName = parts?.byName;
    const others = parts?.others;
    return (value, path, out) => {
      if (out) return checks(value, path, out);
      if (!isObject(value)) return false;
      for (const name of required) if (!Object.hasOwn(value, name)) return false;
      if (byName === undefined) return true;
      for (const key in value) {
        const check = byName.get(key) ?? others;
        if (check === false || (check !== undefined && !check(value[key], path, undefined))) return false;
      }
      return true;
    };
  }

  #list(value: unknown, at: string): Node[] {
    if (!Array.isArray(value) || value.length === 0) throw refused(`${at} is not a non-empty array of schemas`);
    return value.map((schema, i) => this.compile(schema, `${at}/${i}`));
  }

  #ref(ref: string): Node {
    const node = this.#refs.get(ref);
    if (node) return node;
    if (!ref.startsWith("#")) throw refused(`$ref ${JSON.stringify(ref)} is not inside the document`);
    let target: unknown = this.#root;
    for (const raw of ref.slice(1).split("/").slice(1)) {
      const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
      target = isObject(target) && Object.hasOwn(target, key) ? target[key] : undefined;
    }
    if (target === undefined) throw refused(`$ref ${JSON.stringify(ref)} does not resolve`);
    // A stand-in while the target compiles, which may refer back to it; the compiled node itself afterwards.
    let compiled: Node | undefined;
    this.#refs.set(ref, (value, path, out) => compiled!(value, path, out));
    compiled = this.compile(target, ref.slice(1));
    this.#refs.set(ref, compiled);
    return compiled;
  }

  #properties(schema: Schema, at: string): ObjectParts {
    const declared = schema.properties ?? {};
    if (!isObject(declared)) throw refused(`${at}/properties is not an object of schemas`);
    const properties = Object.entries(declared).map(
      ([key, sub]) => [key, this.compile(sub, `${at}/properties/${pointerToken(key)}`)] as const,
    );
    const extra = schema.additionalProperties;
    const others =
      extra === undefined || extra === true ? undefined : extra === false ? false : this.compile(extra, `${at}/additionalProperties`);
    return { properties, byName: new Map(properties), others };
  }
}

/** What `properties` and `additionalProperties` check: each declared property's node, and what any other must pass (`false`: none may be there). */
interface ObjectParts {
  readonly properties: ReadonlyArray<readonly [string, Node]>;
  readonly byName: ReadonlyMap<string, Node>;
  readonly others: Node | false | undefined;
}

/** The keywords of an object schema that {@link Compiler.compile} checks in one closure. */
const OBJECT_KEYWORDS = new Set(["type", "properties", "additionalProperties", "required"]);

function propertiesNode({ properties, byName, others }: ObjectParts): Node {
  return (value, path, out) => {
    if (!isObject(value)) return true;
    if (!out) {
      // Nothing recorded: one walk over the value's keys (a message's objects are small), as ajv's own code walks them.
      for (const key in value) {
        const check = byName.get(key) ?? others;
        if (check === false || (check !== undefined && !check(value[key], path, undefined))) return false;
      }
      return true;
    }
    // Recording: ajv's order, the unknown properties first, then the declared ones in the schema's order.
    const present = new Set<string>();
    for (const key in value) present.add(key);
    let valid = true;
    if (others !== undefined) {
      for (const key of present) {
        if (byName.has(key)) continue;
        if (others === false)
          valid = fail(out, path, "additionalProperties", `has unknown property ${JSON.stringify(key)}`, { additionalProperty: key });
        else valid = others(value[key], `${path}/${pointerToken(key)}`, out) && valid;
      }
    }
    for (const [key, check] of properties) {
      if (present.has(key)) valid = check(value[key], `${path}/${pointerToken(key)}`, out) && valid;
    }
    return valid;
  };
}

/** Adds one problem (when collecting) and answers false. */
function fail(out: ValidatorProblem[] | undefined, path: string, keyword: string, message: string, params: Record<string, unknown>): false {
  out?.push({ path, message, keyword, params });
  return false;
}

function all(nodes: Node[]): Node {
  if (nodes.length === 1) return nodes[0]!;
  return (value, path, out) => {
    if (!out) {
      for (const node of nodes) if (!node(value, path, undefined)) return false;
      return true;
    }
    let valid = true;
    for (const node of nodes) valid = node(value, path, out) && valid;
    return valid;
  };
}

function typeNode(type: unknown, at: string): Node {
  const types = Array.isArray(type) ? type : [type];
  const tests = types.map((t) => (typeof t === "string" && Object.hasOwn(TYPE_TESTS, t) ? TYPE_TESTS[t] : undefined));
  if (tests.length === 0 || tests.includes(undefined)) throw refused(`${at}/type is not a type name or a list of them`);
  const message = `must be ${types.join(",")}`;
  const [only] = tests;
  if (tests.length === 1 && only) return (value, path, out) => only(value) || fail(out, path, "type", message, { type });
  return (value, path, out) => tests.some((test) => test!(value)) || fail(out, path, "type", message, { type });
}

const isPrimitive = (v: unknown) => v === null || typeof v !== "object";

function constNode(allowed: unknown): Node {
  const same = isPrimitive(allowed) ? (value: unknown) => value === allowed : (value: unknown) => sameJson(value, allowed);
  return (value, path, out) => same(value) || fail(out, path, "const", "must be equal to constant", { allowedValue: allowed });
}

function enumNode(allowed: unknown, at: string): Node {
  if (!Array.isArray(allowed)) throw refused(`${at}/enum is not an array`);
  // Strings and other primitives (all the protocol's enums) are looked up; anything else compared in turn.
  const primitives = new Set(allowed.filter(isPrimitive));
  const others = allowed.filter((a) => !isPrimitive(a));
  return (value, path, out) =>
    (isPrimitive(value) ? primitives.has(value) : others.some((a) => sameJson(value, a))) ||
    fail(out, path, "enum", "must be equal to one of the allowed values", { allowedValues: allowed });
}

function anyOfNode(branches: Node[]): Node {
  return (value, path, out) => {
    const found: ValidatorProblem[] | undefined = out ? [] : undefined;
    for (const branch of branches) if (branch(value, path, found)) return true;
    // The branches' problems first, then the combinator's own: ajv's order.
    if (out && found) out.push(...found);
    return fail(out, path, "anyOf", "must match a schema in anyOf", {});
  };
}

function allOfNode(parts: Node[]): Node {
  return all(parts);
}

function boundNode(limit: unknown, keyword: "minimum" | "maximum", at: string): Node {
  if (typeof limit !== "number") throw refused(`${at}/${keyword} is not a number`);
  const comparison = keyword === "minimum" ? ">=" : "<=";
  const message = `must be ${comparison} ${limit}`;
  return (value, path, out) => {
    if (typeof value !== "number") return true;
    const within = keyword === "minimum" ? value >= limit : value <= limit;
    return within || fail(out, path, keyword, message, { comparison, limit });
  };
}

function countNode(limit: unknown, keyword: "minItems" | "maxItems", at: string): Node {
  if (!Number.isInteger(limit) || (limit as number) < 0) throw refused(`${at}/${keyword} is not a non-negative integer`);
  const message = keyword === "minItems" ? `must NOT have fewer than ${limit} items` : `must NOT have more than ${limit} items`;
  return (value, path, out) => {
    if (!Array.isArray(value)) return true;
    const within = keyword === "minItems" ? value.length >= (limit as number) : value.length <= (limit as number);
    return within || fail(out, path, keyword, message, { limit });
  };
}

function formatNode(format: unknown, at: string): Node {
  const check = typeof format === "string" && Object.hasOwn(DOCUMENT_FORMATS, format) ? DOCUMENT_FORMATS[format] : undefined;
  if (!check) throw refused(`${at}/format ${JSON.stringify(format)} is not a format this check knows`);
  const message = `must match format "${format}"`;
  return (value, path, out) => typeof value !== "string" || check(value) || fail(out, path, "format", message, { format });
}

function itemsNode(item: Node): Node {
  return (value, path, out) => {
    if (!Array.isArray(value)) return true;
    let valid = true;
    for (let i = 0; i < value.length; i++) {
      valid = item(value[i], out ? `${path}/${i}` : path, out) && valid;
      if (!valid && !out) return false;
    }
    return valid;
  };
}

function requiredNode(required: unknown, at: string): Node {
  if (!Array.isArray(required) || !required.every((name) => typeof name === "string"))
    throw refused(`${at}/required is not an array of names`);
  return (value, path, out) => {
    if (!isObject(value)) return true;
    let valid = true;
    for (const name of required as string[]) {
      if (Object.hasOwn(value, name)) continue;
      valid = fail(out, path, "required", `is missing required property ${JSON.stringify(name)}`, { missingProperty: name });
      if (!out) return false;
    }
    return valid;
  };
}

/**
 * Compiles one of the protocol's schema documents (see the module comment)
 * into a check: `[]` when a value is valid, else every problem, as
 * {@link ValidatorProblem}s. An integer beyond 2^53 (a `bigint`) is checked
 * as its nearest double. A valid value costs one pass that records nothing;
 * the problems of an invalid one are found by a second pass.
 *
 * Not for user schemas (use `compileSchema` with a validator): only the
 * keywords the protocol's documents use are applied.
 *
 * @param document a schema document: an object whose root (with `$ref`,
 *   `$defs` or `definitions`) is read in the dialect its `$schema` declares.
 * @returns the check of a value.
 * @throws SchemaCompileError `invalid` when the document uses a keyword,
 *   format or reference this check does not apply (the message gives where);
 *   `unknown-dialect` for an unknown `$schema`.
 */
export function documentCheck(document: object): ValidatorCheck {
  const root = new Compiler(document).compile(document, "");
  // An integer beyond 2^53 (a bigint) fails every number type: withNumbers checks it again as the nearest double.
  return withNumbers((value) => {
    if (root(value, "", undefined)) return [];
    const problems: ValidatorProblem[] = [];
    root(value, "", problems);
    return problems;
  });
}
