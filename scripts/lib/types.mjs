// types.ts of a generated package: one TypeScript type per schema
// definition, made by json-schema-to-typescript (see buildTypes).

import { compile } from "json-schema-to-typescript";
import { DEF_REF, header, stripAnnotations } from "./emit.mjs";
import { GenerateError } from "./revision.mjs";
import { isObject, mapSchema } from "./schema-walk.mjs";

const fail = (message) => {
  throw new GenerateError(message);
};

/**
 * The schema's descriptions carry `{@link Target}` tags whose label was
 * joined to the target when the schema was made from the spec's TypeScript
 * (`{@link CallToolRequesttools/call}` for a link to `CallToolRequest`
 * labelled `tools/call`). Splits each such tag back into target and label
 * (`{@link CallToolRequest | tools/call}`): the target is the longest
 * definition name the tag starts with, and a tag that is a definition name,
 * or one followed by a member (`Tool.outputSchema`), is kept as it is. A
 * member of a member (`ClientCapabilities.sampling.tools`) has no anchor of
 * its own in the API reference: the link goes to the outer member, labelled
 * with the whole path.
 */
function splitLinkLabels(text, names) {
  const byLength = [...names].sort((a, b) => b.length - a.length);
  return text.replace(/\{@link ([^}|]+)\}/g, (tag, target) => {
    const name = byLength.find((n) => target.startsWith(n));
    if (name === undefined || name === target) return tag;
    if (target[name.length] === ".") {
      const path = target.split(".");
      return path.length > 2 ? `{@link ${path[0]}.${path[1]} | ${target}}` : tag;
    }
    return `{@link ${name} | ${target.slice(name.length).trim()}}`;
  });
}

/**
 * The TypeScript type of a value the schema leaves unconstrained (`{}`), and
 * of the `JSONValue` definition: any value JSON can carry. An object member
 * may also be `undefined` (JSON.stringify leaves such a key out), which is
 * what lets an optional property, and so every generated interface, count as
 * a JSON value. A `bigint` is an integer beyond 2^53, as `parseJson` of
 * `@x/jsonrpc` reads it and `stringifyJson` writes it.
 */
const JSON_VALUE_TYPE = "string | number | bigint | boolean | null | JSONValue[] | { [key: string]: JSONValue | undefined }";
/**
 * Definitions whose type is written here rather than derived: a request id or
 * a progress token beyond 2^53 is read as a `bigint` (so that its answer, or
 * the progress notifications naming it, carry the same digits).
 */
const DEFINITION_TYPES = { ProgressToken: "string | number | bigint", RequestId: "string | number | bigint" };
/** The type of the members an open object may carry beyond its declared properties. */
const EXTRA_MEMBER_TYPE = "JSONValue | undefined";

const TYPE_KEYWORDS = [
  "type",
  "$ref",
  "tsType",
  "anyOf",
  "allOf",
  "oneOf",
  "not",
  "enum",
  "const",
  "properties",
  "additionalProperties",
  "patternProperties",
  "items",
  "required",
];
const isUnconstrained = (s) => isObject(s) && !TYPE_KEYWORDS.some((k) => k in s);
const isObjectSchema = (s) => s.type === "object" || "properties" in s || "additionalProperties" in s;

/**
 * Rewrites one definition into the input json-schema-to-typescript gets:
 * - every `$ref` becomes `tsType: "<Name>"`, so each definition is converted
 *   on its own and referenced by name. This is what keeps the output free of
 *   numbered copies (`Annotations1`), which the tool makes when a `$ref`
 *   carries a sibling `description`; the description stays, as the doc
 *   comment of the property;
 * - an unconstrained subschema (`{}`, or only annotations) becomes
 *   `JSONValue` instead of `{ [k: string]: unknown }`;
 * - an object open to extra members (`additionalProperties` absent, `true`
 *   or `{}`) gets the index signature `[k: string]: JSONValue | undefined`
 *   rather than `unknown`. Since every declared property is itself a JSON
 *   value, each generated interface is then assignable to `JSONValue`, so
 *   typed params fit `JSONRPCRequest.params` and a typed object fits
 *   `structuredContent`;
 * - `title` is dropped: the tool would turn it into an extra named type.
 */
function toTypeInput(defSchema) {
  const unconstrained = new WeakSet();
  return mapSchema(defSchema, (s) => {
    const { title: _title, ...rest } = s;
    let out = rest;
    if (typeof out.$ref === "string") {
      const { $ref, ...siblings } = out;
      out = { tsType: DEF_REF.exec($ref)[1], ...siblings };
    } else if (isUnconstrained(out)) {
      out = { tsType: "JSONValue", ...out };
      unconstrained.add(out);
    }
    if (isObjectSchema(out)) {
      const extra = out.additionalProperties;
      if (extra === undefined || extra === true || unconstrained.has(extra)) {
        // Rendered `[k: string]: unknown` by the tool (which would otherwise
        // widen the signature with every declared property's type), then
        // rewritten to EXTRA_MEMBER_TYPE by buildTypes.
        out = { ...out, additionalProperties: true };
      }
    }
    return out;
  });
}

function jsonValueDoc(ctx) {
  const lines = [
    "Any value JSON can carry: a string, a number, a boolean, `null`, an array",
    "or an object of JSON values. Used for every property the schema leaves",
    "unconstrained (`{}`), such as `structuredContent` or an error's `data`.",
    "An integer beyond ±(2^53 − 1) is a `bigint`, with every digit.",
  ];
  const def = ctx.schema.$defs.JSONValue;
  if (def) {
    const asWritten = JSON.stringify(stripAnnotations(def, false));
    lines.push(
      "",
      "The schema also defines `JSONValue` itself; the validator of that name",
      `checks the definition as written, which can be narrower than this type: ${asWritten}`,
    );
    if (def.description) lines.push("", def.description);
  } else {
    lines.push("", "The schema has no `JSONValue` definition; this type is added by the generator.");
  }
  return lines.join("\n");
}

/** types.ts of the revision `ctx` (from loadRevision), for the definitions `names`. */
export async function buildTypes(ctx, names) {
  const options = {
    bannerComment: "",
    additionalProperties: false, // open objects are marked explicitly by toTypeInput
    declareExternallyReferenced: true,
    enableConstEnums: false,
    format: true,
    strictIndexSignatures: false,
    unknownAny: true,
    unreachableDefinitions: false,
    style: { printWidth: 120, singleQuote: false, trailingComma: "all", semi: true, tabWidth: 2, useTabs: false, bracketSpacing: true },
  };
  const chunks = [];
  const all = ctx.schema.$defs.JSONValue ? names : [...names, "JSONValue"];
  for (const name of all) {
    let input;
    if (name === "JSONValue") {
      input = { tsType: JSON_VALUE_TYPE, description: jsonValueDoc(ctx) };
    } else if (Object.hasOwn(DEFINITION_TYPES, name)) {
      const description = [ctx.schema.$defs[name].description, "An integer beyond ±(2^53 − 1) is a `bigint`, with every digit."];
      input = { tsType: DEFINITION_TYPES[name], description: description.filter(Boolean).join("\n\n") };
    } else {
      input = toTypeInput(structuredClone(ctx.schema.$defs[name]));
      if (!input.description) {
        input.description = `The \`${name}\` definition of the schema (\`#/$defs/${name}\`), which gives it no description.`;
      }
    }
    const ts = await compile(input, name, options);
    const declared = [...ts.matchAll(/^export (?:type|interface|enum|const enum) ([A-Za-z0-9_$]+)/gm)].map((m) => m[1]);
    if (declared.length !== 1 || declared[0] !== name) {
      fail(`json-schema-to-typescript made ${JSON.stringify(declared)} from #/$defs/${name}; expected exactly [${JSON.stringify(name)}]`);
    }
    chunks.push(splitLinkLabels(ts.replaceAll("[k: string]: unknown;", `[k: string]: ${EXTRA_MEMBER_TYPE};`), names).trimEnd());
  }
  return `${header(ctx, "TypeScript types, one per schema definition (json-schema-to-typescript)")}\n${chunks.join("\n\n")}\n`;
}
