// What user code receives of a server's integers beyond 2^53 (README "Numbers"): the double
// JSON.parse gives, where the types say number (handler params, progress, results, lists);
// request ids and progress tokens keep every digit. Raw node:http servers on 127.0.0.1 send the
// literals, so nothing between them and the client rounds them first.
import type { ServerResponse } from "node:http";
import { parseJson, stringifyJson } from "@x/jsonrpc";
import type { JSONRPCNotification } from "@x/mcp-v2607";
import { afterEach, describe, expect, it } from "vitest";
import { Client, type InputHandlers, StreamableHttpTransport } from "../src/index.js";
import { httpServer } from "./helpers.js";

const BIG = 9007199254740993n; // 2^53 + 1: JSON.parse gives ...992
const HUGE = 12345678901234567890123n;
const OTHER_TOKEN = 9007199254740995n; // a progress token of another request, kept exact
const STATE = "state-12345678901234567890"; // digits in a string: read losslessly, echoed as sent

type Running = Awaited<ReturnType<typeof httpServer>>;
let running: Running | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

function sse(res: ServerResponse, messages: unknown[], end = true): void {
  if (!res.headersSent) res.writeHead(200, { "content-type": "text/event-stream" });
  for (const message of messages) res.write(`event: message\ndata: ${stringifyJson(message)}\n\n`);
  if (end) res.end();
}

function json(res: ServerResponse, message: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(200, { "content-type": "application/json", ...headers });
  res.end(stringifyJson(message));
}

describe("2026-07-28: a server's big integers reach user code as JSON.parse's doubles", () => {
  const TOOL = {
    name: "big",
    inputSchema: { type: "object", properties: { n: { type: "integer", maximum: BIG, minimum: -HUGE } } },
    outputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
  };

  async function start(retries: string[]) {
    running = await httpServer((_req, res, body) => {
      const request = parseJson(body) as { id: number; method: string; params: Record<string, unknown> };
      const { id, method, params } = request;
      if (method === "tools/list") return json(res, { jsonrpc: "2.0", id, result: { resultType: "complete", tools: [TOOL] } });
      if (method !== "tools/call") return json(res, { jsonrpc: "2.0", id, error: { code: -32601, message: "no" } });
      if (!("inputResponses" in params)) {
        const token = (params._meta as { progressToken?: unknown }).progressToken;
        return sse(res, [
          { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: BIG, total: HUGE } },
          { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: OTHER_TOKEN, progress: 1 } },
          {
            jsonrpc: "2.0",
            id,
            result: {
              resultType: "input_required",
              requestState: STATE,
              inputRequests: {
                s: {
                  method: "sampling/createMessage",
                  params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: BIG },
                },
                e: {
                  method: "elicitation/create",
                  params: {
                    mode: "form",
                    message: "n?",
                    requestedSchema: { type: "object", properties: { n: { type: "number", minimum: BIG, maximum: HUGE } } },
                  },
                },
                r: { method: "roots/list", params: { _meta: { "x/n": BIG } } },
              },
            },
          },
        ]);
      }
      retries.push(body);
      return json(res, {
        jsonrpc: "2.0",
        id,
        result: {
          resultType: "complete",
          content: [
            { type: "text", text: String(BIG) },
            { type: "resource_link", uri: "file:///big", name: "big", size: HUGE },
          ],
          structuredContent: { n: BIG, list: [-HUGE, 1] },
        },
      });
    });
    const client = new Client({ name: "numbers", version: "1" }, { protocol: "2026-07-28", onWarning: () => {}, handlers });
    await client.connect(new StreamableHttpTransport(running.url));
    return client;
  }

  const seen: Record<string, unknown> = {};
  const handlers: InputHandlers = {
    sampling: (params) => {
      seen.maxTokens = params.maxTokens;
      seen.maxTokensLess = params.maxTokens - 1; // throws on a bigint
      return { role: "assistant", content: { type: "text", text: "ok" }, model: "m" };
    },
    elicitation: (params) => {
      if ("requestedSchema" in params) seen.bounds = (params.requestedSchema as { properties: Record<string, unknown> }).properties.n;
      return { action: "accept", content: { n: 1 } };
    },
    roots: (params) => {
      seen.rootsMeta = params._meta;
      return { roots: [] };
    },
  };

  it("handler params, progress, notifications, content and structuredContent; the progress token of another request stays exact; requestState is echoed as sent", async () => {
    const retries: string[] = [];
    const client = await start(retries);
    const progress: unknown[] = [];
    const notifications: JSONRPCNotification[] = [];
    const result = await client.callTool(
      "big",
      {},
      {
        onProgress: (p) => progress.push({ ...p, percent: (p.progress / (p.total ?? 1)) * 100 }),
        onNotification: (n) => notifications.push(n),
      },
    );
    expect(seen).toEqual({
      maxTokens: 9007199254740992,
      maxTokensLess: 9007199254740991,
      bounds: { type: "number", minimum: 9007199254740992, maximum: Number(HUGE) },
      rootsMeta: { "x/n": 9007199254740992 },
    });
    expect(progress).toEqual([
      { progressToken: expect.any(String), progress: 9007199254740992, total: Number(HUGE), percent: (2 ** 53 / Number(HUGE)) * 100 },
    ]);
    // Another request's token is an identifier: every digit, as a bigint.
    const tokens = notifications.map((n) => n.params?.progressToken);
    expect(tokens).toEqual([(progress[0] as { progressToken: string }).progressToken, OTHER_TOKEN]);
    expect(result.content).toEqual([
      { type: "text", text: "9007199254740993" },
      { type: "resource_link", uri: "file:///big", name: "big", size: Number(HUGE) },
    ]);
    // Checked against the outputSchema (type: "integer") as the double it now is.
    expect(result.structuredContent).toEqual({ n: 9007199254740992, list: [-Number(HUGE), 1] });
    expect(retries).toHaveLength(1);
    expect(retries[0]).toContain(`"requestState":${JSON.stringify(STATE)}`);
    await client.close();
  });

  it("listTools: a schema's bounds beyond 2^53 are numbers", async () => {
    const client = await start([]);
    const { tools } = await client.listTools();
    expect(tools[0]?.inputSchema).toEqual({
      type: "object",
      properties: { n: { type: "integer", maximum: 9007199254740992, minimum: -Number(HUGE) } },
    });
    const properties = tools[0]?.inputSchema.properties as Record<string, { maximum?: unknown }> | undefined;
    expect(typeof properties?.n?.maximum).toBe("number");
    await client.close();
  });
});

describe("the initialize era: a server request's id beyond 2^53 is answered and cancelled with every digit", () => {
  const ASK_ID = 9007199254740993n; // a double would be ...992
  const CANCEL_ID = 9007199254740995n; // a double would be ...996

  it("answers a sampling request under its exact id, its params as JSON.parse reads them, and a cancellation finds it", async () => {
    const answers: string[] = [];
    const seen: Record<string, unknown> = {};
    const answered = deferred();
    const elicitationStarted = deferred();
    const elicitationAborted = deferred();
    const sessionNotifications: JSONRPCNotification[] = [];
    running = await httpServer(async (req, res, body) => {
      if (req.method === "GET") {
        res.writeHead(405).end();
        return;
      }
      if (req.method === "DELETE") {
        res.writeHead(200).end();
        return;
      }
      const message = parseJson(body) as { id?: unknown; method?: string; params?: Record<string, unknown> };
      if (message.method === "initialize") {
        return json(
          res,
          {
            jsonrpc: "2.0",
            id: message.id,
            result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "old", version: "1" } },
          },
          { "mcp-session-id": "s1" },
        );
      }
      if (message.method === undefined) {
        // The client's answer to our request: kept as text to see its digits.
        answers.push(body);
        res.writeHead(202).end();
        answered.resolve();
        return;
      }
      if (message.method.startsWith("notifications/")) {
        res.writeHead(202).end();
        return;
      }
      if (message.method === "tools/call" && (message.params as { name: string }).name === "sample") {
        sse(
          res,
          [
            {
              jsonrpc: "2.0",
              id: ASK_ID,
              method: "sampling/createMessage",
              params: {
                messages: [{ role: "user", content: { type: "text", text: "hi" } }],
                maxTokens: BIG,
                _meta: { progressToken: HUGE },
              },
            },
          ],
          false,
        );
        await answered.promise;
        sse(res, [
          { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: HUGE, progress: BIG } },
          { jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "sampled" }] } },
        ]);
        return;
      }
      if (message.method === "tools/call") {
        sse(
          res,
          [
            {
              jsonrpc: "2.0",
              id: CANCEL_ID,
              method: "elicitation/create",
              params: { mode: "form", message: "n?", requestedSchema: { type: "object", properties: {} } },
            },
          ],
          false,
        );
        await elicitationStarted.promise;
        sse(res, [{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: CANCEL_ID } }], false);
        await elicitationAborted.promise;
        sse(res, [{ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: "cancelled" }] } }]);
        return;
      }
      json(res, { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "no" } });
    });
    const client = new Client(
      { name: "numbers", version: "1" },
      {
        protocol: "2025-11-25",
        onWarning: () => {},
        onNotification: (n) => sessionNotifications.push(n),
        handlers: {
          sampling: (params) => {
            seen.maxTokensLess = params.maxTokens - 1;
            return { role: "assistant", content: { type: "text", text: "ok" }, model: "m" };
          },
          elicitation: (_params, context) =>
            new Promise((_resolve, reject) => {
              context.signal.addEventListener("abort", () => {
                seen.aborted = true;
                elicitationAborted.resolve();
                reject(context.signal.reason);
              });
              elicitationStarted.resolve();
            }),
        },
      },
    );
    await client.connect(new StreamableHttpTransport(running.url));

    const sampled = await client.callTool("sample");
    expect(sampled.content).toEqual([{ type: "text", text: "sampled" }]);
    expect(seen.maxTokensLess).toBe(9007199254740991);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatch(/"id":9007199254740993[,}]/);
    expect((parseJson(answers[0] as string) as { id: unknown }).id).toBe(ASK_ID);
    // The server's own progress token keeps its digits; the progress is a number.
    const progress = sessionNotifications.filter((n) => n.method === "notifications/progress").map((n) => n.params);
    expect(progress).toEqual([{ progressToken: HUGE, progress: 9007199254740992 }]);

    const cancelled = await client.callTool("ask");
    expect(cancelled.content).toEqual([{ type: "text", text: "cancelled" }]);
    expect(seen.aborted).toBe(true);
    // A cancelled request gets no answer.
    expect(answers).toHaveLength(1);
    await client.close();
  });
});
