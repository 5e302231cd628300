/**
 * The strict keyword check of a schema: a keyword that its dialect does not
 * define is almost always a typo (`properies`, `require`), and JSON Schema
 * ignores it, so the check it was meant to make silently never happens.
 */
import { trustedAjv } from "./compile.js";
import { schemaDialect } from "./dialect.js";

/** A keyword {@link unknownKeyword} found: its name and the JSON Pointer of the schema object holding it (`""` for the root). */
export interface UnknownKeyword {
  keyword: string;
  path: string;
}

/** Keywords whose value is a map of schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);
/** Keywords whose value is a schema or an array of schemas. */
const SCHEMA_VALUES = new Set([
  "items",
  "prefixItems",
  "additionalItems",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
]);

/**
 * Finds the first keyword of `schema`, at any depth of subschemas, that the
 * dialect its root `$schema` declares does not define (the keywords the
 * dialect's ajv instance knows: validation, applicators, core, meta-data,
 * content). Keywords starting with `x-` are extensions (as `x-mcp-header`)
 * and pass. The values of `const`, `enum`, `default` and `examples` are data,
 * not schemas, and are not walked. The walk uses an explicit stack (no
 * recursion limit) and visits each object once.
 *
 * @returns the keyword and where it is, or `undefined` when every keyword is known.
 * @throws MissingDependencyError when ajv is not installed; SchemaCompileError
 *   `unknown-dialect` for a `$schema` that is not supported (see `schemaDialect`).
 */
export function unknownKeyword(schema: unknown): UnknownKeyword | undefined {
  const dialect = schemaDialect(schema);
  const rules = trustedAjv(dialect).RULES.keywords;
  // ajv resolves `$anchor` while it collects ids, so its rules do not list it.
  const anchors = dialect === "2020-12" || dialect === "2019-09";
  const known = (key: string) => rules[key] === true || (anchors && key === "$anchor");
  const seen = new Set<object>();
  const stack: Array<[unknown, string]> = [[schema, ""]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (typeof node !== "object" || node === null || Array.isArray(node) || seen.has(node)) continue;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith("x-")) continue;
      if (!known(key)) return { keyword: key, path };
      const at = `${path}/${pointerToken(key)}`;
      if (SCHEMA_MAPS.has(key) && typeof value === "object" && value !== null && !Array.isArray(value)) {
        // `dependencies` maps to a schema or (a property list) an array of names: only objects are walked.
        for (const [name, sub] of Object.entries(value)) stack.push([sub, `${at}/${pointerToken(name)}`]);
      } else if (SCHEMA_VALUES.has(key)) {
        if (Array.isArray(value)) {
          for (const [i, sub] of value.entries()) stack.push([sub, `${at}/${i}`]);
        } else stack.push([value, at]);
      }
    }
  }
  return undefined;
}

function pointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}
