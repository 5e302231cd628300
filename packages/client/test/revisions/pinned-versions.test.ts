// Every version as itself, on the client's side: a client pinned to each of
// the five protocol versions, against a real @x/server on 127.0.0.1 (which
// serves each version as itself), sends only what its version defines: every
// message it POSTs (requests, notifications, its answers to the server's
// elicitation, sampling and roots requests, the capabilities of
// `initialize`) passes that version's strict validators (`@x/mcp-v*\/strict`,
// unknown members refused). A request the version lacks is refused before it
// is sent, and a server answering another version than the pinned one fails
// `connect`.
import * as m2411 from "@x/mcp-v2411/members";
import { validateStrict as strict2411 } from "@x/mcp-v2411/strict";
import * as m2503 from "@x/mcp-v2503/members";
import { validateStrict as strict2503 } from "@x/mcp-v2503/strict";
import * as m2506 from "@x/mcp-v2506/members";
import { validateStrict as strict2506 } from "@x/mcp-v2506/strict";
import * as m2511 from "@x/mcp-v2511/members";
import { validateStrict as strict2511 } from "@x/mcp-v2511/strict";
import * as m2607 from "@x/mcp-v2607/members";
import { validateStrict as strict2607 } from "@x/mcp-v2607/strict";
import { listen, McpServer, type RunningHttpServer } from "@x/server";
import { tasks } from "@x/server/tasks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, ClientErrorCode, type ProtocolChoice, StreamableHttpTransport } from "../../src/index.js";
import { httpServer, sendJson } from "../helpers.js";

type Message = Record<string, any>;
type Strict = (definition: any, value: unknown) => { ok: boolean; problems?: { path: string; message: string }[] };
interface Version {
  strict: Strict;
  members: {
    requests: typeof m2411.requests;
    notifications: typeof m2411.notifications;
    serverRequestResults: typeof m2411.serverRequestResults;
  };
}

const VERSIONS: Record<Exclude<ProtocolChoice, "auto">, Version> = {
  "2026-07-28": { strict: strict2607, members: m2607 },
  "2025-11-25": { strict: strict2511, members: m2511 },
  "2025-06-18": { strict: strict2506, members: m2506 },
  "2025-03-26": { strict: strict2503, members: m2503 },
  "2024-11-05": { strict: strict2411, members: m2411 },
};

const ICONS = [{ src: "https://example.com/icon.png", mimeType: "image/png" }];

/** A server that asks the client everything an older version may lack, and offers what the newest versions added. */
function askingServer(): McpServer {
  const server = new McpServer(
    { name: "asking", version: "1.0.0", title: "Asking", icons: ICONS },
    { logging: true, tasks: tasks({ ttlMs: 60_000 }) },
  );
  server.registerTool("add", { description: "Adds", icons: ICONS }, (args) => String(Number(args.a) + Number(args.b)));
  server.registerTool("ask", { description: "Asks for a name" }, async (_args, ctx) =>
    JSON.stringify(await ctx.elicit("Your name?", { type: "object", properties: { name: { type: "string" } } })),
  );
  server.registerTool("sample", { description: "Samples" }, async (_args, ctx) =>
    JSON.stringify(await ctx.createMessage({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 })),
  );
  server.registerTool("roots", { description: "Lists roots" }, async (_args, ctx) => JSON.stringify(await ctx.listRoots()));
  server.registerPrompt(
    "greet",
    {
      description: "Greets",
      arguments: [{ name: "who", required: true }],
      complete: { who: (v) => ["Ada", "Alan"].filter((n) => n.startsWith(v)) },
    },
    (args) => ({ resultType: "complete", messages: [{ role: "user", content: { type: "text", text: `Hello ${args.who}` } }] }),
  );
  server.registerResource("notes", "file:///notes.txt", { mimeType: "text/plain" }, () => [{ uri: "file:///notes.txt", text: "notes" }]);
  return server;
}

/** A client pinned to `protocol` over HTTP, whose every POSTed message is kept, with the server's requests by id (read off the responses). */
function pinnedClient(url: string, protocol: ProtocolChoice) {
  const sent: Message[] = [];
  const serverRequests = new Map<string, string>();
  const recording: typeof fetch = async (input, init) => {
    if (init?.method === "POST" && typeof init.body === "string") {
      const body = JSON.parse(init.body) as Message;
      sent.push(...(Array.isArray(body) ? body : [body]));
    }
    return fetch(input, init);
  };
  // Each handler keeps the method of the request it answers, by its id, so that the answer is checked as that method's result.
  const seen =
    <T>(answer: T) =>
    (_params: unknown, context: { key: string; method: string }) => {
      serverRequests.set(context.key, context.method);
      return answer;
    };
  const client = new Client(
    { name: "pinned", version: "1.0.0", title: "Pinned client" },
    {
      protocol,
      onWarning: () => {},
      logLevel: "info",
      tasks: true,
      handlers: {
        elicitation: seen({ action: "accept" as const, content: { name: "Ada" } }),
        sampling: seen({
          role: "assistant" as const,
          content: { type: "text" as const, text: "hello" },
          model: "m",
          stopReason: "endTurn",
        }),
        // `_meta` on a root is of 2025-06-18 on: 2024-11-05 and 2025-03-26 must not send it.
        roots: seen({ roots: [{ uri: "file:///work", name: "work", _meta: { "example.com/k": 1 } }] }),
      },
    },
  );
  return { client, sent, serverRequests, transport: new StreamableHttpTransport(url, { fetch: recording }) };
}

/** The problems of each message the client sent, by that version's strict validators. */
function problemsOf(version: Version, sent: Message[], serverRequests: Map<string, string>): string[] {
  const problems: string[] = [];
  const check = (label: string, definition: string | undefined, value: unknown) => {
    if (definition === undefined) {
      problems.push(`${label}: not a message of this version`);
      return;
    }
    const checked = version.strict(definition, value);
    if (!checked.ok) for (const p of checked.problems ?? []) problems.push(`${label} (${definition}) ${p.path || "(root)"}: ${p.message}`);
  };
  for (const message of sent) {
    if (message.method !== undefined && message.id !== undefined)
      check(message.method, version.members.requests[message.method]?.request, message);
    else if (message.method !== undefined) check(message.method, version.members.notifications[message.method], message);
    else if ("result" in message) {
      const method = serverRequests.get(String(message.id));
      check(`answer to ${method}`, method === undefined ? undefined : version.members.serverRequestResults[method], message.result);
    }
  }
  return problems;
}

let running: RunningHttpServer;
beforeAll(async () => {
  running = await listen(askingServer(), { port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await running?.close();
});

describe("a client pinned to each protocol version", () => {
  for (const [protocol, version] of Object.entries(VERSIONS) as [Exclude<ProtocolChoice, "auto">, Version][]) {
    it(`${protocol}: speaks it, and every message it sends holds only what ${protocol} defines`, async () => {
      const { client, sent, serverRequests, transport } = pinnedClient(running.url, protocol);
      await client.connect(transport);
      expect(client.protocolVersion).toBe(protocol);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("add");
      expect((await client.callTool("add", { a: 1, b: 2 })).content).toEqual([{ type: "text", text: "3" }]);
      const sampled = await client.callTool("sample", {});
      expect(JSON.stringify(sampled.content)).toContain("hello");
      const roots = await client.callTool("roots", {});
      expect(JSON.stringify(roots.content)).toContain("file:///work");
      if (protocol >= "2025-06-18") expect(JSON.stringify((await client.callTool("ask", {})).content)).toContain("Ada");
      expect((await client.getPrompt("greet", { who: "Ada" })).messages).toHaveLength(1);
      expect(
        (await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "A" } })).completion.values,
      ).toEqual(["Ada", "Alan"]);
      expect((await client.readResource("file:///notes.txt")).contents).toHaveLength(1);
      await client.close();

      const methods = sent.map((m) => m.method ?? "(answer)");
      if (protocol !== "2026-07-28") {
        expect(methods.slice(0, 2)).toEqual(["initialize", "notifications/initialized"]);
        expect(sent[0]!.params.protocolVersion).toBe(protocol);
        // Answers to the server's sampling and roots requests are among what was checked.
        expect(methods.filter((m) => m === "(answer)").length).toBeGreaterThanOrEqual(2);
      }
      expect(problemsOf(version, sent, serverRequests)).toEqual([]);
    });
  }

  it("declares in initialize only the capabilities of the pinned version", async () => {
    const declared: Record<string, unknown> = {};
    for (const protocol of ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const) {
      const { client, sent, transport } = pinnedClient(running.url, protocol);
      await client.connect(transport);
      await client.close();
      declared[protocol] = sent[0]!.params.capabilities;
    }
    expect(declared).toEqual({
      "2025-11-25": { elicitation: { form: {} }, sampling: {}, roots: {} },
      "2025-06-18": { elicitation: {}, sampling: {}, roots: {} },
      "2025-03-26": { sampling: {}, roots: {} },
      "2024-11-05": { sampling: {}, roots: {} },
    });
  });

  it("refuses a request its version lacks without sending it (-32096)", async () => {
    const { client, sent, transport } = pinnedClient(running.url, "2025-06-18");
    await client.connect(transport);
    const before = sent.length;
    await expect(client.request("tasks/list", {})).rejects.toMatchObject({ code: ClientErrorCode.VersionUnsupported, source: "client" });
    expect(sent.length).toBe(before);
    await client.close();
  });
});

describe("a pinned client and a server answering another version", () => {
  it.each([
    ["2025-03-26", "2025-06-18"],
    ["2025-11-25", "2025-03-26"],
  ] as const)("pinned to %s, an answer of %s fails connect with -32096", async (pinned, answered) => {
    const methods: string[] = [];
    const server = await httpServer((req, res, body) => {
      if (req.method !== "POST") return sendJson(res, {}, 405);
      const message = JSON.parse(body) as Message;
      methods.push(message.method);
      if (message.method !== "initialize") return sendJson(res, {}, 202);
      res.setHeader("mcp-session-id", "s1");
      sendJson(res, {
        jsonrpc: "2.0",
        id: message.id,
        result: { protocolVersion: answered, capabilities: {}, serverInfo: { name: "other", version: "1" } },
      });
    });
    try {
      const client = new Client({ name: "pinned", version: "1.0.0" }, { protocol: pinned, onWarning: () => {} });
      await expect(client.connect(new StreamableHttpTransport(server.url))).rejects.toMatchObject({
        code: ClientErrorCode.VersionUnsupported,
        message: expect.stringContaining(`pinned to ${pinned}`),
      });
      expect(methods).toEqual(["initialize"]);
    } finally {
      await server.close();
    }
  });
});

/**
 * A server of the `initialize` era that negotiates `version` and, in its one
 * tool's stream, sends the client `ask` (id "r1"), answering the call once
 * the client answered it. Every message POSTed to it is kept in `sent`.
 */
async function olderServer(version: string, ask: Message) {
  const sent: Message[] = [];
  let toolStream: import("node:http").ServerResponse | undefined;
  let callId: unknown;
  const server = await httpServer((req, res, body) => {
    if (req.method === "DELETE") return sendJson(res, {}, 200);
    if (req.method !== "POST") return sendJson(res, {}, 405);
    const message = JSON.parse(body) as Message;
    sent.push(message);
    if (message.method === "server/discover") {
      return sendJson(res, { jsonrpc: "2.0", id: message.id, error: { code: -32600, message: "Bad Request: no session" } }, 400);
    }
    if (message.method === "initialize") {
      res.setHeader("mcp-session-id", "s1");
      return sendJson(res, {
        jsonrpc: "2.0",
        id: message.id,
        result: { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: "old", version: "1" } },
      });
    }
    if (message.method === "tools/list") {
      const tools = [{ name: "asks", inputSchema: { type: "object" } }];
      return sendJson(res, { jsonrpc: "2.0", id: message.id, result: { tools } });
    }
    if (message.method === "tools/call") {
      callId = message.id;
      toolStream = res;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: "r1", ...ask })}\n\n`);
      return;
    }
    sendJson(res, {}, 202);
    if (message.id === "r1" && toolStream !== undefined) {
      const result = { content: [{ type: "text", text: "ok" }] };
      toolStream.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id: callId, result })}\n\n`);
    }
  });
  return { ...server, sent };
}

describe("an auto client and a server that negotiates an older version", () => {
  it("answers the server's requests as that version defines them (no root _meta in 2024-11-05)", async () => {
    const server = await olderServer("2024-11-05", { method: "roots/list" });
    try {
      const client = new Client(
        { name: "auto", version: "1.0.0" },
        { onWarning: () => {}, handlers: { roots: () => ({ roots: [{ uri: "file:///work", _meta: { "example.com/k": 1 } }] }) } },
      );
      await client.connect(new StreamableHttpTransport(server.url));
      expect(client.protocolVersion).toBe("2024-11-05");
      expect((await client.callTool("asks", {})).content).toEqual([{ type: "text", text: "ok" }]);
      await client.close();
      const answer = server.sent.find((m) => m.id === "r1");
      expect(answer?.result).toEqual({ roots: [{ uri: "file:///work" }] });
      expect(strict2411("ListRootsResult", answer?.result).ok).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("answers a server request its version does not define -32601, without calling the handler (elicitation in 2025-03-26)", async () => {
    const ask = { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: {} } } };
    const server = await olderServer("2025-03-26", ask);
    try {
      let asked = 0;
      const client = new Client(
        { name: "auto", version: "1.0.0" },
        {
          onWarning: () => {},
          handlers: {
            elicitation: () => {
              asked++;
              return { action: "accept", content: {} };
            },
          },
        },
      );
      await client.connect(new StreamableHttpTransport(server.url));
      expect(client.protocolVersion).toBe("2025-03-26");
      await client.callTool("asks", {});
      await client.close();
      expect(asked).toBe(0);
      expect(server.sent.find((m) => m.id === "r1")?.error).toMatchObject({ code: -32601 });
      // And initialize, which proposed 2025-11-25, declared that version's capabilities.
      expect(server.sent[1]).toMatchObject({ method: "initialize", params: { capabilities: { elicitation: { form: {} } } } });
    } finally {
      await server.close();
    }
  });
});
