/**
 * The envelope check compiles its schema documents with the default
 * validator on the first call: in a bundle built with ajv left out (and
 * nothing beside it) that call throws MissingDependencyError naming the
 * package, and importing the wire entry still costs nothing.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runBundleAlone } from "../../../test-support/bundle.js";

const here = dirname(fileURLToPath(import.meta.url));

describe("readEnvelope in a bundle without ajv", () => {
  it("imports, refuses a missing _meta without ajv, and throws MissingDependencyError on the first schema check", async () => {
    const out = await runBundleAlone(
      `import { readEnvelope } from ${JSON.stringify(join(here, "..", "dist", "wire.js"))};
const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
console.log(readEnvelope({}).code);
try { readEnvelope({ _meta: meta }); console.log("checked"); } catch (e) { console.log(e.name + ": " + e.dependency); }`,
      here,
      { external: ["ajv", "ajv-formats"] },
    );
    expect(out.split("\n")).toEqual(["-32602", "MissingDependencyError: ajv"]);
  });
});
