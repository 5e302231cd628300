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

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "object":
      return isObject(value);
    default:
      return typeOf(value) === type;
  }
}

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
    if (schema.properties !== undefined || schema.additionalProperties !== undefined) nodes.push(this.#propertiesNode(schema, at));
    return all(nodes);
  }

  #list(value: unknown, at: string): Node[] {
    if (!Array.isArray(value) || value.length === 0) throw refused(`${at} is not a non-empty array of schemas`);
    return value.map((schema, i) => this.compile(schema, `${at}/${i}`));
  }

  #ref(ref: string): Node {
    let node = this.#refs.get(ref);
    if (node) return node;
    if (!ref.startsWith("#")) throw refused(`$ref ${JSON.stringify(ref)} is not inside the document`);
    let target: unknown = this.#root;
    for (const raw of ref.slice(1).split("/").slice(1)) {
      const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
      target = isObject(target) && Object.hasOwn(target, key) ? target[key] : undefined;
    }
    if (target === undefined) throw refused(`$ref ${JSON.stringify(ref)} does not resolve`);
    // Set before compiling the target, which may refer back to it.
    let compiled: Node | undefined;
    node = (value, path, out) => compiled!(value, path, out);
    this.#refs.set(ref, node);
    compiled = this.compile(target, ref.slice(1));
    return node;
  }

  #propertiesNode(schema: Schema, at: string): Node {
    const declared = schema.properties ?? {};
    if (!isObject(declared)) throw refused(`${at}/properties is not an object of schemas`);
    const properties = Object.entries(declared).map(
      ([key, sub]) => [key, this.compile(sub, `${at}/properties/${pointerToken(key)}`)] as const,
    );
    const extra = schema.additionalProperties;
    const others =
      extra === undefined || extra === true ? undefined : extra === false ? false : this.compile(extra, `${at}/additionalProperties`);
    return (value, path, out) => {
      if (!isObject(value)) return true;
      let valid = true;
      if (others !== undefined) {
        for (const key of Object.keys(value)) {
          if (Object.hasOwn(declared, key)) continue;
          if (others === false)
            valid =
              fail(out, path, "additionalProperties", `has unknown property ${JSON.stringify(key)}`, { additionalProperty: key }) && valid;
          else valid = others(value[key], out ? `${path}/${pointerToken(key)}` : path, out) && valid;
          if (!valid && !out) return false;
        }
      }
      for (const [key, check] of properties) {
        if (!Object.hasOwn(value, key)) continue;
        valid = check(value[key], out ? `${path}/${pointerToken(key)}` : path, out) && valid;
        if (!valid && !out) return false;
      }
      return valid;
    };
  }
}

/** Adds one problem (when collecting) and answers false. */
function fail(out: ValidatorProblem[] | undefined, path: string, keyword: string, message: string, params: Record<string, unknown>): false {
  out?.push({ path, message, keyword, params });
  return false;
}

function all(nodes: Node[]): Node {
  if (nodes.length === 1) return nodes[0]!;
  return (value, path, out) => {
    let valid = true;
    for (const node of nodes) {
      valid = node(value, path, out) && valid;
      if (!valid && !out) return false;
    }
    return valid;
  };
}

function typeNode(type: unknown, at: string): Node {
  const types = Array.isArray(type) ? type : [type];
  if (types.length === 0 || !types.every((t) => typeof t === "string")) throw refused(`${at}/type is not a type name or a list of them`);
  const message = `must be ${types.join(",")}`;
  return (value, path, out) => types.some((t) => hasType(value, t as string)) || fail(out, path, "type", message, { type });
}

function constNode(allowed: unknown): Node {
  return (value, path, out) => sameJson(value, allowed) || fail(out, path, "const", "must be equal to constant", { allowedValue: allowed });
}

function enumNode(allowed: unknown, at: string): Node {
  if (!Array.isArray(allowed)) throw refused(`${at}/enum is not an array`);
  return (value, path, out) =>
    allowed.some((a) => sameJson(value, a)) ||
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
