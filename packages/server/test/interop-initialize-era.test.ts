// Interoperability in the initialize era: the official TypeScript SDK client
// (@modelcontextprotocol/client 2.4.0) with its DEFAULT settings, which open
// with `initialize`, against @x/server over Streamable HTTP on 127.0.0.1.
// The handlers are the same code a 2026-07-28 client reaches (see interop.test.ts).
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpServer, type RunningHttpServer } from "../src/index.js";

type Posted = { method: string; body: any; status: number; contentType: string; text: Promise<string> };

function recordingFetch(log: Posted[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    const contentType = response.headers.get("content-type") ?? "";
    const text = contentType.startsWith("application/json") ? response.clone().text() : Promise.resolve("");
    log.push({ method: init?.method ?? "GET", body, status: response.status, contentType, text });
    return response;
  };
}

let askedRuns = 0;
function oursServer(): McpServer {
  const server = new McpServer({ name: "x-server", version: "0.1.0" }, { instructions: "Be nice." });
  server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, (args) =>
    String(args.text),
  );
  server.registerTool("ask_name", {}, async (_args, ctx) => {
    askedRuns++;
    const answer = await ctx.elicit("Your name?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] });
    return answer.action === "accept" ? `Hello, ${String(answer.content?.name)}!` : `no name (${answer.action})`;
  });
  server.registerTool("count", {}, async (_args, ctx) => {
    for (let i = 1; i <= 3; i++) {
      ctx.progress(i, 3, `step ${i}`);
      await new Promise((r) => setImmediate(r));
    }
    return "counted";
  });
  server.registerResource("watched", "test://watched", { mimeType: "text/plain" }, () => "v1");
  return server;
}

let running: RunningHttpServer;
let ours: McpServer;
const clients: Client[] = [];

async function connect(withElicitation = false): Promise<{ client: Client; log: Posted[] }> {
  const log: Posted[] = [];
  const client = new Client(
    { name: "official-sdk-client", version: "2.4.0" },
    withElicitation ? { capabilities: { elicitation: {} } } : {},
  );
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(running.url), { fetch: recordingFetch(log) }));
  return { client, log };
}

const text = (result: { content?: unknown }) =>
  ((result.content as { type: string; text?: string }[] | undefined) ?? []).map((c) => c.text).join("");

beforeAll(async () => {
  ours = oursServer();
  running = await listen(ours, { port: 0 });
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await running.close();
});

describe("official @modelcontextprotocol/client 2.4.0 with default settings against @x/server (initialize era)", () => {
  it("connects with initialize (no server/discover) and negotiates 2025-11-25 with a session", async () => {
    const { client, log } = await connect();
    expect(log.filter((e) => e.body?.method === "server/discover")).toEqual([]);
    const init = log.find((e) => e.body?.method === "initialize");
    expect(init?.status).toBe(200);
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect(client.getServerVersion()).toMatchObject({ name: "x-server", version: "0.1.0" });
    expect(client.getInstructions()).toBe("Be nice.");
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, resources: { subscribe: true } });
    expect(log.find((e) => e.body?.method === "notifications/initialized")?.status).toBe(202);
  });

  it("lists tools and calls one; results carry no 2026-07-28 fields", async () => {
    const { client, log } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["echo", "ask_name", "count"]);
    const result = await client.callTool({ name: "echo", arguments: { text: "héllo" } });
    expect(text(result)).toBe("héllo");
    const listed = JSON.parse(await log.find((e) => e.body?.method === "tools/list")!.text);
    expect(listed.result.resultType).toBeUndefined();
    expect(listed.result._meta).toBeUndefined();
  });

  it("answers an elicitation on the session: the handler's ctx.elicit is a real elicitation/create, awaited in place", async () => {
    const { client } = await connect(true);
    const asked: unknown[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params);
      return { action: "accept", content: { name: "Ada" } };
    });
    const before = askedRuns;
    const result = await client.callTool({ name: "ask_name", arguments: {} });
    expect(text(result)).toBe("Hello, Ada!");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ message: "Your name?", requestedSchema: { properties: { name: { type: "string" } } } });
    // Once: no retry round, the handler waited for the answer.
    expect(askedRuns - before).toBe(1);
  });

  it("reports progress to the official client's onprogress", async () => {
    const { client } = await connect();
    const seen: { progress: number; total?: number }[] = [];
    const result = await client.callTool({ name: "count", arguments: {} }, { onprogress: (p) => seen.push(p) });
    expect(text(result)).toBe("counted");
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3]);
    expect(seen[0]).toMatchObject({ total: 3, message: "step 1" });
  });

  it("subscribes to a resource and hears notifications/resources/updated on the session's GET stream", async () => {
    const { client } = await connect();
    const updated = new Promise<string>((resolve) => {
      client.setNotificationHandler("notifications/resources/updated", (n) => resolve(n.params.uri));
    });
    await client.subscribeResource({ uri: "test://watched" });
    // The GET stream opens after initialized; announce until it is heard (bounded).
    let uri: string | undefined;
    for (let i = 0; i < 50 && uri === undefined; i++) {
      ours.notifyResourceUpdated("test://watched");
      uri = await Promise.race([updated, new Promise<undefined>((r) => setTimeout(r, 20))]);
    }
    expect(uri).toBe("test://watched");
    await client.unsubscribeResource({ uri: "test://watched" });
  });
});
