import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runBundleAlone } from "../../../test-support/bundle.js";

const CLIENT = JSON.stringify(resolve("dist/index.js"));

// The packages @x/client imports on first use (src/lazy.ts), left out of a
// bundle that runs with nothing beside it: the first use names the package
// (MissingDependencyError), it is not blamed on the server.
describe("in a bundle built with eventsource-parser and oauth4webapi left out", () => {
  it("an SSE answer and an authorization reject with a MissingDependencyError naming the package", async () => {
    const program = `import { createServer } from "node:http";
import { Client, StreamableHttpTransport } from ${CLIENT};
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
http.close();`;
    const out = await runBundleAlone(program, resolve("."), { external: ["eventsource-parser", "oauth4webapi"] });
    expect(JSON.parse(out)).toEqual(["MissingDependencyError: eventsource-parser", "MissingDependencyError: oauth4webapi"]);
  });

  it("in the initialize era, the GET stream is not asked for again when eventsource-parser is missing", async () => {
    // A real @x/server (bundled too) counts the GETs the client sends.
    const program = `import { createServer } from "node:http";
import { cfworkerValidator, createNodeHandler, McpServer } from "@x/server";
import { Client, StreamableHttpTransport } from ${CLIENT};
// A bundle carries the JSON Schema validator its program names.
const server = new McpServer({ name: "s", version: "1" }, { validator: cfworkerValidator });
server.registerTool("echo", { inputSchema: { type: "object" } }, () => ({ resultType: "complete", content: [{ type: "text", text: "hi" }] }));
const handle = createNodeHandler(server);
let gets = 0;
const http = createServer((req, res) => {
  if (req.method === "GET") gets++;
  void handle(req, res);
});
await new Promise((r) => http.listen(0, "127.0.0.1", r));
const client = new Client({ name: "c", version: "1" }, { protocol: "2025-11-25" });
await client.connect(new StreamableHttpTransport("http://127.0.0.1:" + http.address().port + "/mcp", { maxResumeAttempts: 3 }));
let listed;
try { listed = (await client.listTools()).tools.length; } catch (e) { listed = e.name + ": " + e.dependency; }
// Past the first resumption delay (1 s), when a retried GET would have been sent.
await new Promise((r) => setTimeout(r, 1500));
await client.close();
http.closeAllConnections();
http.close();
console.log(JSON.stringify({ listed, gets }));`;
    const out = JSON.parse(await runBundleAlone(program, resolve("."), { external: ["eventsource-parser"] }));
    expect(out.listed).toBeDefined();
    expect(out.gets).toBe(1);
  });
});
