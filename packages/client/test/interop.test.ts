// Interoperability: @x/client against the official TypeScript SDK's server
// (@modelcontextprotocol/server 2.x, protocol 2026-07-28), served over a real
// node:http server on 127.0.0.1.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  McpServer,
  ResourceTemplate,
} from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  type ElicitRequestParams,
  type ElicitResult,
  mcpTools,
  type Request,
  runTool,
  StreamableHttpTransport,
} from "../src/index.js";

const stateCodec = createRequestStateCodec<{ step: string }>({ key: new Uint8Array(32).fill(7), ttlSeconds: 600 });

function officialServer(): McpServer {
  const server = new McpServer({ name: "official-sdk-server", version: "2.4.0" }, { requestState: { verify: stateCodec.verify } });
  server.registerTool(
    "add",
    {
      description: "Adds two numbers",
      inputSchema: fromJsonSchema<{ a: number; b: number }>({
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      }),
      outputSchema: fromJsonSchema<{ sum: number }>({ type: "object", properties: { sum: { type: "number" } }, required: ["sum"] }),
    },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool(
    "count",
    {
      description: "Counts to n, reporting progress",
      inputSchema: fromJsonSchema<{ n: number }>({ type: "object", properties: { n: { type: "integer" } }, required: ["n"] }),
    },
    async ({ n }, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= n; i++) {
        if (progressToken !== undefined)
          await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress: i, total: n } });
      }
      return { content: [{ type: "text", text: `counted to ${n}` }] };
    },
  );
  server.registerTool(
    "deploy",
    {
      description: "Deploys after the operator confirms",
      inputSchema: fromJsonSchema<{ env: string }>({ type: "object", properties: { env: { type: "string" } }, required: ["env"] }),
    },
    async ({ env }, ctx) => {
      const view = inputResponse(ctx.mcpReq.inputResponses, "confirm");
      if (view.kind === "elicit" && view.action !== "accept")
        return { content: [{ type: "text", text: `not deployed (${view.action})` }], isError: true };
      const confirmed = acceptedContent<{ confirm: boolean }>(ctx.mcpReq.inputResponses, "confirm");
      if (confirmed?.confirm !== true) {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Deploy to ${env}?`,
              requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
            }),
          },
        });
      }
      return { content: [{ type: "text", text: `Deployed to ${env}` }] };
    },
  );
  // Two questions in sequence, the second round carrying a sealed requestState.
  server.registerTool(
    "wipe-cache",
    { description: "Confirm, then pick a scope, then wipe", inputSchema: fromJsonSchema<Record<string, never>>({ type: "object" }) },
    async (_args, ctx) => {
      const state = ctx.mcpReq.requestState<{ step: string }>();
      if (state?.step !== "confirmed") {
        const confirmed = acceptedContent<{ confirm: boolean }>(ctx.mcpReq.inputResponses, "confirm");
        if (confirmed?.confirm !== true) {
          return inputRequired({
            inputRequests: {
              confirm: inputRequired.elicit({
                message: "Really wipe the cache?",
                requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
              }),
            },
          });
        }
        return inputRequired({
          inputRequests: {
            scope: inputRequired.elicit({
              message: "Which scope?",
              requestedSchema: { type: "object", properties: { scope: { type: "string" } }, required: ["scope"] },
            }),
          },
          requestState: await stateCodec.mint({ step: "confirmed" }),
        });
      }
      const scope = acceptedContent<{ scope: string }>(ctx.mcpReq.inputResponses, "scope");
      return { content: [{ type: "text", text: `Wiped ${scope?.scope ?? "all"}` }] };
    },
  );
  server.registerResource("config", "config://app", { title: "Application Config", mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, text: "log_level=info" }],
  }));
  server.registerResource(
    "user",
    new ResourceTemplate("users://{id}/profile", { list: undefined }),
    { mimeType: "application/json" },
    async (uri, { id }) => ({
      contents: [{ uri: uri.href, text: JSON.stringify({ id, name: `User ${String(id)}` }) }],
    }),
  );
  server.registerPrompt(
    "greet",
    {
      description: "Greets someone",
      argsSchema: fromJsonSchema<{ name: string }>({ type: "object", properties: { name: { type: "string" } }, required: ["name"] }),
    },
    ({ name }) => ({ messages: [{ role: "user", content: { type: "text", text: `Hello, ${name}!` } }] }),
  );
  return server;
}

let http: Server;
let url: string;

beforeAll(async () => {
  const handler = createMcpHandler(officialServer);
  // A minimal node:http → fetch bridge in front of the SDK's web-standard handler.
  http = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers,
      body: req.method === "POST" ? Buffer.concat(chunks) : undefined,
    });
    const response = await handler.fetch(request);
    response.headers.forEach((value, name) => {
      res.setHeader(name, value);
    });
    res.writeHead(response.status);
    const reader = response.body?.getReader();
    for (let step = await reader?.read(); step && !step.done; step = await reader?.read()) res.write(step.value);
    res.end();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

async function connect(elicitation?: (params: ElicitRequestParams) => ElicitResult | Promise<ElicitResult>) {
  const client = new Client({ name: "x-interop", version: "1.0.0" }, { handlers: elicitation ? { elicitation } : {} });
  await client.connect(new StreamableHttpTransport(url));
  return client;
}

describe("interop with the official SDK server", () => {
  it("discovers the server", async () => {
    const client = await connect();
    const discovered = await client.discover();
    expect(discovered.supportedVersions).toContain("2026-07-28");
    expect(discovered.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(discovered._meta?.["io.modelcontextprotocol/serverInfo"]).toMatchObject({ name: "official-sdk-server" });
  });

  it("lists and calls tools, structuredContent checked against the outputSchema", async () => {
    const client = await connect();
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(["add", "count", "deploy", "wipe-cache"]);
    const result = await client.callTool("add", { a: 2, b: 40 });
    expect(result).toMatchObject({ content: [{ type: "text", text: "42" }], structuredContent: { sum: 42 } });
    const failed = await client.callTool("add", { a: "two" }).catch((e) => e);
    // The SDK answers invalid arguments with a tool error result or a -32602 error; either way it is typed.
    if ("isError" in failed) expect(failed.isError).toBe(true);
    else expect(failed).toMatchObject({ code: -32602 });
  });

  it("receives progress notifications on an SSE response", async () => {
    const client = await connect();
    const progress: number[] = [];
    const result = await client.callTool("count", { n: 3 }, { onProgress: (p) => progress.push(p.progress) });
    expect(result.content).toEqual([{ type: "text", text: "counted to 3" }]);
    expect(progress).toEqual([1, 2, 3]);
  });

  it("lists and reads resources and resource templates", async () => {
    const client = await connect();
    expect(await client.listAllResources()).toEqual([
      expect.objectContaining({ uri: "config://app", name: "config", mimeType: "text/plain" }),
    ]);
    expect(await client.listAllResourceTemplates()).toEqual([
      expect.objectContaining({ uriTemplate: "users://{id}/profile", name: "user" }),
    ]);
    expect((await client.readResource("config://app")).contents).toEqual([{ uri: "config://app", text: "log_level=info" }]);
    expect((await client.readResource("users://42/profile")).contents).toEqual([
      { uri: "users://42/profile", text: '{"id":"42","name":"User 42"}' },
    ]);
  });

  it("lists and gets prompts", async () => {
    const client = await connect();
    expect(await client.listAllPrompts()).toEqual([
      expect.objectContaining({ name: "greet", arguments: [expect.objectContaining({ name: "name", required: true })] }),
    ]);
    expect((await client.getPrompt("greet", { name: "Ada" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Hello, Ada!" } },
    ]);
  });

  it("answers a Multi Round-Trip elicitation", async () => {
    const asked: string[] = [];
    const client = await connect((params) => {
      asked.push(params.message);
      return { action: "accept", content: { confirm: true } };
    });
    expect((await client.callTool("deploy", { env: "prod" })).content).toEqual([{ type: "text", text: "Deployed to prod" }]);
    expect(asked).toEqual(["Deploy to prod?"]);
    const declining = await connect(() => ({ action: "decline" }));
    expect(await declining.callTool("deploy", { env: "prod" })).toMatchObject({
      isError: true,
      content: [{ text: "not deployed (decline)" }],
    });
  });

  it("runs two rounds, echoing the server's sealed requestState", async () => {
    const client = await connect(
      (params): ElicitResult =>
        params.message === "Which scope?"
          ? { action: "accept", content: { scope: "sessions" } }
          : { action: "accept", content: { confirm: true } },
    );
    expect((await client.callTool("wipe-cache")).content).toEqual([{ type: "text", text: "Wiped sessions" }]);
    // The state is verified by the server: a tampered one is refused.
    const tampered = await client.callTool("wipe-cache", {}, { requestState: "tampered", inputResponses: {} }).catch((e) => e);
    expect(tampered).toMatchObject({ code: -32602 });
  });

  it("without an elicitation handler the capability is not declared, and the server refuses to ask (-32021)", async () => {
    const client = await connect();
    const error = await client.callTool("deploy", { env: "prod" }).catch((e) => e);
    expect(error).toMatchObject({ code: -32021, source: "server" });
    const [, , deploy] = await mcpTools(client);
    expect(await runTool(deploy!, { env: "prod" })).toMatchObject({
      status: "done",
      result: { isError: true, metadata: { error: { code: -32021 } } },
    });
  });

  it("works through the suspension bridge: the server's question becomes a Request answered by the client's waitFor", async () => {
    const asked: Request[] = [];
    const client = new Client(
      { name: "x-interop", version: "1.0.0" },
      {
        waitFor: (request) => {
          asked.push(request);
          return { id: request.id, ok: true, data: { confirm: true } };
        },
      },
    );
    await client.connect(new StreamableHttpTransport(url));
    const [, , deploy] = await mcpTools(client);
    expect(await runTool(deploy!, { env: "staging" })).toMatchObject({
      status: "done",
      result: { output: "Deployed to staging", isError: false },
    });
    expect(asked).toEqual([
      {
        id: expect.stringMatching(/^elc-/),
        kind: "input",
        prompt: "Deploy to staging?",
        data: { schema: expect.objectContaining({ type: "object" }) },
      },
    ]);
  });
});
