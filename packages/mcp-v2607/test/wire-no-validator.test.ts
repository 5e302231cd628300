/**
 * The envelope check needs no JSON Schema validator package: its schema
 * documents are checked by `documentCheck` of `@x/json-schema`. A bundle
 * built with every validator left out (and nothing beside it) checks the
 * envelope, and carries none of them.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bundle, runBundleAlone } from "../../../test-support/bundle.js";

const here = dirname(fileURLToPath(import.meta.url));
const program = `import { readEnvelope } from ${JSON.stringify(join(here, "..", "dist", "wire.js"))};
const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
console.log(readEnvelope({}).code);
console.log(readEnvelope({ _meta: meta }).ok);
console.log(readEnvelope({ _meta: { ...meta, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1", websiteUrl: "no" } } }).message);`;

describe("readEnvelope without a JSON Schema validator", () => {
  it("checks the envelope in a bundle built with ajv and @cfworker/json-schema left out", async () => {
    const out = await runBundleAlone(program, here, { external: ["ajv", "ajv-formats", "ajv-draft-04", "@cfworker/json-schema"] });
    expect(out.split("\n")).toEqual([
      "-32602",
      "true",
      'Invalid params: _meta["io.modelcontextprotocol/clientInfo"].websiteUrl must match format "uri"',
    ]);
  });

  it("and a bundle of it carries none", async () => {
    const text = await bundle(program, here);
    expect(text).not.toMatch(/node_modules\/(\.pnpm\/)?(ajv|@cfworker)|require\("(ajv|@cfworker)/);
  });
});
