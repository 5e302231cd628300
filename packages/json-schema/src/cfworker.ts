/**
 * The `@cfworker/json-schema` validator: an interpreter of the schema, with
 * no code generation, so that it runs where that is forbidden (Cloudflare's
 * workerd; Node with `--disallow-code-generation-from-strings`). It is the
 * default there and under the `workerd`, `worker` and `browser` conditions.
 *
 * The library checks values but not schemas, and reports every keyword it
 * passed through. So that both validators give one verdict and one problem
 * format, this file adds what ajv does besides checking: a schema is
 * refused at compile when a keyword's value is not of the kind its dialect
 * says, when a `$ref` does not resolve inside it, or when it uses a keyword
 * the library does not implement (`$dynamicRef`, `$dynamicAnchor`, ajv's
 * `nullable`, `$async` and `format*` bounds) rather than skipping it; and
 * its results are worded as ajv words them, one problem per failing
 * keyword, the keywords that only pass on their subschemas' results left
 * out. Loaded on the first compile by a literal `require` a bundler follows.
 */
import type * as Cfworker from "@cfworker/json-schema";
import { replaceBigInts, requireLazily } from "@x/jsonrpc";
import type { Dialect } from "./dialect.js";
import { SchemaCompileError } from "./errors.js";
import { pointerToken, walkSchemas } from "./keywords.js";
import { shapeProblem } from "./shapes.js";
import type { JsonSchemaValidator, ValidatorProblem } from "./validator.js";

type Library = typeof Cfworker;
type Unit = Cfworker.OutputUnit;
type Node = Record<string, unknown>;

const isObject = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

let library: Library | undefined;

function cfworker(): Library {
  library ??= requireLazily(
    () => require("@cfworker/json-schema"),
    "@cfworker/json-schema",
    "@cfworker/json-schema",
    import.meta.url,
  ) as Library;
  return library;
}

/** The library's name of each dialect; draft-06 is its draft 7 without `if`/`then`/`else`. */
const DRAFTS: Record<Dialect, Cfworker.SchemaDraft> = {
  "2020-12": "2020-12",
  "2019-09": "2019-09",
  "draft-07": "7",
  "draft-06": "7",
  "draft-04": "4",
};

/** Keywords ajv implements and the library does not: refused rather than ignored. */
const UNSUPPORTED = new Set([
  "$dynamicRef",
  "$dynamicAnchor",
  "nullable",
  "$async",
  "formatMinimum",
  "formatMaximum",
  "formatExclusiveMinimum",
  "formatExclusiveMaximum",
]);

/** Makes the library's copy of a schema, refusing what ajv would refuse; `refs` collects the nodes holding a `$ref`. */
function prepare(schema: unknown, dialect: Dialect, refs: Node[]): unknown {
  let copy: unknown;
  try {
    copy = structuredClone(schema);
  } catch (error) {
    throw new SchemaCompileError("invalid", "schema is invalid: it is not a JSON value", {}, error);
  }
  walkSchemas(copy, (node, path) => {
    // draft-06 has no if/then/else: like ajv's draft-06 instance, the library must not apply them.
    if (dialect === "draft-06") for (const keyword of ["if", "then", "else"]) delete node[keyword];
    for (const [keyword, value] of Object.entries(node)) {
      if (UNSUPPORTED.has(keyword))
        throw new SchemaCompileError(
          "invalid",
          `schema is invalid: ${path || "(root)"} uses ${keyword}, which the cfworker validator does not implement`,
        );
      const expected = shapeProblem(keyword, value, dialect);
      if (expected !== undefined)
        throw new SchemaCompileError("invalid", `schema is invalid: ${path}/${pointerToken(keyword)} must be ${expected}`);
    }
    if (typeof node.$ref === "string") refs.push(node);
    return undefined;
  });
  return copy;
}

/** The JSON Pointer of one of the library's `#/a/b` locations (segments are URI-encoded pointer tokens). */
function pointerOf(location: string): string {
  if (location === "#") return "";
  return location
    .slice(1)
    .split("/")
    .map((segment) => decodeURIComponent(segment))
    .join("/");
}

/** The schema object holding the keyword at the end of a keyword location, following `$ref`s; `undefined` when it cannot be followed. */
function holderOf(root: unknown, lookup: Record<string, unknown>, location: string): Node | undefined {
  const segments = location.slice(2).split("/").slice(0, -1);
  let node: unknown = root;
  for (const raw of segments) {
    // Arrays too: a tuple's or a combinator's subschemas are located by index.
    if (typeof node !== "object" || node === null) return undefined;
    const segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (segment === "$ref") node = lookup[(node as Node).__absolute_ref__ as string];
    else if (segment === "$recursiveRef") return undefined;
    else node = (node as Node)[segment];
  }
  return isObject(node) ? node : undefined;
}

const quoted = (text: string, pattern: RegExp) => pattern.exec(text)?.[1];

/** The library's results worded as ajv words them (see the file comment). */
function problemsOf(units: Unit[], root: unknown, lookup: Record<string, unknown>, dialect: Dialect): ValidatorProblem[] {
  const out: ValidatorProblem[] = [];
  const reported = new Set<string>();
  for (let i = 0; i < units.length; i++) {
    const unit = units[i]!;
    const { keyword } = unit;
    const path = pointerOf(unit.instanceLocation);
    const holder = keyword === "false" ? undefined : holderOf(root, lookup, unit.keywordLocation);
    const value = holder?.[keyword];
    const add = (message: string, params: Record<string, unknown> = {}) => out.push({ path, message, keyword, params });
    switch (keyword) {
      // These only pass on what their subschemas found, which follows them.
      case "properties":
      case "patternProperties":
      case "prefixItems":
      case "$ref":
      case "$recursiveRef":
      case "allOf":
      case "dependentSchemas":
        break;
      case "additionalProperties":
      case "unevaluatedProperties": {
        if (value !== false) break;
        // A property a false schema refuses: one problem on the object, and the false schema's own is skipped.
        const key = quoted(unit.error, /^Property "(.*)" does not match/s) ?? "";
        if (units[i + 1]?.keyword === "false") i++;
        if (keyword === "additionalProperties") add(`has unknown property ${JSON.stringify(key)}`, { additionalProperty: key });
        else add("must NOT have unevaluated properties", { unevaluatedProperty: key });
        break;
      }
      case "items":
      case "additionalItems":
      case "unevaluatedItems": {
        if (value !== false) break;
        if (units[i + 1]?.keyword === "false") i++;
        // One problem for the array, as ajv gives, not one per item beyond the tuple.
        if (reported.has(`${keyword} ${path}`)) break;
        reported.add(`${keyword} ${path}`);
        const tuple = keyword === "items" ? (holder?.prefixItems ?? []) : holder?.items;
        if (keyword !== "unevaluatedItems" && Array.isArray(tuple))
          add(`must NOT have more than ${tuple.length} items`, { limit: tuple.length });
        else add("must NOT have unevaluated items");
        break;
      }
      case "propertyNames": {
        // The name's own problems follow, located at the property: left out, the name said instead.
        const key = quoted(unit.error, /^Property name "(.*)" does not match/s) ?? "";
        const at = `${unit.instanceLocation}/${cfworker().encodePointer(key)}`;
        while (units[i + 1]?.instanceLocation.startsWith(at)) i++;
        add(`property name ${JSON.stringify(key)} is invalid`, { propertyName: key });
        break;
      }
      case "dependencies":
      case "dependentRequired": {
        const pair = /^Instance has "(.*)" but does not have "(.*)"\.$/s.exec(unit.error);
        if (pair) add(`must have property ${pair[2]} when property ${pair[1]} is present`, { property: pair[1], missingProperty: pair[2] });
        break;
      }
      case "false":
        add("boolean schema is false");
        break;
      case "anyOf":
        add("must match a schema in anyOf");
        break;
      case "oneOf":
        add("must match exactly one schema in oneOf");
        break;
      case "not":
        add("must NOT be valid");
        break;
      case "if":
        add(`must match "${unit.error.includes('"then"') ? "then" : "else"}" schema`, {
          failingKeyword: unit.error.includes('"then"') ? "then" : "else",
        });
        break;
      case "contains":
      case "minContains":
      case "maxContains": {
        // One wording for the three, as ajv words its `contains`.
        const min = typeof holder?.minContains === "number" ? holder.minContains : 1;
        const max = holder?.maxContains;
        add(
          typeof max === "number"
            ? `must contain at least ${min} and no more than ${max} valid item(s)`
            : `must contain at least ${min} valid item(s)`,
          { minContains: min, maxContains: max },
        );
        break;
      }
      case "required": {
        const key = quoted(unit.error, /required property "(.*)"\.$/s) ?? "";
        add(`is missing required property ${JSON.stringify(key)}`, { missingProperty: key });
        break;
      }
      case "uniqueItems": {
        const pair = /indexes (\d+) and (\d+)/.exec(unit.error);
        add(pair ? `must NOT have duplicate items (items ## ${pair[1]} and ${pair[2]} are identical)` : "must NOT have duplicate items");
        break;
      }
      default:
        if (value === undefined) add(unit.error);
        else add(...leaf(keyword, value, holder!, dialect));
    }
  }
  return out;
}

/** The message and figures of a keyword that checks the value itself, from the keyword's value in the schema. */
function leaf(keyword: string, value: unknown, holder: Node, dialect: Dialect): [string, Record<string, unknown>] {
  const draft04 = dialect === "draft-04";
  switch (keyword) {
    case "type":
      return [`must be ${Array.isArray(value) ? value.join(",") : value}`, { type: value }];
    case "enum":
      return ["must be equal to one of the allowed values", { allowedValues: value }];
    case "const":
      return ["must be equal to constant", { allowedValue: value }];
    case "minimum":
      return [`must be ${draft04 && holder.exclusiveMinimum === true ? ">" : ">="} ${value}`, { limit: value }];
    case "maximum":
      return [`must be ${draft04 && holder.exclusiveMaximum === true ? "<" : "<="} ${value}`, { limit: value }];
    case "exclusiveMinimum":
      return [`must be > ${value}`, { limit: value }];
    case "exclusiveMaximum":
      return [`must be < ${value}`, { limit: value }];
    case "multipleOf":
      return [`must be multiple of ${value}`, { multipleOf: value }];
    case "minLength":
      return [`must NOT have fewer than ${value} characters`, { limit: value }];
    case "maxLength":
      return [`must NOT have more than ${value} characters`, { limit: value }];
    case "minItems":
      return [`must NOT have fewer than ${value} items`, { limit: value }];
    case "maxItems":
      return [`must NOT have more than ${value} items`, { limit: value }];
    case "minProperties":
      return [`must NOT have fewer than ${value} properties`, { limit: value }];
    case "maxProperties":
      return [`must NOT have more than ${value} properties`, { limit: value }];
    case "pattern":
      return [`must match pattern "${value}"`, { pattern: value }];
    case "format":
      return [`must match format "${value}"`, { format: value }];
    default:
      return [`must pass "${keyword}" keyword validation`, {}];
  }
}

const UNSUPPORTED_INSTANCE = /^Instances of "(\w+)" type are not supported/;

/** The formats the cfworker validator asserts (any other passes unchecked, as with ajv). */
export const CFWORKER_FORMATS: readonly string[] = Object.freeze([
  "date",
  "time",
  "date-time",
  "duration",
  "uri",
  "uri-reference",
  "uri-template",
  "url",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "regex",
  "uuid",
  "json-pointer",
  "json-pointer-uri-fragment",
  "relative-json-pointer",
]);

/**
 * The `@cfworker/json-schema` validator: no code generation; a schema is
 * checked when compiled (keyword values, `$ref`s resolving inside it,
 * keywords it cannot apply), and a refusal is always a SchemaCompileError
 * (`invalid` or `unresolved-ref`), trusted or not. Formats asserted: date,
 * time, date-time, duration, uri, uri-reference, uri-template, url, email,
 * hostname, ipv4, ipv6, regex, uuid, json-pointer,
 * json-pointer-uri-fragment, relative-json-pointer (an unknown format
 * passes, as with ajv).
 */
export const cfworkerValidator: JsonSchemaValidator = {
  name: "cfworker",
  generatesCode: false,
  compile(schema, dialect) {
    const { dereference, validate } = cfworker();
    const refs: Node[] = [];
    const copy = prepare(schema, dialect, refs);
    const draft = DRAFTS[dialect];
    let lookup: Record<string, unknown>;
    try {
      lookup = dereference(copy as Cfworker.Schema);
    } catch (error) {
      throw new SchemaCompileError("invalid", `schema is invalid: ${(error as Error).message}`, {}, error);
    }
    for (const node of refs) {
      const target = (node as { __absolute_ref__?: string }).__absolute_ref__;
      if (target !== undefined && lookup[target] === undefined)
        throw new SchemaCompileError("unresolved-ref", `can't resolve reference ${node.$ref as string} inside the schema`, {
          ref: node.$ref,
        });
    }
    const run = (value: unknown): Cfworker.ValidationResult | string => {
      try {
        return validate(value, copy as Cfworker.Schema, draft, lookup as Record<string, Cfworker.Schema>, false);
      } catch (error) {
        const kind = UNSUPPORTED_INSTANCE.exec((error as Error)?.message ?? "")?.[1];
        if (kind === undefined) throw error;
        return kind;
      }
    };
    return (value) => {
      let result = run(value);
      // A bigint is read as its nearest double (compileSchema's rule); the library refuses the type itself.
      if (result === "bigint") result = run(replaceBigInts(value, Number));
      if (typeof result === "string")
        return [{ path: "", message: `holds a value JSON cannot carry (${result})`, keyword: "type", params: {} }];
      return result.valid ? [] : problemsOf(result.errors, copy, lookup, dialect);
    };
  },
};
