/**
 * Compilation of user-supplied JSON Schemas (tool `inputSchema` and
 * `outputSchema`) in JSON Schema 2020-12 mode, formats asserted.
 * Schemas are compiled once, at registration; a `$ref` must resolve inside
 * the schema itself: remote references are never fetched.
 *
 * Two compilers give the same answers:
 * - schemas made only of `type` (one name), `properties`, `required`,
 *   `additionalProperties` (a boolean), `items` (one schema) and annotations
 *   (`title`, `description`, `default`, `examples`, `$comment`,
 *   `deprecated`, `readOnly`, `writeOnly`, `x-*` extensions), the shape of
 *   most tool schemas, are checked by a small built-in checker that reports
 *   the same problems, in the same order, as ajv;
 * - every other schema is compiled by ajv (with ajv-formats), which is
 *   loaded on first use, so a server whose schemas are all of the first kind
 *   never loads it (importing ajv costs tens of milliseconds).
 */
import { createRequire } from "node:module";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";

type AddFormats = (ajv: Ajv2020) => unknown;

/** ajv's 2020-12 class and ajv-formats, loaded synchronously on first call (both are CommonJS). */
export function loadAjv(): { Ajv2020: typeof Ajv2020; addFormats: AddFormats } {
  if (!loaded) {
    const load = createRequire(import.meta.url);
    const ajvModule = load("ajv/dist/2020.js") as { Ajv2020: typeof Ajv2020 };
    const formatsModule = load("ajv-formats") as AddFormats & { default?: AddFormats };
    loaded = { Ajv2020: ajvModule.Ajv2020, addFormats: formatsModule.default ?? formatsModule };
  }
  return loaded;
}

let loaded: { Ajv2020: typeof Ajv2020; addFormats: AddFormats } | undefined;
let shared: Ajv2020 | undefined;

function ajv(): Ajv2020 {
  if (!shared) {
    const { Ajv2020: Ajv, addFormats } = loadAjv();
    // strict: false lets schemas carry extension keywords (x-mcp-header, ...);
    // no loadSchema is given, so a remote $ref fails compilation, never fetches.
    shared = new Ajv({ strict: false, allErrors: true, validateFormats: true });
    addFormats(shared);
  }
  return shared;
}

/** One problem found by a schema check: a JSON Pointer into the value and what is wrong there. */
export interface SchemaProblem {
  /** JSON Pointer of the offending value (`""` for the root). */
  path: string;
  /** What the schema expected. */
  message: string;
}

/** A compiled schema: returns `[]` when the value is valid, else its problems. */
export type CompiledSchema = (value: unknown) => SchemaProblem[];

/**
 * Compiles a JSON Schema (2020-12) once.
 *
 * @throws Error (with the ajv reason) when the schema is not valid, uses an
 *   unknown format, or has a `$ref` that does not resolve locally.
 */
export function compileSchema(schema: object): CompiledSchema {
  // The root `$id` and `$schema` are dropped: every schema is read as 2020-12,
  // and one shared ajv instance must not collect ids from many tools.
  const { $id: _id, $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  const lite = liteNode(rest);
  if (lite !== undefined) {
    return (value) => {
      const problems: SchemaProblem[] = [];
      checkLite(lite, value, "", problems);
      return problems;
    };
  }
  return compileWithAjv(rest);
}

/** Compiles with ajv, whatever the schema (internal; {@link compileSchema} picks the compiler). */
export function compileWithAjv(schema: object): CompiledSchema {
  const validate: ValidateFunction = ajv().compile(schema);
  return (value) => (validate(value) ? [] : toProblems(validate.errors));
}

function toProblems(errors: ErrorObject[] | null | undefined): SchemaProblem[] {
  return (errors ?? []).map((e) => {
    let message = e.message ?? "is invalid";
    if (e.keyword === "additionalProperties") message = `has unknown property ${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)}`;
    if (e.keyword === "required") message = `is missing required property ${JSON.stringify((e.params as { missingProperty: string }).missingProperty)}`;
    return { path: e.instancePath, message };
  });
}

/** Renders problems as one line each: `/path: message` (`(root)` for the empty path). */
export function formatProblems(problems: readonly SchemaProblem[]): string {
  return problems.map((p) => `${p.path === "" ? "(root)" : p.path}: ${p.message}`).join("\n");
}

// ---------------------------------------------------------------- the built-in checker

type JsonType = "string" | "number" | "integer" | "boolean" | "null" | "array" | "object";

/** A schema the built-in checker handles, read once. */
interface LiteNode {
  type: JsonType | undefined;
  /** `properties` in the schema's key order, with their escaped JSON Pointer segment. */
  properties: { name: string; pointer: string; node: LiteNode }[];
  names: Set<string>;
  required: string[];
  closed: boolean;
  items: LiteNode | undefined;
}

const TYPES = new Set<string>(["string", "number", "integer", "boolean", "null", "array", "object"]);
const STRING_ANNOTATIONS = new Set(["title", "description", "$comment"]);
const BOOLEAN_ANNOTATIONS = new Set(["deprecated", "readOnly", "writeOnly"]);
const OBJECT_KEYWORDS = new Set(["properties", "required", "additionalProperties"]);

function isPlainSchema(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function pointerSegment(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Reads a schema into a {@link LiteNode}, or `undefined` when it uses
 * anything the built-in checker does not handle exactly like ajv (then ajv
 * compiles it, and reports any mistake in it).
 */
function liteNode(schema: unknown): LiteNode | undefined {
  if (!isPlainSchema(schema)) return undefined;
  const node: LiteNode = { type: undefined, properties: [], names: new Set(), required: [], closed: false, items: undefined };
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (key === "type") {
      if (typeof value !== "string" || !TYPES.has(value)) return undefined;
      node.type = value as JsonType;
    } else if (key === "properties") {
      if (!isPlainSchema(value)) return undefined;
      for (const name of Object.keys(value)) {
        // ajv skips a property named __proto__; leave such schemas to it.
        if (name === "__proto__") return undefined;
        const child = liteNode(value[name]);
        if (child === undefined) return undefined;
        node.properties.push({ name, pointer: `/${pointerSegment(name)}`, node: child });
        node.names.add(name);
      }
    } else if (key === "required") {
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string") || new Set(value).size !== value.length) return undefined;
      node.required = value as string[];
    } else if (key === "additionalProperties") {
      if (typeof value !== "boolean") return undefined;
      node.closed = !value;
    } else if (key === "items") {
      const child = liteNode(value);
      if (child === undefined) return undefined;
      node.items = child;
    } else if (STRING_ANNOTATIONS.has(key)) {
      if (typeof value !== "string") return undefined;
    } else if (BOOLEAN_ANNOTATIONS.has(key)) {
      if (typeof value !== "boolean") return undefined;
    } else if (key === "examples") {
      if (!Array.isArray(value)) return undefined;
    } else if (key === "default" || key.startsWith("x-")) {
      // Annotations and extensions: never checked.
    } else {
      return undefined;
    }
  }
  // Keywords of another type than the declared one: ajv's handling is its own business.
  if (node.type !== undefined && node.type !== "object" && Object.keys(schema).some((k) => OBJECT_KEYWORDS.has(k))) return undefined;
  if (node.type !== undefined && node.type !== "array" && "items" in schema) return undefined;
  return node;
}

function hasType(type: JsonType, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "integer":
      // ajv's integer test: a number with no fraction that is not NaN (Infinity passes).
      return typeof value === "number" && !(value % 1) && !Number.isNaN(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
  }
}

/** Checks `value` against `node`, appending problems in ajv's order (type; required; additional properties; properties; items). */
function checkLite(node: LiteNode, value: unknown, path: string, problems: SchemaProblem[]): void {
  if (node.type !== undefined && !hasType(node.type, value)) {
    problems.push({ path, message: `must be ${node.type}` });
    return;
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    for (const name of node.required) {
      if (object[name] === undefined) problems.push({ path, message: `is missing required property ${JSON.stringify(name)}` });
    }
    if (node.closed) {
      for (const key in object) {
        if (!node.names.has(key)) problems.push({ path, message: `has unknown property ${JSON.stringify(key)}` });
      }
    }
    for (const property of node.properties) {
      const child = object[property.name];
      if (child !== undefined) checkLite(property.node, child, path + property.pointer, problems);
    }
  } else if (node.items !== undefined && Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) checkLite(node.items, value[i], `${path}/${i}`, problems);
  }
}
