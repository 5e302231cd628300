// The validators of a generated package: ajv standalone code compiled from
// the schema (validators.js) or from its strict form (strict-validators.js),
// made an ES module with no work at import time, their declarations, and the
// by-name checks over them (validate.ts, strict.ts).

import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import { defId, header, moduleComment, stripAnnotations } from "./emit.mjs";
import { FORMAT_CHECKS, FORMAT_SAMPLES } from "./formats.mjs";
import { GenerateError } from "./revision.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const fail = (message) => {
  throw new GenerateError(message);
};

/**
 * Compiles every definition with ajv's draft-07 engine into standalone ES
 * module code. Each definition is added as its own schema (`$id: mcp:<Name>`,
 * `#/$defs/<Name>` references rewritten to it), so a definition used in many
 * places compiles to one shared function, and `inlineRefs: false` keeps every
 * reference a call to that function: a bundler then keeps only the functions
 * reachable from the validators a program imports.
 */
export function compileValidators(ctx, names, defs = ctx.schema.$defs) {
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
    ajv.addSchema({ $id: defId(name), ...stripAnnotations(defs[name]) });
  }
  const refs = Object.fromEntries(names.map((name) => [name, defId(name)]));
  return standaloneCode(ajv, refs);
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
export function postProcessValidators(code, ctx, names, what = "ajv standalone validators, one export per schema definition") {
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
    header(ctx, what),
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

/** The declarations of validators.js (or, with `strict`, of strict-validators.js, which shares its `Validator`). */
export function buildValidatorTypes(ctx, names, strict = false) {
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
  if (strict) {
    const lines = [
      header(ctx, "declarations of the strict validators (unknown members refused)"),
      `import type * as ${ns} from "./types.js";`,
      `import type { ${validator === "Validator" ? "Validator" : `Validator as ${validator}`} } from "./validators.js";`,
      "",
    ];
    for (const name of names) {
      lines.push(
        `/** Validates a value against the strict form of \`#/$defs/${name}\`: unknown members refused. */`,
        `export declare const ${name}: ${validator}<${ns}.${name}>;`,
      );
    }
    return `${lines.join("\n")}\n`;
  }
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

/**
 * `validate.ts` and `strict.ts`: the by-name check over the validators (or
 * the strict validators), the same for every revision; made from
 * scripts/templates/ (`validate.ts.txt` or `strict.ts.txt`, then
 * `check.ts.txt`, the check itself) with the revision, the package name and
 * the number of definitions filled in.
 */
export function buildCheck(ctx, names, strict = false) {
  const template = (name) => readFileSync(join(root, "scripts", "templates", name), "utf8");
  const fill = {
    REVISION: ctx.revision,
    PACKAGE: `@x/${ctx.pin.package}`,
    COUNT: String(names.length),
    FUNCTION: strict ? "validateStrict" : "validate",
    STRICT_RULE: strict ? ", and unknown members refused" : "",
    EXAMPLE_TYPE: "CallToolResult",
    EXAMPLE_PATH: "",
    EXAMPLE_MESSAGE: strict ? "must NOT have additional properties: 'extra'" : "must have required property 'content'",
    EXAMPLE_MEMBER: "content",
  };
  const body = `${template(strict ? "strict.ts.txt" : "validate.ts.txt")}${template("check.ts.txt")}`.replace(
    /\{\{([A-Z_]+)\}\}/g,
    (all, key) => fill[key] ?? fail(`scripts/templates: unknown placeholder ${all}`),
  );
  const what = strict
    ? "validateStrict(), the by-name check over the strict validators"
    : "validate(), the by-name check over the validators";
  return `${header(ctx, what)}\n${body}`;
}
