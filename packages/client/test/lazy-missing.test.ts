import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeHandler, McpServer } from "@x/server";
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";

// The packages @x/client imports on first use (src/lazy.ts), left out of a
// bundle that runs with nothing beside it: the first use names the package
// (MissingDependencyError), it is not blamed on the server.
describe("in a bundle built with eventsource-parser and oauth4webapi left out", () => {
  it("an SSE answer and an authorization reject with a MissingDependencyError naming the package", async () => {
    const dir = mkdtempSync(join(tmpdir(), "x-mcp-client-lazy-"));
    try {
      await esbuild.build({
        stdin: {
          contents: `import { createServer } from "node:http";
import { Client, StreamableHttpTransport } from ${JSON.stringify(resolve("dist/index.js"))};
let base = "";
const http = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (req.url === "/sse") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end('event: message\\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\\n\\n');
    } else if (req.url === "/.well-known/oauth-protected-resource/auth") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ resource: base + "/auth", authorization_servers: [base] }));
    } else {
      res.writeHead(401, { "www-authenticate": 'Bearer resource_metadata="' + base + '/.well-known/oauth-protected-resource/auth"' });
      res.end();
    }
  });
});
await new Promise((r) => http.listen(0, "127.0.0.1", r));
base = "http://127.0.0.1:" + http.address().port;
const out = [];
const options = { signal: new AbortController().signal, headers: {}, onNotification() {} };
const sse = new StreamableHttpTransport(base + "/sse");
try { await sse.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, options); out.push("answered"); }
catch (e) { out.push(e.name + ": " + e.dependency); }
const client = new Client({ name: "c", version: "1" }, { protocol: "2026-07-28" });
const authorized = new StreamableHttpTransport(base + "/auth", { auth: { clientInformation: { client_id: "c" }, redirectUrl: "http://127.0.0.1:1/cb", authorize: async () => { throw new Error("not reached"); } } });
try { await client.connect(authorized); await client.listTools(); out.push("listed"); }
catch (e) { out.push(e.name + ": " + e.dependency); }
console.log(JSON.stringify(out));
http.close();`,
          resolveDir: resolve("."),
        },
        bundle: true,
        external: ["eventsource-parser", "oauth4webapi"],
        format: "esm",
        platform: "node",
        outfile: join(dir, "client.mjs"),
        logLevel: "silent",
      });
      const out = execFileSync(process.execPath, [join(dir, "client.mjs")], {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, NODE_PATH: "" },
      });
      expect(JSON.parse(out)).toEqual(["MissingDependencyError: eventsource-parser", "MissingDependencyError: oauth4webapi"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("in the initialize era, the GET stream is not asked for again when eventsource-parser is missing", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    server.registerTool("echo", { inputSchema: { type: "object" } }, () => ({
      resultType: "complete",
      content: [{ type: "text", text: "hi" }],
    }));
    const handle = createNodeHandler(server);
    let gets = 0;
    const http = createServer((req, res) => {
      if (req.method === "GET") gets++;
      void handle(req, res);
    });
    await new Promise<void>((done) => http.listen(0, "127.0.0.1", done));
    const dir = mkdtempSync(join(tmpdir(), "x-mcp-client-lazy-get-"));
    try {
      await esbuild.build({
        stdin: {
          contents: `import { Client, StreamableHttpTransport } from ${JSON.stringify(resolve("dist/index.js"))};
const client = new Client({ name: "c", version: "1" }, { protocol: "2025-11-25" });
await client.connect(new StreamableHttpTransport(process.argv[2], { maxResumeAttempts: 3 }));
const out = [];
try { out.push((await client.listTools()).tools.length); } catch (e) { out.push(e.name + ": " + e.dependency); }
// Past the first resumption delay (1 s), when a retried GET would have been sent.
await new Promise((r) => setTimeout(r, 1500));
await client.close();
console.log(JSON.stringify(out));`,
          resolveDir: resolve("."),
        },
        bundle: true,
        external: ["eventsource-parser"],
        format: "esm",
        platform: "node",
        outfile: join(dir, "client.mjs"),
        logLevel: "silent",
      });
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
      // Not execFileSync: the server answering it runs in this process.
      const { stdout } = await promisify(execFile)(process.execPath, [join(dir, "client.mjs"), url], {
        cwd: dir,
        encoding: "utf8",
        timeout: 20_000,
        env: { ...process.env, NODE_PATH: "" },
      });
      expect(JSON.parse(stdout)).toHaveLength(1);
      expect(gets).toBe(1);
    } finally {
      http.closeAllConnections();
      await new Promise((done) => http.close(done));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
