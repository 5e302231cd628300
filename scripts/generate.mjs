#!/usr/bin/env node
// Turns one pinned MCP schema revision into the generated sources of its
// package:
//
//   node scripts/generate.mjs <revision> [--out DIR]
//
// Input:  schema/<revision>/schema.json (run `pnpm sync-schema` first); its
//         sha256 must match schema/revisions.json, whose `errata` (if any)
//         are applied before anything is generated.
// Output: packages/<package>/src/generated/ (or DIR), seven files, plus two
// per schema group of the revision:
//   types.ts         one exported type per `$defs` entry, from
//                    json-schema-to-typescript, plus `JSONValue`;
//   methods.ts       the method table: each request method with its params
//                    and result types, each notification method with its
//                    params type (scripts/lib/methods.mjs pairs them);
//   validate.ts      validate(), the by-name check over the validators;
//   validators.js    ajv standalone validators, one export per definition,
//                    ES module, no work at import time;
//   validators.d.ts  their declarations, as type guards of the types above;
//   schemas.js, .d.ts
//                    one self-contained JSON Schema per definition (its
//                    `$ref` and the `$defs` it reaches, annotations dropped),
//                    for code that compiles at run time what it checks:
//                    a schema is a fraction of the size of its compiled code;
//   schemas-<group>.js, .d.ts
//                    the schemas of one group (schema/revisions.json
//                    "schemaGroups": name -> definitions): a small module for
//                    code that must load fast (Node loads a whole module,
//                    whatever a bundler keeps).
//
// Everything revision-specific comes from schema/revisions.json; the same
// code runs on every revision. The output depends only on the input and on
// the locked tool versions, so `check-generated` can compare byte for byte.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import { compile } from "json-schema-to-typescript";
import { FORMAT_CHECKS, FORMAT_SAMPLES } from "./lib/formats.mjs";
import { MethodTableError, methodTable } from "./lib/methods.mjs";
import { eachSchema, isObject, mapSchema } from "./lib/schema-walk.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SCRIPT = "scripts/generate.mjs";

class GenerateError extends Error {}
const fail = (message) => {
  throw new GenerateError(message);
};

// ---------------------------------------------------------------------------
// Input

function parseArgs(argv) {
  const positional = [];
  let out;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--out") {
      out = argv[++i];
      if (!out) fail("--out needs a directory");
    } else if (arg.startsWith("--out=")) {
      out = arg.slice("--out=".length);
    } else if (arg.startsWith("-")) {
      fail(`unknown option ${arg}`);
    } else {
      positional.push(arg);
    }
  }
  if (positional.length !== 1) fail("usage: node scripts/generate.mjs <revision> [--out DIR]");
  return { revision: positional[0], out };
}

/** Reads and checks the pinned schema of `revision`. */
export function loadRevision(revision) {
  const pins = JSON.parse(readFileSync(join(root, "schema/revisions.json"), "utf8"));
  const pin = pins.revisions[revision];
  if (!pin) fail(`unknown revision ${revision}; schema/revisions.json lists ${Object.keys(pins.revisions).join(", ")}`);
  if (!pin.package) fail(`schema/revisions.json gives no package for ${revision}`);
  const input = `schema/${revision}/schema.json`;
  let bytes;
  try {
    bytes = readFileSync(join(root, input));
  } catch {
    fail(`${input} not found; run \`pnpm sync-schema ${revision}\` first`);
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  if (sha256 !== pin.sha256) {
    fail(
      `${input}: sha256 mismatch\n  expected ${pin.sha256} (schema/revisions.json)\n  actual   ${sha256}\nRun \`pnpm sync-schema ${revision}\`.`,
    );
  }
  const schema = JSON.parse(bytes.toString("utf8"));
  for (const erratum of pin.errata ?? []) applyErratum(schema, erratum, revision);
  return { revision, pin, input, sha256, schema };
}

/**
 * Applies one erratum of the pin (`errata` in schema/revisions.json:
 * `{ pointer, from, to, why }`): where the published JSON Schema says less
 * than the spec's TypeScript source it is generated from, the value at the
 * JSON Pointer `pointer` is replaced. `from` must be what is there, so a
 * schema that changed upstream fails loudly instead of being patched blindly.
 */
function applyErratum(schema, erratum, revision) {
  const { pointer, from, to, why } = erratum ?? {};
  if (typeof pointer !== "string" || !pointer.startsWith("/") || to === undefined || typeof why !== "string") {
    fail(`schema/revisions.json: an erratum of ${revision} needs pointer, from, to and why`);
  }
  const keys = pointer
    .slice(1)
    .split("/")
    .map((k) => k.replaceAll("~1", "/").replaceAll("~0", "~"));
  const last = keys.pop();
  let parent = schema;
  for (const key of keys) parent = isObject(parent) || Array.isArray(parent) ? parent[key] : undefined;
  if (parent === undefined || JSON.stringify(parent[last]) !== JSON.stringify(from)) {
    fail(
      `erratum ${pointer} of ${revision}: expected ${JSON.stringify(from)}, found ${JSON.stringify(parent?.[last])}; check the erratum against the new schema`,
    );
  }
  parent[last] = structuredClone(to);
}

// ---------------------------------------------------------------------------
// Checks on the schema

/**
 * Keywords that the draft-07 engine of ajv would not enforce, or would read
 * differently, than JSON Schema 2019-09/2020-12 intends. The schema declares
 * 2020-12 but is compiled with ajv's draft-07 engine (smaller and faster
 * code), which is only sound while none of these appear.
 */
const NEWER_DRAFT_KEYWORDS = [
  "prefixItems",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
  "$anchor",
  "$vocabulary",
  "unevaluatedProperties",
  "unevaluatedItems",
  "dependentSchemas",
  "dependentRequired",
  "minContains",
  "maxContains",
  "contentSchema",
];
/** Keywords that only annotate: they never change what a schema accepts. */
const ANNOTATION_KEYWORDS = ["description", "title", "examples", "$comment", "default", "deprecated", "readOnly", "writeOnly"];
const DEF_REF = /^#\/\$defs\/([A-Za-z_$][A-Za-z0-9_$]*)$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function checkSchema(schema) {
  if (!isObject(schema.$defs)) fail("the schema has no $defs");
  const names = Object.keys(schema.$defs);
  for (const name of names) {
    if (!IDENTIFIER.test(name)) fail(`definition name ${JSON.stringify(name)} is not a JavaScript identifier`);
  }
  const extraRoot = Object.keys(schema).filter((k) => k !== "$schema" && k !== "$defs" && k !== "$id" && !ANNOTATION_KEYWORDS.includes(k));
  if (extraRoot.length > 0) fail(`the schema root has keywords other than $defs: ${extraRoot.join(", ")}; only $defs are generated`);
  const problems = [];
  for (const name of names) {
    eachSchema(
      schema.$defs[name],
      (sub, pointer) => {
        for (const keyword of NEWER_DRAFT_KEYWORDS) {
          if (keyword in sub) problems.push(`${pointer}: ${keyword} (not enforced by ajv's draft-07 engine)`);
        }
        if (Array.isArray(sub.items)) problems.push(`${pointer}: items is an array (a tuple in draft-07, invalid in 2020-12)`);
        if ("$ref" in sub) {
          if (typeof sub.$ref !== "string" || !DEF_REF.test(sub.$ref))
            problems.push(`${pointer}: $ref ${JSON.stringify(sub.$ref)} is not a local #/$defs/<Name>`);
          else if (!Object.hasOwn(schema.$defs, sub.$ref.slice("#/$defs/".length)))
            problems.push(`${pointer}: $ref ${sub.$ref} names no definition`);
          const siblings = Object.keys(sub).filter((k) => k !== "$ref" && !ANNOTATION_KEYWORDS.includes(k));
          if (siblings.length > 0)
            problems.push(`${pointer}: $ref has sibling keywords ${siblings.join(", ")} (draft-07 would ignore them)`);
        }
        if ("$id" in sub || "$schema" in sub) problems.push(`${pointer}: nested $id/$schema`);
      },
      `#/$defs/${name}`,
    );
  }
  if (problems.length > 0) {
    fail(`the schema uses constructs this generator does not support:\n  ${problems.join("\n  ")}`);
  }
  return names;
}

// ---------------------------------------------------------------------------
// Header

function header(ctx, what) {
  return [
    `// Generated by ${SCRIPT} from ${ctx.input}`,
    `// (sha256 ${ctx.sha256}): ${what}.`,
    `// Do not edit: change the generator and run \`pnpm generate ${ctx.revision}\`.`,
    "",
  ].join("\n");
}

/**
 * The doc comment that names a generated file which is an entry of the
 * package (`@x/<package>/<entry>`), for the API reference (typedoc's
 * `@module`): without it the entry would be named after its file path.
 */
function moduleComment(ctx, entry, lines) {
  return ["/**", ...lines.map((line) => ` * ${line}`), " *", ` * @module @x/${ctx.pin.package}/${entry}`, " */", ""];
}

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

// ---------------------------------------------------------------------------
// types.ts

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

async function buildTypes(ctx, names) {
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

// ---------------------------------------------------------------------------
// validators.js and validators.d.ts

/** The `$id` each definition gets for ajv, so that every one compiles once and is shared. */
const defId = (name) => `mcp:${name}`;

/** Drops annotation keywords; with `rewriteRefs`, points each `$ref` at its definition's own `$id`. */
function stripAnnotations(schema, rewriteRefs = true) {
  return mapSchema(schema, (s) => {
    const out = {};
    for (const [key, value] of Object.entries(s)) {
      if (ANNOTATION_KEYWORDS.includes(key) || key === "$schema") continue;
      out[key] = key === "$ref" && rewriteRefs ? defId(DEF_REF.exec(value)[1]) : value;
    }
    return out;
  });
}

/**
 * Compiles every definition with ajv's draft-07 engine into standalone ES
 * module code. Each definition is added as its own schema (`$id: mcp:<Name>`,
 * `#/$defs/<Name>` references rewritten to it), so a definition used in many
 * places compiles to one shared function, and `inlineRefs: false` keeps every
 * reference a call to that function: a bundler then keeps only the functions
 * reachable from the validators a program imports.
 */
function compileValidators(ctx, names) {
  const ajv = new Ajv({
    code: { source: true, esm: true, lines: false, optimize: true },
    strict: true,
    allowUnionTypes: true,
    allErrors: false,
    inlineRefs: false,
    validateFormats: true,
    messages: true,
  });
  addFormats(ajv);
  for (const name of names) {
    ajv.addSchema({ $id: defId(name), ...stripAnnotations(ctx.schema.$defs[name]) });
  }
  const refs = Object.fromEntries(names.map((name) => [name, defId(name)]));
  return standaloneCode(ajv, refs);
}

/**
 * The schema groups of the revision (`schemaGroups` of its pin: a lower-case
 * name to definition names), checked.
 */
function schemaGroups(ctx, names) {
  const groups = ctx.pin.schemaGroups ?? {};
  if (!isObject(groups)) fail(`schema/revisions.json: schemaGroups of ${ctx.revision} must be an object`);
  for (const [group, members] of Object.entries(groups)) {
    if (!/^[a-z][a-z0-9-]*$/.test(group)) fail(`schema group name ${JSON.stringify(group)} is not lower-case letters, digits and dashes`);
    if (!Array.isArray(members) || members.length === 0) fail(`schema group ${group} must list definition names`);
    for (const member of members) {
      if (!names.includes(member)) fail(`schema group ${group} names ${JSON.stringify(member)}, which is no definition`);
    }
  }
  return Object.entries(groups);
}

// ---------------------------------------------------------------------------
// schemas.js and schemas.d.ts

/** The definitions `name` reaches through `$ref`, itself first, then in the order they are met. */
function reachable(ctx, name) {
  const seen = [name];
  for (let i = 0; i < seen.length; i++) {
    eachSchema(ctx.schema.$defs[seen[i]], (s) => {
      if (typeof s.$ref !== "string") return;
      const target = DEF_REF.exec(s.$ref)?.[1];
      if (target === undefined) fail(`#/$defs/${seen[i]} has a $ref ${JSON.stringify(s.$ref)} outside #/$defs`);
      if (!seen.includes(target)) seen.push(target);
    });
  }
  return seen;
}

/**
 * `schemas.js` (or, with `group`, `schemas-<group>.js`): for each exported
 * definition a self-contained JSON Schema document in the schema's own
 * dialect, `{ $schema, $ref: "#/$defs/<Name>", $defs }`, whose `$defs` hold
 * the definitions it reaches, annotations dropped. Each definition is one
 * top-level constant shared by the documents that reach it, so a bundler
 * keeps only what the imported documents use.
 */
function buildSchemas(ctx, names, exported = names, group = undefined) {
  const needed = new Set(exported.flatMap((name) => reachable(ctx, name)));
  const local = (name) => `def_${name}`;
  const lines = [
    header(
      ctx,
      group === undefined
        ? "one JSON Schema document per definition"
        : `the JSON Schema documents of the ${group} group (${exported.join(", ")})`,
    ),
    `const $schema = ${JSON.stringify(ctx.schema.$schema)};`,
  ];
  for (const name of names) {
    if (needed.has(name)) lines.push(`const ${local(name)} = ${JSON.stringify(stripAnnotations(ctx.schema.$defs[name], false))};`);
  }
  for (const name of exported) {
    const defs = reachable(ctx, name).map((d) => (IDENTIFIER.test(d) ? `${d}: ${local(d)}` : `${JSON.stringify(d)}: ${local(d)}`));
    lines.push(`export const ${name} = { $schema, $ref: "#/$defs/${name}", $defs: { ${defs.join(", ")} } };`);
  }
  return `${lines.join("\n")}\n`;
}

/** The declarations of schemas.js (or of schemas-<group>.js, which takes `SchemaDocument` from schemas.d.ts). */
function buildSchemaTypes(ctx, exported, group = undefined) {
  const lines = [
    header(
      ctx,
      group === undefined ? "declarations of the JSON Schema documents" : `declarations of the JSON Schema documents of the ${group} group`,
    ),
  ];
  if (group === undefined) {
    lines.push(
      ...moduleComment(ctx, "schemas", [
        `Each definition of the ${ctx.revision} schema as a JSON Schema document of its own, named as the`,
        "definition, for a JSON Schema validator of your choice (the package's own validators need none of them).",
      ]),
      "/**",
      " * A self-contained JSON Schema document of one definition: the schema's",
      " * dialect, a `$ref` to the definition, and every definition it reaches",
      " * under `$defs`. Shared with every importer: read it, do not change it.",
      " */",
      "export interface SchemaDocument {",
      "  readonly $schema: string;",
      "  readonly $ref: string;",
      "  readonly $defs: { readonly [name: string]: object };",
      "}",
      "",
    );
  } else {
    lines.push('import type { SchemaDocument } from "./schemas.js";', "");
  }
  for (const name of exported) {
    lines.push(`/** The schema's \`#/$defs/${name}\` as a document of its own. */`, `export declare const ${name}: SchemaDocument;`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Makes ajv's standalone output an ES module with no CommonJS and no work at
 * import time:
 * - `const x = require("ajv-formats/dist/formats").fullFormats.f;` lines
 *   become the check of format `f` from scripts/lib/formats.mjs, written
 *   into the file, so that a bundle keeps only the formats its validators
 *   check rather than ajv-formats' whole table;
 * - other `const x = require("m").a.b;` lines (runtime helpers) become
 *   `import` declarations, and each use of `x` becomes the property lookup
 *   itself, done inside the validate function when it runs;
 * - top-level `new RegExp(...)` is marked pure;
 * - one top-level statement per line, for readable diffs.
 */
export function postProcessValidators(code, ctx, names) {
  let body = code.replace(/^"use strict";/, "");
  body = body.replace(/\/\*# sourceURL="[^"]*" \*\/;?/g, "");

  const formatLine =
    /const ([A-Za-z_$][\w$]*) = require\("ajv-formats\/dist\/formats"\)\.fullFormats(?:\.([A-Za-z_$][\w$]*)|\["([^"]+)"\]);/g;
  const formats = new Set();
  const formatUses = [];
  body = body.replace(formatLine, (_all, local, dotted, quoted) => {
    const name = dotted ?? quoted;
    formats.add(name);
    formatUses.push([local, formatCheck(name).check.name]);
    return "";
  });
  for (const [local, check] of formatUses) {
    body = body.replace(new RegExp(`(?<![\\w$.])${local.replace(/\$/g, "\\$")}(?![\\w$])`, "g"), check);
  }

  const imports = new Map(); // import line -> true
  const requireLine = /const ([A-Za-z_$][\w$]*) = require\("([^"]+)"\)((?:\.[A-Za-z_$][\w$]*|\["[^"]+"\])*);/g;
  const replacements = [];
  body = body.replace(requireLine, (_all, local, specifier, accessors) => {
    const moduleId = /\.[cm]?js$/.test(specifier) ? specifier : `${specifier}.js`;
    const slug = specifier.replace(/^.*\//, "").replace(/[^A-Za-z0-9_$]/g, "_");
    const first = /^\.([A-Za-z_$][\w$]*)/.exec(accessors);
    let expression;
    if (first && first[1] !== "default") {
      // A named export: portable across Node's CommonJS interop and bundlers.
      const binding = `${slug}_${first[1]}`;
      imports.set(`import { ${first[1]} as ${binding} } from "${moduleId}";`, true);
      expression = binding + accessors.slice(first[0].length);
    } else {
      // `.default` of a transpiled CommonJS module: Node hands over
      // module.exports, some bundlers hand over exports.default; take either.
      const binding = `${slug}_module`;
      imports.set(`import ${binding} from "${moduleId}";`, true);
      const rest = first ? accessors.slice(first[0].length) : "";
      expression = first ? `(typeof ${binding} === "function" ? ${binding} : ${binding}.default)${rest}` : `${binding}${rest}`;
    }
    replacements.push([local, expression]);
    return "";
  });
  for (const [local, expression] of replacements) {
    const use = new RegExp(`(?<![\\w$.])${local.replace(/\$/g, "\\$")}(?![\\w$])`, "g");
    body = body.replace(use, expression);
  }
  if (/\brequire\(/.test(body)) fail("ajv's standalone output still calls require() after post-processing; extend postProcessValidators");

  body = body.replace(/(^|;)(const [A-Za-z_$][\w$]* = )new RegExp\(/g, "$1$2/* @__PURE__ */ new RegExp(");

  // One top-level statement per line.
  body = body.replace(
    /(?<=[;}])(?=export const [A-Za-z_$][\w$]* = validate\d+;|function validate\d+\(data, \{|const (?:schema|formats|pattern|func)\d+ = )/g,
    "\n",
  );
  body = body.replace(/^\n+/, "");

  const exported = [...body.matchAll(/^export const ([A-Za-z_$][\w$]*) = validate\d+;$/gm)].map((m) => m[1]);
  const missing = names.filter((n) => !exported.includes(n));
  if (missing.length > 0 || exported.length !== names.length) {
    fail(
      `validators.js should export one validator per definition; missing: ${missing.join(", ") || "none"}, exported ${exported.length} of ${names.length}`,
    );
  }
  // Exports first, in definition order, then the functions and constants.
  const exportLines = names.map((name) => body.match(new RegExp(`^export const ${name} = validate\\d+;$`, "m"))[0]);
  const rest = body
    .split("\n")
    .filter((line) => !/^export const [A-Za-z_$][\w$]* = validate\d+;$/.test(line))
    .join("\n");

  const formatCode = [...formats].sort().flatMap((name) => {
    const { regexps, check } = formatCheck(name);
    return [...Object.entries(regexps).map(([id, re]) => `const ${id} = ${re};`), check.toString().replace(/\n\s*/g, " ")];
  });
  return [
    header(ctx, "ajv standalone validators, one export per schema definition"),
    [...imports.keys()].sort().join("\n"),
    "",
    exportLines.join("\n"),
    ...(formatCode.length > 0 ? [`// String formats: ajv-formats' checks, from scripts/lib/formats.mjs.\n${formatCode.join("\n")}`] : []),
    rest.trimEnd(),
    "",
  ]
    .filter((part, i) => i !== 1 || part !== "")
    .join("\n");
}

/**
 * The check of string format `name` (scripts/lib/formats.mjs), after making
 * sure it answers as ajv-formats does on every sample.
 */
function formatCheck(name) {
  const entry = Object.hasOwn(FORMAT_CHECKS, name) ? FORMAT_CHECKS[name] : undefined;
  if (!entry) fail(`the schema uses format "${name}", which scripts/lib/formats.mjs does not implement; add it there`);
  const reference = fullFormats[name];
  const expected =
    typeof reference === "function" ? reference : reference instanceof RegExp ? (s) => reference.test(s) : reference.validate;
  for (const sample of FORMAT_SAMPLES) {
    if (entry.check(sample) !== expected(sample)) {
      fail(`format "${name}" of scripts/lib/formats.mjs disagrees with ajv-formats on ${JSON.stringify(sample)}`);
    }
  }
  return entry;
}

/** The declarations of validators.js. */
function buildValidatorTypes(ctx, names) {
  const taken = new Set(names);
  const pick = (base) => {
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
    taken.add(name);
    return name;
  };
  const ns = pick("Types");
  const errorObject = pick("AjvErrorObject");
  const validator = pick("Validator");
  const lines = [
    header(ctx, "declarations of the ajv standalone validators"),
    ...moduleComment(ctx, "validators", [
      `One validator per definition of the ${ctx.revision} schema, compiled ahead of time (ajv standalone code),`,
      "named as the definition: import the few a program needs and a bundler keeps only those.",
    ]),
    `import type { ErrorObject as ${errorObject} } from "ajv";`,
    `import type * as ${ns} from "./types.js";`,
    "",
    "/**",
    " * A validator compiled ahead of time from one schema definition. Calling it",
    " * returns true when `data` matches the definition (and narrows `data` to its",
    " * type); otherwise false, with the problems on `errors`.",
    " *",
    " * `errors` holds ajv's error objects after a call that returned false",
    " * (`instancePath` is a JSON Pointer into `data`), `null` after one that",
    " * returned true, and is absent before the first call. It belongs to the",
    " * function, so read it before the next call.",
    " */",
    `export interface ${validator}<Value> {`,
    "  (data: unknown): data is Value;",
    `  errors?: ${errorObject}[] | null;`,
    "}",
    "",
  ];
  for (const name of names) {
    lines.push(
      `/** Validates a value against the schema's \`#/$defs/${name}\`, narrowing it to {@link ${ns}.${name}}. */`,
      `export declare const ${name}: ${validator}<${ns}.${name}>;`,
    );
  }
  return `${lines.join("\n")}\n`;
}

// ---------------------------------------------------------------------------
// methods.ts

/** A TypeScript string literal type of `text`. */
const literal = (text) => JSON.stringify(text);
const union = (items) => (items.length === 0 ? "never" : items.map(literal).join(" | "));

/**
 * `methods.ts`: the method table of the revision as types only, over the
 * types of types.ts (no new shapes), so that a client's `request(method)` and
 * a server's handler table can be typed by method string.
 */
function buildMethods(ctx) {
  let table;
  try {
    table = methodTable(ctx.schema);
  } catch (error) {
    if (error instanceof MethodTableError) fail(error.message);
    throw error;
  }
  const uses = new Set([...table.requests, ...table.notifications].flatMap((entry) => entry.uses));
  const lines = [header(ctx, "the method table: params and result types by method string")];
  lines.push("import type {", ...[...uses].sort().map((name) => `  ${name},`), '} from "./types.js";', "");
  lines.push(
    "/**",
    ` * Every request of the ${ctx.revision} schema by its method string: a \`*Request\``,
    " * definition whose `method` is a `const`. `params` is the type of its",
    " * `params` member (with `undefined` when the schema makes it optional);",
    " * `result` the result of a request that completed; `response` what the",
    " * `result` of a success response may hold, which adds the interim results",
    " * the schema allows (`InputRequiredResult` for Multi Round-Trip Requests)",
    " * and is `result` otherwise. Each entry says what pairs it with its result.",
    " */",
    "export interface RequestMethods {",
  );
  for (const r of table.requests) {
    lines.push(
      `  /** \`${r.name}\` (\`#/$defs/${r.name}\`); result paired by ${r.pairedBy}. */`,
      `  ${literal(r.method)}: {`,
      `    params: ${r.params};`,
      `    result: ${r.result};`,
      `    response: ${r.response.join(" | ")};`,
      "  };",
    );
  }
  lines.push(
    "}",
    "",
    `/** A request method string of ${ctx.revision}, e.g. \`"tools/call"\`: a key of {@link RequestMethods}. */`,
    "export type RequestMethod = keyof RequestMethods;",
    "",
    '/** The params type of request method `M`, e.g. `ParamsOf<"tools/call">` is `CallToolRequestParams`. */',
    'export type ParamsOf<M extends RequestMethod> = RequestMethods[M]["params"];',
    "",
    '/** The result of request method `M` once complete, e.g. `ResultOf<"tools/call">` is `CallToolResult`. */',
    'export type ResultOf<M extends RequestMethod> = RequestMethods[M]["result"];',
    "",
    "/**",
    " * What the `result` of a success response to `M` may hold: {@link ResultOf}",
    " * plus the interim results the schema allows for `M` (e.g.",
    ' * `InputRequiredResult | CallToolResult` for `"tools/call"`).',
    " */",
    'export type ResponseResultOf<M extends RequestMethod> = RequestMethods[M]["response"];',
    "",
    "/**",
    ` * Every notification of the ${ctx.revision} schema by its method string: a`,
    " * `*Notification` definition whose `method` is a `const`, with the type of",
    " * its `params` member. Notifications have no result.",
    " */",
    "export interface NotificationMethods {",
  );
  for (const n of table.notifications) {
    lines.push(`  /** \`${n.name}\` (\`#/$defs/${n.name}\`). */`, `  ${literal(n.method)}: { params: ${n.params} };`);
  }
  lines.push(
    "}",
    "",
    `/** A notification method string of ${ctx.revision}: a key of {@link NotificationMethods}. */`,
    "export type NotificationMethod = keyof NotificationMethods;",
    "",
    "/** The params type of notification method `M`. */",
    'export type NotificationParamsOf<M extends NotificationMethod> = NotificationMethods[M]["params"];',
  );
  for (const d of table.directions) {
    const base = d.kind === "requests" ? "RequestMethod" : "NotificationMethod";
    lines.push("");
    if (d.methods === undefined) {
      lines.push(
        `/** The ${d.kind} the ${d.sender} sends: none, as far as the schema says (it has no \`${d.union}\` union). */`,
        `export type ${d.alias} = never;`,
      );
    } else {
      lines.push(
        `/** The ${d.kind} the ${d.sender} sends: the members of \`#/$defs/${d.union}\`. */`,
        `export type ${d.alias} = Extract<${base}, ${union(d.methods)}>;`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

// ---------------------------------------------------------------------------

/**
 * `validate.ts`: the by-name `validate()` over the validators, the same for
 * every revision; made from scripts/templates/validate.ts.txt with the
 * revision, the package name and the number of definitions filled in.
 */
function buildValidate(ctx, names) {
  const template = readFileSync(join(root, "scripts", "templates", "validate.ts.txt"), "utf8");
  const body = template
    .replaceAll("{{REVISION}}", ctx.revision)
    .replaceAll("{{PACKAGE}}", `@x/${ctx.pin.package}`)
    .replaceAll("{{COUNT}}", String(names.length));
  return `${header(ctx, "validate(), the by-name check over the validators")}\n${body}`;
}

/** Generates the files of `revision` (seven, plus two per schema group); returns {files: {name: text}, packageName, defaultOut}. */
export async function generate(revision) {
  const ctx = loadRevision(revision);
  const names = checkSchema(ctx.schema);
  const types = await buildTypes(ctx, names);
  const validators = postProcessValidators(compileValidators(ctx, names), ctx, names);
  const validatorTypes = buildValidatorTypes(ctx, names);
  const groupFiles = {};
  for (const [group, members] of schemaGroups(ctx, names)) {
    groupFiles[`schemas-${group}.js`] = buildSchemas(ctx, names, members, group);
    groupFiles[`schemas-${group}.d.ts`] = buildSchemaTypes(ctx, members, group);
  }
  return {
    files: {
      "types.ts": types,
      "methods.ts": buildMethods(ctx),
      "validators.js": validators,
      "validators.d.ts": validatorTypes,
      "validate.ts": buildValidate(ctx, names),
      "schemas.js": buildSchemas(ctx, names),
      "schemas.d.ts": buildSchemaTypes(ctx, names),
      ...groupFiles,
    },
    packageDir: join(root, "packages", ctx.pin.package),
    defaultOut: join(root, "packages", ctx.pin.package, "src/generated"),
    definitions: names.length,
  };
}

export function writeFiles(dir, files) {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

async function main() {
  const { revision, out } = parseArgs(process.argv.slice(2));
  const result = await generate(revision);
  if (!out && !existsSync(join(result.packageDir, "package.json"))) {
    fail(`${relative(root, result.packageDir)} does not exist; create the package first, or pass --out DIR`);
  }
  const dir = out ? resolve(out) : result.defaultOut;
  writeFiles(dir, result.files);
  const sizes = Object.entries(result.files)
    .map(([name, text]) => `${name} ${Buffer.byteLength(text)} B`)
    .join(", ");
  console.log(`${revision}: ${result.definitions} definitions -> ${relative(process.cwd(), dir) || "."} (${sizes})`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`generate: ${error instanceof GenerateError ? error.message : error.stack}`);
    process.exit(1);
  });
}
