// What the initialize era's version tables weigh in a bundle: the four
// versions' member lists, the reducer and the loader, bundled and minified
// as a user's bundler would. They hold the server's side of each version
// only (no JSON-RPC envelope it never reduces, nothing only a client sends),
// written as literals, under a byte budget that catches a regression.
import { resolve } from "node:path";
import * as v2503 from "@x/mcp-v2503/members";
import * as v2506 from "@x/mcp-v2506/members";
import * as v2411 from "@x/mcp-v2411/members";
import * as v2511 from "@x/mcp-v2511/members";
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";

/**
 * Most bytes the tables may take minified (all four versions, the reducer,
 * the loader): 27.6 KB when this was written, 41.0 KB with the shapes as
 * shared constants and the envelopes listed. A new version or a schema that
 * grows may raise it, on purpose.
 */
const BUDGET_BYTES = 31 * 1024;

const tables = resolve("src/revisions/initialize/versions/tables.ts");

async function minifiedTables(): Promise<string> {
  const result = await esbuild.build({
    stdin: { contents: `export { TABLES } from ${JSON.stringify(tables)};`, resolveDir: resolve(".") },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    // The reducer's two helpers from the core are the core's, not the tables'.
    external: ["@x/jsonrpc"],
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** True when `name` stands in `code` as a member's name (`Name:` or `"Name":`), which is how a listed definition appears. */
const listedIn = (code: string, name: string) => new RegExp(`(?<![\\w$"])"?${name}"?:`).test(code);

describe("the initialize era's version tables in a bundle", () => {
  const versions = { v2411, v2503, v2506, v2511 };

  it("list no request or notification envelope and no definition only the client sends", async () => {
    const code = await minifiedTables();
    for (const [label, members] of Object.entries(versions)) {
      // Sanity: the server's definitions are there.
      for (const name of Object.keys(members.serverDefinitions)) expect(listedIn(code, name), `${label} ${name}`).toBe(true);
      const envelopes = [...Object.values(members.requests).map((r) => r.request), ...Object.values(members.notifications)];
      for (const name of envelopes) expect(listedIn(code, name), `${label} ${name}`).toBe(false);
      for (const name of Object.keys(members.clientDefinitions)) {
        if (!Object.hasOwn(members.serverDefinitions, name)) expect(listedIn(code, name), `${label} ${name}`).toBe(false);
      }
    }
  });

  it(`take at most ${BUDGET_BYTES} bytes minified`, async () => {
    const code = await minifiedTables();
    expect(code.length).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
