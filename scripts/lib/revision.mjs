// Reads one pinned revision of schema/revisions.json: its schema.json,
// checked against the pin's sha256, with the pin's errata applied and, for a
// draft-07 file, its definitions renamed to `$defs`. Used by the generator
// (scripts/generate.mjs), the revision comparison and the tests of the
// generated packages, which all see the schema the same way.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { definitionsAsDefs, isObject } from "./schema-walk.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** A failure the generator reports by its message alone (a pin, a schema or a template it cannot use). */
export class GenerateError extends Error {}
const fail = (message) => {
  throw new GenerateError(message);
};

/**
 * Reads and checks the pinned schema of `revision`: `{ revision, pin, input,
 * sha256, schema, draft07 }`, `schema` with its definitions under `$defs`
 * and `draft07` true when the published file had them under `definitions`.
 * @throws GenerateError when the revision is not pinned, its file is missing
 *   or not the pinned one, or an erratum does not match.
 */
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
  const published = JSON.parse(bytes.toString("utf8"));
  // Errata name places of the published file; the draft-07 container is renamed after them.
  for (const erratum of pin.errata ?? []) applyErratum(published, erratum, revision);
  const schema = definitionsAsDefs(published);
  return { revision, pin, input, sha256, schema, draft07: schema !== published };
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
