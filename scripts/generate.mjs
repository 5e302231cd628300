#!/usr/bin/env node
// Turns one pinned MCP schema revision into the generated sources of its
// package:
//
//   node scripts/generate.mjs <revision> [--out DIR]
//
// Input:  schema/<revision>/schema.json (run `pnpm sync-schema` first); its
//         sha256 must match schema/revisions.json, whose `errata` (if any)
//         are applied before anything is generated. A draft-07 schema
//         (2025-06-18 and earlier) is read with its `definitions` as `$defs`
//         (definitionsAsDefs of scripts/lib/schema-walk.mjs).
// Output: packages/<package>/src/generated/ (or DIR), eleven files, plus two
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
//   strict-validators.js, .d.ts, strict.ts
//                    the same validators compiled from the strict form of the
//                    schema (scripts/lib/strict.mjs: unknown members refused,
//                    with the pin's `strictOpen` places left open), and
//                    validateStrict(), the by-name check over them: the
//                    package's `./strict` entry, for conformance tests;
//   schemas.js, .d.ts
//                    one self-contained JSON Schema per definition (its
//                    `$ref` and the `$defs` it reaches, annotations dropped),
//                    for code that compiles at run time what it checks:
//                    a schema is a fraction of the size of its compiled code;
//   members.ts       the member lists (scripts/lib/members.mjs): each
//                    definition's members, read from the strict form, and
//                    which methods each side sends with each request's
//                    result, for code that reduces a message to what the
//                    revision defines (the package's `./members` entry);
//   schemas-<group>.js, .d.ts
//                    the schemas of one group (schema/revisions.json
//                    "schemaGroups": name -> definitions): a small module for
//                    code that must load fast (Node loads a whole module,
//                    whatever a bundler keeps).
//
// Everything revision-specific comes from schema/revisions.json; the same
// code runs on every revision. The output depends only on the input and on
// the locked tool versions, so `check-generated` can compare byte for byte.

import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ANNOTATION_KEYWORDS, DEF_REF, header, IDENTIFIER, moduleComment, stripAnnotations } from "./lib/emit.mjs";
import { MembersError, memberLists } from "./lib/members.mjs";
import { MethodTableError, methodTable } from "./lib/methods.mjs";
import { GenerateError, loadRevision } from "./lib/revision.mjs";
import { eachSchema, isObject } from "./lib/schema-walk.mjs";
import { openPointers, StrictSchemaError, strictDefinitions } from "./lib/strict.mjs";
import { buildTypes } from "./lib/types.mjs";
import { buildCheck, buildValidatorTypes, compileValidators, postProcessValidators } from "./lib/validators.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const fail = (message) => {
  throw new GenerateError(message);
};

// ---------------------------------------------------------------------------
// Input

export { loadRevision };

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
function readMethodTable(ctx) {
  try {
    return methodTable(ctx.schema);
  } catch (error) {
    if (error instanceof MethodTableError) fail(error.message);
    throw error;
  }
}

function buildMethods(ctx, table = readMethodTable(ctx)) {
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
// members.ts

/** The exports of what `side` sends (see scripts/lib/members.mjs, `sentBy`): its definitions, its params by method, its results by the other side's method. */
function sideLists(side, other, sent, definitions, key) {
  const byMethod = (map) => Object.entries(map).map(([method, value]) => `  ${JSON.stringify(method)}: ${JSON.stringify(value)},`);
  return [
    "/**",
    ` * The definitions the ${side}'s messages hold: the params of its requests and notifications, the results it answers`,
    ` * the ${other}'s requests with (and the rest of its result union), and all they refer to: enough to reduce any params`,
    ` * or result the ${side} writes. The JSON-RPC envelopes of its requests and notifications are not among them.`,
    " */",
    `export const ${side}Definitions: { readonly [name: string]: Shape } = {`,
    ...sent.definitions.map((name) => `  ${key(name)}: ${JSON.stringify(definitions[name])},`),
    "};",
    "",
    `/** The shape of the params of each request the ${side} sends, by method (\`0\` when it has none). */`,
    `export const ${side}RequestParams: { readonly [method: string]: Shape } = {`,
    ...byMethod(sent.requestParams),
    "};",
    "",
    `/** The shape of the params of each notification the ${side} sends, by method (\`0\` when it has none). */`,
    `export const ${side}NotificationParams: { readonly [method: string]: Shape } = {`,
    ...byMethod(sent.notificationParams),
    "};",
    "",
    `/** The definition of the result of each request the ${other} sends, by method: what the ${side} answers with. */`,
    `export const ${other}RequestResults: { readonly [method: string]: string } = {`,
    ...byMethod(sent.answers),
    "};",
    "",
  ];
}

/**
 * `members.ts`: the member lists of scripts/lib/members.mjs as literals,
 * one definition a line, with the type of a shape.
 */
function buildMembers(ctx, strictDefs, table) {
  let lists;
  try {
    lists = memberLists(strictDefs, table);
  } catch (error) {
    if (error instanceof MembersError) fail(error.message);
    throw error;
  }
  const key = (name) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
  const lines = [
    header(ctx, "the member lists: each definition's members (from the strict form), each side's methods, each request's result"),
    ...moduleComment(ctx, "members", [
      `What revision ${ctx.revision} defines, as data: each definition's members and what each`,
      "holds, read from the strict form of the schema (unknown members refused, the places",
      "the schema opens left open), and which requests and notifications each side sends.",
      "For a program that reduces a message to what this revision defines (a server",
      "answering a client pinned to it), with no validator and no schema document.",
    ]),
    "/**",
    " * How one place of a message is read: `0` anything, kept as it is; a",
    " * string, the definition of that name; `{ p, r, x }` an object with the",
    " * members `p` (their shapes), requiring `r`, whose other members are not",
    " * of this revision (`x` absent), kept (`x: 0`) or of shape `x`; `{ i }` an",
    " * array of `i`; `{ u }` one of `u`; `{ c }` the constant `c`; `{ e }` one",
    " * of the values `e`.",
    " */",
    "export type Shape =",
    "  | 0",
    "  | string",
    "  | { readonly p: { readonly [member: string]: Shape }; readonly r?: readonly string[]; readonly x?: Shape }",
    "  | { readonly i: Shape }",
    "  | { readonly u: readonly Shape[] }",
    "  | { readonly c: string | number | boolean | null }",
    "  | { readonly e: readonly (string | number | boolean | null)[] };",
    "",
    "// Each table writes its shapes out in full rather than naming shared constants: a bundle keeps the",
    "// tables it uses as plain literals, which compress far better than constants under minified names.",
    "",
    `/** Every definition of the ${ctx.revision} schema by name, as a {@link Shape}. */`,
    "export const definitions: { readonly [name: string]: Shape } = {",
    ...Object.entries(lists.definitions).map(([name, shape]) => `  ${key(name)}: ${JSON.stringify(shape)},`),
    "};",
    "",
    ...sideLists("server", "client", lists.sent.server, lists.definitions, key),
    ...sideLists("client", "server", lists.sent.client, lists.definitions, key),
    "/** Each request method: the definition of its request (its `params` member is the params' shape) and of its result. */",
    "export const requests: { readonly [method: string]: { readonly request: string; readonly result: string } } = {",
    ...Object.entries(lists.requests).map(([method, r]) => `  ${JSON.stringify(method)}: ${JSON.stringify(r)},`),
    "};",
    "",
    "/** Each notification method: the definition of its notification. */",
    "export const notifications: { readonly [method: string]: string } = {",
    ...Object.entries(lists.notifications).map(([method, name]) => `  ${JSON.stringify(method)}: ${JSON.stringify(name)},`),
    "};",
  ];
  const sides = [
    ["clientRequests", "ClientRequestMethod", "The requests the client sends (`ClientRequest`)."],
    ["serverRequests", "ServerRequestMethod", "The requests the server sends (`ServerRequest`)."],
    ["clientNotifications", "ClientNotificationMethod", "The notifications the client sends (`ClientNotification`)."],
    ["serverNotifications", "ServerNotificationMethod", "The notifications the server sends (`ServerNotification`)."],
  ];
  for (const [name, alias, doc] of sides) {
    lines.push("", `/** ${doc} */`, `export const ${name}: readonly string[] = ${JSON.stringify(lists.directions[alias] ?? [])};`);
  }
  lines.push(
    "",
    "/** The results the server sends (the definitions of `ServerResult`, in the schema's order). */",
    `export const serverResults: readonly string[] = ${JSON.stringify(lists.serverResults)};`,
    "",
    "/** `ClientCapabilities` as a {@link Shape}: what a client of this revision may declare in `initialize`, for a server reading a client's capabilities as its version means them. */",
    `export const clientCapabilities: Shape = ${JSON.stringify(lists.definitions.ClientCapabilities ?? 0)};`,
  );
  return `${lines.join("\n")}\n`;
}

/** types.ts of `revision` alone, as generate() makes it (for the revision comparison, which needs nothing else). */
export async function generateTypes(revision) {
  const ctx = loadRevision(revision);
  return buildTypes(ctx, checkSchema(ctx.schema));
}

/** Generates the files of `revision` (eleven, plus two per schema group); returns {files: {name: text}, packageName, defaultOut}. */
export async function generate(revision) {
  const ctx = loadRevision(revision);
  const names = checkSchema(ctx.schema);
  const types = await buildTypes(ctx, names);
  const validators = postProcessValidators(compileValidators(ctx, names), ctx, names);
  const validatorTypes = buildValidatorTypes(ctx, names);
  let strictForm;
  try {
    strictForm = strictDefinitions(ctx.schema, openPointers(ctx.schema, ctx.pin.strictOpen, { draft07: ctx.draft07 }));
  } catch (error) {
    if (error instanceof StrictSchemaError) fail(error.message);
    throw error;
  }
  const strictValidators = postProcessValidators(
    compileValidators(ctx, names, strictForm.defs),
    ctx,
    names,
    "ajv standalone validators of the strict form of the schema (scripts/lib/strict.mjs: unknown members refused), one export per definition",
  );
  const table = readMethodTable(ctx);
  const groupFiles = {};
  for (const [group, members] of schemaGroups(ctx, names)) {
    groupFiles[`schemas-${group}.js`] = buildSchemas(ctx, names, members, group);
    groupFiles[`schemas-${group}.d.ts`] = buildSchemaTypes(ctx, members, group);
  }
  return {
    files: {
      "types.ts": types,
      "methods.ts": buildMethods(ctx, table),
      "members.ts": buildMembers(ctx, strictForm.defs, table),
      "validators.js": validators,
      "validators.d.ts": validatorTypes,
      "validate.ts": buildCheck(ctx, names),
      "strict-validators.js": strictValidators,
      "strict-validators.d.ts": buildValidatorTypes(ctx, names, true),
      "strict.ts": buildCheck(ctx, names, true),
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
