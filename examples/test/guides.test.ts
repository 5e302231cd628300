// The guides composed as a reader composes them: the server guide's program
// (docs/server.md, its `ts` blocks in order) started with `--stdio` by the
// client guide's StdioTransport (docs/client.md, "5. Transports").
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client, StdioTransport } from "@x/client";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const { guideCode } = (await import(pathToFileURL(join(root, "scripts/lib/guides.mjs")).href)) as {
  guideCode: (markdown: string) => { code: string; from: number[] };
};

/** A client of the guide's server over stdio, with what reached it other than the protocol. */
interface Spawned {
  client: Client;
  invalidLines: string[];
  stderr: string;
}

describe("the server guide's program, spawned over stdio as the client guide does", () => {
  let dir: string;
  const spawned: Spawned[] = [];

  async function spawnServer(): Promise<Spawned> {
    const one: Spawned = { client: new Client({ name: "notebook-cli", version: "1.0.0" }), invalidLines: [], stderr: "" };
    spawned.push(one);
    const transport = new StdioTransport({
      command: process.execPath,
      args: ["dist/server.js", "--stdio"],
      cwd: dir,
      stderr: (text) => {
        one.stderr += text;
      },
      onInvalidLine: (description) => one.invalidLines.push(description),
    });
    await one.client.connect(transport);
    return one;
  }

  beforeAll(() => {
    const { code } = guideCode(readFileSync(join(root, "docs/server.md"), "utf8"));
    const js = ts.transpileModule(code, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    // A folder of its own whose node_modules is this package's, so `@x/server` resolves as in a project.
    dir = mkdtempSync(join(tmpdir(), "x-guides-"));
    mkdirSync(join(dir, "dist"));
    symlinkSync(join(root, "examples/node_modules"), join(dir, "node_modules"), "dir");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(join(dir, "dist/server.js"), js);
  });

  afterAll(async () => {
    for (const one of spawned) await one.client.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("answers add_note, stdout carrying only the protocol, two instances side by side", async () => {
    // Two at once: a stdio server must not claim a port (the guide's HTTP server may hold it).
    const pair = await Promise.allSettled([spawnServer(), spawnServer()]);
    for (const [i, outcome] of pair.entries()) {
      expect(outcome.status, `instance ${i}: ${spawned[i]?.stderr}`).toBe("fulfilled");
    }
    for (const one of spawned) {
      const saved = await one.client.callTool("add_note", { title: "groceries", text: "eggs, flour" });
      expect(saved.isError, one.stderr).toBeFalsy();
      expect(saved.structuredContent).toEqual({ count: 1 });
      expect(saved.content).toEqual([{ type: "text", text: 'Saved "groceries".' }]);
      expect(one.invalidLines).toEqual([]);
    }
  });
});
