// The node handler mounted in real Express (5 and 4), over real HTTP on
// 127.0.0.1: with and without a JSON body parser in front of it (the body it
// already read is used, never waited for), mounted with a prefix and with the
// handler's `path`, and what is answered when nothing of the body was kept.
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express5, { type RequestHandler } from "express";
import express4 from "express4";
import { afterEach, describe, expect, it } from "vitest";
import { bodyParserErrors } from "../../../src/express.js";
import { createNodeHandler, type NodeHandlerOptions } from "../../../src/index.js";
import { headersFor, request, rpc, testServer } from "../../helpers.js";

type Express = typeof express5;
type App = ReturnType<Express>;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
    await once(server, "close");
  }
});

/** Starts `app` on 127.0.0.1 with a free port; the server is closed after the test. */
async function start(app: App): Promise<string> {
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function handler(options: NodeHandlerOptions = {}) {
  return createNodeHandler(testServer(), options);
}

/** A raw POST of `text` with a conforming client's headers for `body`; the status and the parsed answer. */
async function post(url: string, body: { method: string; params?: Record<string, unknown> }, text = JSON.stringify(body)) {
  const response = await fetch(url, { method: "POST", headers: headersFor(body), body: text, signal: AbortSignal.timeout(10_000) });
  const raw = await response.text();
  return { status: response.status, raw, json: raw ? JSON.parse(raw) : undefined };
}

const versions: [string, Express][] = [
  ["Express 5", express5],
  ["Express 4", express4],
];

describe.each(versions)("%s", (_name, express) => {
  it("serves the handler mounted at a route, without a body parser", async () => {
    const app = express();
    app.post("/mcp", handler({ path: "/mcp" }));
    const base = await start(app);
    const answer = await rpc(`${base}/mcp`, "tools/call", { name: "sum", arguments: { a: 2, b: 40 } });
    expect(answer.status).toBe(200);
    expect(answer.json.result.structuredContent).toEqual({ sum: 42 });
  });

  it("uses the body express.json() already read instead of waiting for it", async () => {
    const app = express();
    app.use(express.json());
    app.post("/mcp", handler({ path: "/mcp" }));
    const base = await start(app);
    const answer = await rpc(`${base}/mcp`, "tools/call", { name: "echo", arguments: { text: "parsed first" } });
    expect(answer.status).toBe(200);
    expect(answer.json.result.content).toEqual([{ type: "text", text: "parsed first" }]);
    // The argument check still runs on a parsed body.
    const wrong = await rpc(`${base}/mcp`, "tools/call", { name: "echo", arguments: { text: 7 } });
    expect(wrong.json.result.isError).toBe(true);
    expect(wrong.json.result.content[0].text).toContain("/text: must be string");
  });

  it("behind a body parser, a body typed application/json with a charset is served, and one of another type gets 415 (req.body or not)", async () => {
    const app = express();
    app.use(express.json(), express.text());
    app.post("/mcp", handler({ path: "/mcp" }));
    const base = await start(app);
    const ok = await rpc(`${base}/mcp`, "tools/list", {}, { headers: { "content-type": "application/json; charset=utf-8" } });
    expect(ok.status).toBe(200);
    // express.text() has made req.body a string of it: the request's own header still decides.
    const plain = await rpc(`${base}/mcp`, "tools/list", {}, { headers: { "content-type": "text/plain" } });
    expect(plain.status).toBe(415);
    expect(plain.json).toMatchObject({ error: { code: -32600 }, id: null });
  });

  it("applies the nesting and size limits to a parsed body as to bytes", async () => {
    const app = express();
    app.use(express.json({ limit: "1mb" }));
    app.post("/mcp", handler({ path: "/mcp", maxJsonDepth: 8, maxBodyBytes: 2048 }));
    const base = await start(app);
    let deep: unknown = "leaf";
    for (let i = 0; i < 20; i++) deep = { deep };
    const nested = request("tools/call", { name: "echo", arguments: { text: "x", deep } });
    const tooDeep = await post(`${base}/mcp`, nested);
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.json.error.code).toBe(-32600);
    expect(tooDeep.json.error.message).toMatch(/deep/i);
    const big = request("tools/call", { name: "echo", arguments: { text: "y".repeat(4096) } });
    const tooBig = await post(`${base}/mcp`, big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.json.error.message).toContain("2048");
  });

  it("prefers req.rawBody to the parsed value: a big integer keeps its digits", async () => {
    const app = express();
    app.use(
      express.json({
        verify: (req, _res, buf) => {
          (req as unknown as { rawBody: Buffer }).rawBody = buf;
        },
      }),
    );
    app.post("/mcp", handler({ path: "/mcp" }));
    const base = await start(app);
    // JSON.parse would round the id 9007199254740993 to ...992; the answer must carry it back unchanged.
    const body = request("tools/list");
    const text = JSON.stringify(body).replace(`"id":${body.id}`, '"id":9007199254740993');
    const answer = await post(`${base}/mcp`, body, text);
    expect(answer.status).toBe(200);
    expect(answer.raw).toContain('"id":9007199254740993');
  });

  it("answers 400 at once when a parser read the body and kept nothing of it", async () => {
    const app = express();
    // A middleware that drains the stream and keeps nothing (as a logging or proxy middleware might).
    app.use((req, _res, next) => {
      req.on("end", () => next());
      req.resume();
    });
    app.post("/mcp", handler({ path: "/mcp" }));
    const base = await start(app);
    const answer = await post(`${base}/mcp`, request("tools/list"));
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe(-32700);
    expect(answer.json.error.message).toContain("already read before the MCP handler");
  });

  it("bodyParserErrors(): the parser's refusals are JSON-RPC errors (without it, Express's HTML page); other errors pass on", async () => {
    const app = express();
    app.use(express.json({ limit: "1kb" }));
    app.use("/bare", handler({ path: "/bare" }));
    app.use("/mcp", handler({ path: "/mcp" }), bodyParserErrors());
    const failing: RequestHandler = (_req, _res, next) => next(new Error("not a parser's"));
    app.use("/broken", failing, handler(), bodyParserErrors());
    const base = await start(app);
    const body = request("tools/list");
    const send = (path: string, text: string, extra: Record<string, string> = {}) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { ...headersFor(body), ...extra },
        body: text,
        signal: AbortSignal.timeout(10_000),
      });

    const bare = await send("/bare", '{"jsonrpc":');
    expect(bare.status).toBe(400);
    expect(bare.headers.get("content-type")).toMatch(/^text\/html/);

    const malformed = await send("/mcp", '{"jsonrpc":');
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get("content-type")).toBe("application/json");
    expect(await malformed.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32700, message: "Parse error: the body is not valid JSON (refused by the body parser in front of the MCP handler)" },
      id: null,
    });
    const big = await send("/mcp", JSON.stringify(request("tools/call", { name: "echo", arguments: { text: "z".repeat(2048) } })));
    expect(big.status).toBe(413);
    expect((await big.json()).error).toEqual({
      code: -32600,
      message: "Body larger than the body parser's limit of 1024 bytes (raise its limit to the handler's maxBodyBytes)",
    });
    const charset = await send("/mcp", JSON.stringify(body), { "content-type": "application/json; charset=latin-9000" });
    expect(charset.status).toBe(415);
    expect((await charset.json()).error.code).toBe(-32600);
    // A well-formed body still reaches the handler.
    const ok = await rpc(`${base}/mcp`, "tools/list");
    expect(ok.status).toBe(200);
    // An error that is not a parser's is not the glue's to answer: Express's own 500.
    const other = await send("/broken", JSON.stringify(body));
    expect(other.status).toBe(500);
    expect(other.headers.get("content-type")).toMatch(/^text\/html/);
  });

  it("mounted with app.use('/mcp', ...): the mount path and the path option agree", async () => {
    const app = express();
    app.use(express.json());
    app.use("/mcp", handler({ path: "/mcp" }));
    const base = await start(app);
    const answer = await rpc(`${base}/mcp`, "tools/list");
    expect(answer.status).toBe(200);
    expect(answer.json.result.tools.map((t: { name: string }) => t.name)).toContain("echo");
    const query = await rpc(`${base}/mcp?x=1`, "tools/list");
    expect(query.status).toBe(200);
    // Under the mount but not the endpoint: 404 naming both paths and how the option is matched.
    const below = await rpc(`${base}/mcp/other`, "tools/list");
    expect(below.status).toBe(404);
    expect(below.json.error.code).toBe(-32600);
    expect(below.json.error.message).toContain('"/mcp/other" is not the MCP endpoint "/mcp"');
    expect(below.json.error.message).toContain("mount prefix included");
  });

  it("mounted under a prefix with the prefix-relative path in the option: 404 that says why and what the option must be", async () => {
    const app = express();
    app.use("/api", handler({ path: "/mcp" }));
    const base = await start(app);
    const answer = await rpc(`${base}/api/mcp`, "tools/list");
    expect(answer.status).toBe(404);
    expect(answer.json.error.code).toBe(-32600);
    expect(answer.json.error.message).toContain('"/api/mcp" is not the MCP endpoint "/mcp"');
    expect(answer.json.error.message).toContain("mount prefix included");
    expect(answer.json.error.message).toContain('mounted under "/api", it must be "/api/mcp", or be left out');
  });

  it("in a router mounted in the app: the path option names the whole path, and a relative one gets 404 saying so", async () => {
    const app = express();
    const agreeing = express.Router();
    agreeing.use("/mcp", handler({ path: "/api/mcp" }));
    app.use("/api", agreeing);
    const relative = express.Router();
    relative.use("/mcp", handler({ path: "/mcp" }));
    app.use("/v2", relative);
    const base = await start(app);
    const ok = await rpc(`${base}/api/mcp`, "tools/list");
    expect(ok.status).toBe(200);
    expect(ok.json.result.tools.map((t: { name: string }) => t.name)).toContain("echo");
    const refused = await rpc(`${base}/v2/mcp`, "tools/list");
    expect(refused.status).toBe(404);
    expect(refused.json.error.message).toContain('"/v2/mcp" is not the MCP endpoint "/mcp"');
    expect(refused.json.error.message).toContain('it must be "/v2/mcp"');
  });

  it("app.use('/mcp', handler) without the path option: the router alone chooses, so every path under the mount is served", async () => {
    const app = express();
    app.use("/mcp", handler());
    const base = await start(app);
    for (const path of ["/mcp", "/mcp/", "/mcp/anything"]) {
      const answer = await rpc(`${base}${path}`, "tools/list");
      expect(answer.status).toBe(200);
      expect(answer.json.result.tools.map((t: { name: string }) => t.name)).toContain("echo");
    }
  });

  it("a trailing slash the router lets through is not the endpoint: 404 that says so", async () => {
    const app = express();
    app.use("/mcp", handler({ path: "/mcp" }));
    const base = await start(app);
    const answer = await rpc(`${base}/mcp/`, "tools/list");
    expect(answer.status).toBe(404);
    expect(answer.json.error.message).toBe('Not found: "/mcp/" is not the MCP endpoint "/mcp": the endpoint has no trailing slash');
  });
});
