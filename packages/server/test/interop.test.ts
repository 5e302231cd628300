// Interoperability: the official TypeScript SDK client (@modelcontextprotocol/client
// 2.x, protocol 2026-07-28, Streamable HTTP) against @x/server, served by
// `listen` on 127.0.0.1 with a free port. Every request the official client
// sends is recorded (a wrapper around fetch) so the tests can check what went
// over the wire as well as what the client API hands back.
import {
  type CallToolRequest,
  Client,
  type ClientCapabilities,
  type ElicitRequest,
  type ElicitResult,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isNotSupported, listen, McpServer, type RunningHttpServer } from "../src/index.js";

const nameSchema = { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] };
const ageSchema = { type: "object" as const, properties: { age: { type: "integer" as const, minimum: 0 } }, required: ["age"] };
const confirmSchema = { type: "object" as const, properties: { confirm: { type: "boolean" as const } }, required: ["confirm"] };

/** How many times each handler body ran (a Multi Round-Trip tool runs once per round). */
const runs: Record<string, number> = {};
const count = (name: string) => {
  runs[name] = (runs[name] ?? 0) + 1;
};

function oursServer(): McpServer {
  const server = new McpServer(
    { name: "x-server", version: "0.1.0", title: "Our server" },
    { instructions: "Be nice.", requestStateKeys: [Buffer.alloc(32, 9)] },
  );
  server.registerTool(
    "echo",
    {
      description: "Echoes its text",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false },
    },
    (args) => String(args.text),
  );
  server.registerTool(
    "add",
    {
      description: "Adds two numbers",
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
      outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"], additionalProperties: false },
    },
    (args) => {
      const sum = Number(args.a) + Number(args.b);
      return { resultType: "complete", content: [{ type: "text", text: String(sum) }], structuredContent: { sum } };
    },
  );
  server.registerTool(
    "count",
    {
      description: "Counts to n, reporting progress",
      inputSchema: { type: "object", properties: { n: { type: "integer", minimum: 1 } }, required: ["n"] },
    },
    (args, ctx) => {
      const n = Number(args.n);
      let sent = 0;
      for (let i = 1; i <= n; i++) if (ctx.progress(i, n, `step ${i}`)) sent++;
      return `counted to ${n} (${sent} progress notifications)`;
    },
  );
  server.registerTool("refuses", { description: "Always reports a failure" }, () => ({
    resultType: "complete",
    content: [{ type: "text", text: "the disk is full" }],
    isError: true,
  }));
  server.registerTool("throws", { description: "Throws" }, () => {
    throw new Error("kaboom");
  });
  server.registerTool(
    "delete_file",
    { inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
    async (args, ctx) => {
      count("delete_file");
      const answer = await ctx.elicit(`Delete ${String(args.path)}?`, confirmSchema);
      if (isNotSupported(answer))
        return { resultType: "complete", content: [{ type: "text", text: `cannot ask: ${answer.capability}` }], isError: true };
      if (answer.action === "accept" && answer.content?.confirm === true) return `deleted ${String(args.path)}`;
      return `kept ${String(args.path)} (${answer.action})`;
    },
  );
  server.registerTool("two_questions", {}, async (_args, ctx) => {
    count("two_questions");
    const name = await ctx.elicit("Name?", nameSchema);
    const age = await ctx.elicit("Age?", ageSchema);
    return JSON.stringify({ name, age });
  });
  server.registerResource("readme", "file:///readme.txt", { description: "The readme", mimeType: "text/plain" }, () => "Read me first.");
  server.registerResourceTemplate(
    "note",
    "notes://{id}",
    {
      description: "A note by id",
      mimeType: "text/markdown",
      complete: { id: (value) => ["alpha", "beta", "gamma"].filter((v) => v.startsWith(value)) },
    },
    (uri, variables) => [{ uri, mimeType: "text/markdown", text: `# Note ${variables.id}` }],
  );
  server.registerResource("secret", "file:///secret", {}, async (_uri, ctx) => {
    const answer = await ctx.elicit("Password?", { type: "object", properties: { password: { type: "string" } }, required: ["password"] });
    return !isNotSupported(answer) && answer.action === "accept" && answer.content?.password === "hunter2" ? "the secret" : "no";
  });
  server.registerPrompt(
    "greet",
    {
      title: "Greeting",
      description: "Greets someone",
      arguments: [
        { name: "name", description: "Who to greet", required: true },
        { name: "style", description: "formal or casual" },
      ],
      complete: { style: (value) => ["formal", "casual"].filter((v) => v.startsWith(value)) },
    },
    (args) => [{ role: "user", content: { type: "text", text: `${args.style === "formal" ? "Good day" : "Hi"}, ${args.name}!` } }],
  );
  server.registerPrompt("asking_prompt", { description: "Asks for context first" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Context?", { type: "object", properties: { context: { type: "string" } }, required: ["context"] });
    return `context: ${!isNotSupported(answer) && answer.action === "accept" ? String(answer.content?.context) : answer.action}`;
  });
  return server;
}

/** One request as the official client sent it, and how our server answered it. */
interface Exchange {
  method: string;
  headers: Headers;
  body: any;
  status: number;
  contentType: string;
  /** The JSON-RPC messages of the answer (the JSON body, or every SSE `data:` line); settles when the answer ends. */
  answer: Promise<any[]>;
}

/** A fetch that records every exchange; the answer is read from a clone, so the transport still gets the whole body. */
function recordingFetch(log: Exchange[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    const contentType = response.headers.get("content-type") ?? "";
    const answer = response
      .clone()
      .text()
      .then((raw) =>
        contentType.startsWith("text/event-stream")
          ? raw
              .split(/\r?\n/)
              .filter((line) => line.startsWith("data:"))
              .map((line) => JSON.parse(line.slice(5)))
          : raw
            ? [JSON.parse(raw)]
            : [],
      );
    answer.catch(() => undefined);
    log.push({ method: init?.method ?? "GET", headers: new Headers(init?.headers), body, status: response.status, contentType, answer });
    return response;
  };
}

/** The JSON-RPC response (not a notification) in one recorded answer. */
async function responseOf(exchange: Exchange): Promise<any> {
  return (await exchange.answer).find((m) => "id" in m && ("result" in m || "error" in m));
}

type ElicitHandler = (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;

/** An `accept` answer with form content. */
const accept = (content: Record<string, string | number | boolean>): ElicitResult => ({ action: "accept", content });

/**
 * `tools/call` params of a retry driven by hand. The official client's
 * `CallToolRequest["params"]` type has no `inputResponses` / `requestState`,
 * although it sends them as given (its documented manual mode relies on that).
 */
function retryParams(
  name: string,
  inputResponses: Record<string, ElicitResult>,
  requestState: string | undefined,
): CallToolRequest["params"] {
  const params = { name, arguments: {}, inputResponses, requestState };
  return params;
}

type InputRequired = { resultType: string; inputRequests: Record<string, unknown>; requestState?: string };

let running: RunningHttpServer;
let ours: McpServer;
const clients: Client[] = [];

/** An official client connected over Streamable HTTP with protocol 2026-07-28 pinned (or negotiated with `auto`). */
async function connect(
  options: { elicit?: ElicitHandler; mode?: "auto" | "pin"; capabilities?: ClientCapabilities; maxRounds?: number } = {},
): Promise<{ client: Client; log: Exchange[] }> {
  const log: Exchange[] = [];
  const client = new Client(
    { name: "official-sdk-client", version: "2.4.0" },
    {
      capabilities: options.capabilities ?? (options.elicit ? { elicitation: { form: {} } } : {}),
      versionNegotiation: { mode: options.mode === "auto" ? "auto" : { pin: "2026-07-28" } },
      ...(options.maxRounds !== undefined ? { inputRequired: { maxRounds: options.maxRounds } } : {}),
    },
  );
  const handler = options.elicit;
  if (handler) client.setRequestHandler("elicitation/create", async (request) => handler(request));
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(running.url), { fetch: recordingFetch(log) }));
  return { client, log };
}

const posts = (log: Exchange[], method: string) => log.filter((e) => e.method === "POST" && e.body?.method === method);
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

describe("official @modelcontextprotocol/client 2.x against @x/server over Streamable HTTP (2026-07-28)", () => {
  it("connects with a pinned 2026-07-28: one server/discover, no initialize, and the discover result is adopted", async () => {
    const { client, log } = await connect();
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(client.getServerVersion()).toMatchObject({ name: "x-server", version: "0.1.0", title: "Our server" });
    expect(client.getInstructions()).toBe("Be nice.");
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true },
      completions: {},
    });
    expect(posts(log, "initialize")).toEqual([]);
    expect(posts(log, "server/discover")).toHaveLength(1);
    const [discover] = posts(log, "server/discover");
    expect(discover!.status).toBe(200);
    expect(discover!.headers.get("mcp-method")).toBe("server/discover");
    expect(discover!.body.params._meta["io.modelcontextprotocol/protocolVersion"]).toBe("2026-07-28");
    expect(client.getDiscoverResult()?.supportedVersions).toContain("2026-07-28");
    // An explicit discover() round trip answers the same.
    const again = await client.discover();
    expect(again.supportedVersions).toContain("2026-07-28");
    expect(again.capabilities).toEqual(client.getServerCapabilities());
  });

  it("negotiates the modern era on its own in 'auto' mode (the probe finds 2026-07-28)", async () => {
    const { client, log } = await connect({ mode: "auto" });
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(posts(log, "initialize")).toEqual([]);
    expect(posts(log, "server/discover")).toHaveLength(1);
    // ping does not exist in 2026-07-28; the official client refuses it locally on a modern connection.
    await expect(client.ping()).rejects.toThrow(/not supported by the negotiated protocol version/);
    expect(text(await client.callTool({ name: "echo", arguments: { text: "auto" } }))).toBe("auto");
  });

  it("tools/list and tools/call with text content; every request carries the 2026-07-28 headers and _meta", async () => {
    const { client, log } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["echo", "add", "count", "refuses", "throws", "delete_file", "two_questions"]),
    );
    expect(tools.find((t) => t.name === "add")?.outputSchema).toMatchObject({ properties: { sum: { type: "number" } } });
    const result = await client.callTool({ name: "echo", arguments: { text: "héllo" } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: "text", text: "héllo" }]);
    const [call] = posts(log, "tools/call");
    expect(call!.headers.get("mcp-protocol-version")).toBe("2026-07-28");
    expect(call!.headers.get("mcp-method")).toBe("tools/call");
    expect(call!.headers.get("mcp-name")).toBe("echo");
    expect(call!.body.params._meta).toMatchObject({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "official-sdk-client", version: "2.4.0" },
    });
  });

  it("tools/call with structuredContent conforming to the outputSchema (validated by the official client)", async () => {
    const { client } = await connect();
    await client.listTools();
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
    expect(result.structuredContent).toEqual({ sum: 42 });
    expect(text(result)).toBe("42");
    // The client really checks our structuredContent: against a schema that wants a string it refuses the same result.
    const strict = {
      name: "add",
      inputSchema: { type: "object" as const },
      outputSchema: { type: "object" as const, properties: { sum: { type: "string" } }, required: ["sum"] },
    };
    const error = await client.callTool({ name: "add", arguments: { a: 1, b: 1 } }, { toolDefinition: strict }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).message).toMatch(/output schema.*sum must be string/);
  });

  it("progress notifications reach the official client's onprogress callback over an SSE response", async () => {
    const { client, log } = await connect();
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool({ name: "count", arguments: { n: 3 } }, { onprogress: (p) => seen.push(p) });
    expect(text(result)).toBe("counted to 3 (3 progress notifications)");
    expect(seen).toEqual([
      { progress: 1, total: 3, message: "step 1" },
      { progress: 2, total: 3, message: "step 2" },
      { progress: 3, total: 3, message: "step 3" },
    ]);
    const [call] = posts(log, "tools/call");
    expect(call!.body.params._meta.progressToken).toBeDefined();
    expect(call!.contentType).toMatch(/^text\/event-stream/);
  });

  it("a tool that reports a failure comes back as a result with isError, not as a thrown error", async () => {
    const { client } = await connect();
    const refused = await client.callTool({ name: "refuses", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe("the disk is full");
    const thrown = await client.callTool({ name: "throws", arguments: {} });
    expect(thrown.isError).toBe(true);
    expect(thrown.structuredContent).toEqual({ errorType: "tool_fault", tool: "throws", exception: "Error", message: "kaboom" });
  });

  it("an unknown tool is a thrown ProtocolError with code -32602 naming the tool", async () => {
    const { client } = await connect();
    const error = await client.callTool({ name: "no_such_tool", arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    expect((error as ProtocolError).message).toContain("no_such_tool");
  });

  it("resources/list, resources/templates/list and resources/read of a static resource and a template match", async () => {
    const { client } = await connect();
    const { resources } = await client.listResources();
    expect(resources).toEqual(
      expect.arrayContaining([{ uri: "file:///readme.txt", name: "readme", description: "The readme", mimeType: "text/plain" }]),
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ name: "note", uriTemplate: "notes://{id}", mimeType: "text/markdown" })]);
    const readme = await client.readResource({ uri: "file:///readme.txt" });
    expect(readme.contents).toEqual([{ uri: "file:///readme.txt", mimeType: "text/plain", text: "Read me first." }]);
    const note = await client.readResource({ uri: "notes://beta" });
    expect(note.contents).toEqual([{ uri: "notes://beta", mimeType: "text/markdown", text: "# Note beta" }]);
  });

  it("reading an unknown resource is a thrown ProtocolError", async () => {
    const { client } = await connect();
    const error = await client.readResource({ uri: "file:///missing" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
  });

  it("prompts/list and prompts/get with arguments; a missing required argument is a thrown -32602", async () => {
    const { client } = await connect();
    const { prompts } = await client.listPrompts();
    expect(prompts.find((p) => p.name === "greet")).toEqual({
      name: "greet",
      title: "Greeting",
      description: "Greets someone",
      arguments: [
        { name: "name", description: "Who to greet", required: true },
        { name: "style", description: "formal or casual" },
      ],
    });
    const formal = await client.getPrompt({ name: "greet", arguments: { name: "Ada", style: "formal" } });
    expect(formal.messages).toEqual([{ role: "user", content: { type: "text", text: "Good day, Ada!" } }]);
    const casual = await client.getPrompt({ name: "greet", arguments: { name: "Bo" } });
    expect(casual.messages).toEqual([{ role: "user", content: { type: "text", text: "Hi, Bo!" } }]);
    const error = await client.getPrompt({ name: "greet", arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    expect((error as ProtocolError).message).toContain("name");
  });

  it("completion/complete for a prompt argument and a resource template variable", async () => {
    const { client } = await connect();
    const style = await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "style", value: "f" } });
    expect(style.completion).toEqual({ values: ["formal"], total: 1, hasMore: false });
    const id = await client.complete({ ref: { type: "ref/resource", uri: "notes://{id}" }, argument: { name: "id", value: "" } });
    expect(id.completion.values).toEqual(["alpha", "beta", "gamma"]);
  });
});

describe("Multi Round-Trip elicitation answered by the official client's elicitation handler", () => {
  it("accept: the handler sees our question, the client retries with inputResponses and the tool completes", async () => {
    runs.delete_file = 0;
    const asked: ElicitRequest["params"][] = [];
    const { client, log } = await connect({
      elicit: (request) => {
        asked.push(request.params);
        return accept({ confirm: true });
      },
    });
    const result = await client.callTool({ name: "delete_file", arguments: { path: "/tmp/a" } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe("deleted /tmp/a");
    expect(asked).toEqual([expect.objectContaining({ message: "Delete /tmp/a?", requestedSchema: confirmSchema })]);
    expect(runs.delete_file).toBe(2);
    const calls = posts(log, "tools/call");
    expect(calls).toHaveLength(2);
    expect(calls[0]!.body.params.inputResponses).toBeUndefined();
    expect(calls[1]!.body.params).toMatchObject({
      name: "delete_file",
      arguments: { path: "/tmp/a" },
      inputResponses: { "elicit-1": { action: "accept", content: { confirm: true } } },
    });
    expect(calls[1]!.body.id).not.toBe(calls[0]!.body.id);
    // Our first answer carried a sealed requestState; the retry echoes it unchanged.
    const round1 = (await responseOf(calls[0]!)).result;
    expect(round1).toMatchObject({ resultType: "input_required", requestState: expect.any(String) });
    expect(calls[1]!.body.params.requestState).toBe(round1.requestState);
  });

  it("decline: the tool receives the decline and says so", async () => {
    const { client } = await connect({ elicit: () => ({ action: "decline" }) });
    const result = await client.callTool({ name: "delete_file", arguments: { path: "/tmp/b" } });
    expect(text(result)).toBe("kept /tmp/b (decline)");
  });

  it("cancel reaches the tool as well", async () => {
    const { client } = await connect({ elicit: () => ({ action: "cancel" }) });
    const result = await client.callTool({ name: "delete_file", arguments: { path: "/tmp/c" } });
    expect(text(result)).toBe("kept /tmp/c (cancel)");
  });

  it("two questions: two rounds, each carrying our sealed requestState back byte for byte", async () => {
    runs.two_questions = 0;
    const messages: string[] = [];
    const { client, log } = await connect({
      elicit: (request) => {
        messages.push(request.params.message);
        return request.params.message === "Name?" ? accept({ name: "Ada" }) : accept({ age: 36 });
      },
    });
    const result = await client.callTool({ name: "two_questions", arguments: {} });
    expect(JSON.parse(text(result))).toEqual({
      name: { action: "accept", content: { name: "Ada" } },
      age: { action: "accept", content: { age: 36 } },
    });
    expect(messages).toEqual(["Name?", "Age?"]);
    expect(runs.two_questions).toBe(3);
    const calls = posts(log, "tools/call");
    expect(calls).toHaveLength(3);
    expect(calls[0]!.body.params.requestState).toBeUndefined();
    // What our server answered on the first two rounds: input_required with one question and a sealed state each.
    const round1 = (await responseOf(calls[0]!)).result;
    const round2 = (await responseOf(calls[1]!)).result;
    expect(round1).toMatchObject({ resultType: "input_required", inputRequests: { "elicit-1": { method: "elicitation/create" } } });
    expect(round2).toMatchObject({ resultType: "input_required", inputRequests: { "elicit-2": { method: "elicitation/create" } } });
    expect(typeof round1.requestState).toBe("string");
    expect(round2.requestState).not.toBe(round1.requestState);
    // The official client echoed each state exactly as sealed.
    expect(calls[1]!.body.params.requestState).toBe(round1.requestState);
    expect(calls[2]!.body.params.requestState).toBe(round2.requestState);
    expect((await responseOf(calls[2]!)).result.resultType).toBe("complete");
    expect(calls[1]!.body.params.inputResponses).toEqual({ "elicit-1": { action: "accept", content: { name: "Ada" } } });
    expect(calls[2]!.body.params.inputResponses).toEqual({ "elicit-2": { action: "accept", content: { age: 36 } } });
    expect(new Set(calls.map((c) => c.body.id)).size).toBe(3);
  });

  it("manual mode (allowInputRequired): the raw input_required results come back and the caller drives the rounds", async () => {
    // Manual mode on the official client: it hands back the raw input_required result.
    const { client, log } = await connect({ capabilities: { elicitation: { form: {} } } });
    const first = (await client.callTool(
      { name: "two_questions", arguments: {} },
      { allowInputRequired: true },
    )) as unknown as InputRequired;
    expect(first.resultType).toBe("input_required");
    expect(Object.keys(first.inputRequests)).toEqual(["elicit-1"]);
    expect(typeof first.requestState).toBe("string");
    const second = (await client.callTool(retryParams("two_questions", { "elicit-1": accept({ name: "Ada" }) }, first.requestState), {
      allowInputRequired: true,
    })) as unknown as InputRequired;
    expect(second.resultType).toBe("input_required");
    expect(Object.keys(second.inputRequests)).toEqual(["elicit-2"]);
    const done = await client.callTool(retryParams("two_questions", { "elicit-2": accept({ age: 7 }) }, second.requestState));
    expect(JSON.parse(text(done))).toEqual({
      name: { action: "accept", content: { name: "Ada" } },
      age: { action: "accept", content: { age: 7 } },
    });
    const calls = posts(log, "tools/call");
    expect(calls.map((c) => c.body.params.requestState)).toEqual([undefined, first.requestState, second.requestState]);
  });

  it("a tampered requestState is refused by our server and surfaces as a thrown ProtocolError", async () => {
    const { client } = await connect({ capabilities: { elicitation: { form: {} } } });
    const first = (await client.callTool(
      { name: "two_questions", arguments: {} },
      { allowInputRequired: true },
    )) as unknown as InputRequired;
    const state = first.requestState!;
    const middle = Math.floor(state.length / 2);
    const tampered = `${state.slice(0, middle)}${state[middle] === "A" ? "B" : "A"}${state.slice(middle + 1)}`;
    expect(tampered).not.toBe(state);
    const error = await client.callTool(retryParams("two_questions", { "elicit-1": accept({ name: "Ada" }) }, tampered)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    expect((error as ProtocolError).message).toMatch(/requestState/);
  });

  it("prompts/get and resources/read ask too, and the official client answers them the same way", async () => {
    const { client } = await connect({
      elicit: (request) => (request.params.message === "Context?" ? accept({ context: "release notes" }) : accept({ password: "hunter2" })),
    });
    const prompt = await client.getPrompt({ name: "asking_prompt" });
    expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "context: release notes" } }]);
    const secret = await client.readResource({ uri: "file:///secret" });
    expect(secret.contents).toEqual([{ uri: "file:///secret", text: "the secret" }]);
  });

  it("a client that declares no elicitation capability is never asked: the tool learns it is not supported", async () => {
    const { client, log } = await connect({ capabilities: {} });
    const result = await client.callTool({ name: "delete_file", arguments: { path: "/tmp/d" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("cannot ask: elicitation.form");
    expect(posts(log, "tools/call")).toHaveLength(1);
  });

  it("the official client's round cap ends a flow that never completes with a typed error", async () => {
    // two_questions needs two retries (one per question); a cap of one round stops it after the first.
    const { client } = await connect({ elicit: () => accept({ name: "Ada", age: 1 }), maxRounds: 1 });
    const error = await client.callTool({ name: "two_questions", arguments: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe(SdkErrorCode.InputRequiredRoundsExceeded);
  });
});

describe("subscriptions/listen from the official client", () => {
  it("the stream is acknowledged and a tools list change reaches the client's notification handler", async () => {
    const { client } = await connect();
    const changed = new Promise<string>((resolve) => {
      client.setNotificationHandler("notifications/tools/list_changed", (n) => resolve(n.method));
    });
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toMatchObject({ toolsListChanged: true });
    ours.registerTool("late_tool", {}, () => "late");
    expect(await changed).toBe("notifications/tools/list_changed");
    await subscription.close();
    expect(await subscription.closed).toBe("local");
    ours.removeTool("late_tool");
  });
});
