// Integers beyond ±(2^53 − 1) between @x/client and a real @x/server, over Streamable HTTP (JSON
// and SSE), stdio and the in-memory transport: a bigint argument is sent with every digit (the
// server's tools opt in with bigIntegers to receive it so), and what the server sends back
// reaches user code as JSON.parse reads it, the nearest double (README "Numbers"); digits the
// server wants kept it sends as text.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { parseJson, stringifyJson } from "@x/jsonrpc";
import type { JSONRPCNotification } from "@x/mcp-v2607";
import { createFetchHandler, listen, McpServer, type RunningHttpServer } from "@x/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, InMemoryTransport, StdioTransport, StreamableHttpTransport } from "../src/index.js";

const BIG = 9007199254740993n; // 2^53 + 1: JSON.parse gives ...992
const HUGE = 12345678901234567890123n;
/** The double JSON.parse reads for the integer `n`. */
const asRead = (n: bigint) => JSON.parse(String(n)) as number;

/** The tools, as source, so that the stdio child process registers the same ones. */
const TOOLS = `(server, seen) => {
  server.registerTool(
    "echo_n",
    {
      bigIntegers: "bigint",
      inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      outputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
    },
    (args) => {
      seen.push(args.n);
      return { resultType: "complete", content: [{ type: "text", text: String(args.n) }], structuredContent: { n: args.n } };
    },
  );
  server.registerTool("big_result", {}, () => ({ resultType: "complete", content: [], structuredContent: { big: 2n ** 64n, list: [-(10n ** 30n), 1] } }));
  server.registerTool("log_n", { bigIntegers: "bigint" }, async (args, ctx) => {
    ctx.log("info", { n: args.n });
    return { resultType: "complete", content: [], structuredContent: { n: args.n } };
  });
}`;
const registerTools = new Function(`return ${TOOLS}`)() as (server: McpServer, seen: unknown[]) => void;

function client() {
  return new Client({ name: "big-client", version: "1" }, { onWarning: () => {} });
}

describe("big integers between @x/client and @x/server over Streamable HTTP", () => {
  let running: RunningHttpServer;
  const seen: unknown[] = [];
  beforeAll(async () => {
    const server = new McpServer({ name: "big", version: "1" }, { logging: true });
    registerTools(server, seen);
    running = await listen(server, { port: 0 });
  });
  afterAll(async () => {
    await running.close();
  });

  it("an argument of 2^53 + 1 reaches the handler exactly; the result reaches the caller as JSON.parse reads it (structuredContent checked)", async () => {
    const c = client();
    await c.connect(new StreamableHttpTransport(running.url));
    const result = await c.callTool("echo_n", { n: BIG });
    expect(seen.at(-1)).toBe(BIG);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ n: asRead(BIG) });
    // Text keeps its digits.
    expect(result.content).toEqual([{ type: "text", text: String(BIG) }]);
    await c.close();
  });

  it("bigints a handler returns reach the caller as doubles, never as bigints", async () => {
    const c = client();
    await c.connect(new StreamableHttpTransport(running.url));
    expect((await c.callTool("big_result")).structuredContent).toStrictEqual({ big: 2 ** 64, list: [-1e30, 1] });
    await c.close();
  });

  it("over an SSE response: the notification and the result as JSON.parse reads them", async () => {
    const c = client();
    await c.connect(new StreamableHttpTransport(running.url));
    const notifications: JSONRPCNotification[] = [];
    const result = await c.callTool("log_n", { n: HUGE }, { logLevel: "info", onNotification: (n) => notifications.push(n) });
    expect(notifications.map((n) => n.params?.data)).toStrictEqual([{ n: asRead(HUGE) }]);
    expect(result.structuredContent).toStrictEqual({ n: asRead(HUGE) });
    await c.close();
  });
});

describe("big integers over stdio, with @x/server in a child process", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "x-mcp-client-big-"));
    // vitest runs in the package folder; @x/server is a devDependency.
    const entry = pathToFileURL(resolve("node_modules/@x/server/dist/index.js")).href;
    writeFileSync(
      join(dir, "server.mjs"),
      `import { McpServer, serveStdio } from ${JSON.stringify(entry)};
const server = new McpServer({ name: "big", version: "1" });
(${TOOLS})(server, []);
serveStdio(server);`,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("sends integers beyond 2^53 exactly and hands on what it reads as JSON.parse does", async () => {
    const c = client();
    await c.connect(new StdioTransport({ command: process.execPath, args: [join(dir, "server.mjs")], stderr: "ignore" }));
    const echoed = await c.callTool("echo_n", { n: -HUGE });
    expect(echoed.content).toEqual([{ type: "text", text: String(-HUGE) }]);
    expect(echoed.structuredContent).toStrictEqual({ n: asRead(-HUGE) });
    expect((await c.callTool("big_result")).structuredContent).toStrictEqual({ big: 2 ** 64, list: [-1e30, 1] });
    await c.close();
  });
});

describe("big integers over the in-memory transport", () => {
  it("cross it as JSON text: sent with every digit, read back as JSON.parse reads them", async () => {
    const server = new McpServer({ name: "big", version: "1" });
    const seen: unknown[] = [];
    registerTools(server, seen);
    const handle = createFetchHandler(server);
    // The in-memory handler answers through the server's fetch handler, as a wire would.
    const transport = new InMemoryTransport(async (message, exchange) => {
      const response = await handle(
        new Request("http://localhost/mcp", {
          method: "POST",
          body: stringifyJson(message),
          headers: { "content-type": "application/json", accept: "application/json", ...exchange.headers },
        }),
      );
      return parseJson(await response.text()) as never;
    });
    const c = client();
    await c.connect(transport);
    expect((await c.callTool("echo_n", { n: BIG })).structuredContent).toStrictEqual({ n: asRead(BIG) });
    expect(seen).toEqual([BIG]);
    await c.close();
  });
});

describe("in a bundle, alone in its folder", () => {
  it("the HTTP transport reads a big integer exactly, JSON or SSE, with no dependency for it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "x-mcp-client-bundle-"));
    try {
      await esbuild.build({
        stdin: {
          contents: `import { createServer } from "node:http";
import { StreamableHttpTransport } from ${JSON.stringify(resolve("dist/index.js"))};
const body = '{"jsonrpc":"2.0","id":1,"result":{"n":9007199254740993}}';
const http = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (req.url === "/sse") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end("event: message\\ndata: " + body + "\\n\\n");
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body);
    }
  });
});
await new Promise((r) => http.listen(0, "127.0.0.1", r));
const out = [];
for (const path of ["/json", "/sse"]) {
  const transport = new StreamableHttpTransport("http://127.0.0.1:" + http.address().port + path);
  const options = { signal: new AbortController().signal, headers: {}, onNotification() {} };
  try { const r = await transport.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, options); out.push(String(r.result.n)); }
  catch (e) { out.push(e.name + ": " + e.dependency); }
}
console.log(JSON.stringify(out));
http.close();`,
          resolveDir: resolve("."),
        },
        bundle: true,
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
      // Read on the digit-keeping path (it used to need lossless-json), handed on as JSON.parse's double (README "Numbers").
      expect(JSON.parse(out)).toEqual(["9007199254740992", "9007199254740992"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
