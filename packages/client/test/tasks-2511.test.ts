// Task-augmented tools/call of revision 2025-11-25 (spec 2025-11-25: basic/utilities/tasks):
// `callTool` on a tool whose `execution.taskSupport` is "required" (or "optional", with
// `asTask`) creates the task, follows it with tasks/get, takes its result with tasks/result,
// answers its asks with the client's handlers, and cancels it when the call is abandoned.
// Against server-everything 2026.8.31 over stdio (the v1 SDK's task design) and against a
// real @x/server on 127.0.0.1 with its tasks plug-in.
import { createRequire } from "node:module";
import { listen, McpError, McpServer, type RunningHttpServer } from "@x/server";
import { tasks as tasksPlugin } from "@x/server/tasks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, type ClientOptions, ClientErrorCode, type McpClientError, StdioTransport, StreamableHttpTransport } from "../src/index.js";

const everything = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");

/** A promise opened from outside: tools wait on these, so no test depends on timing. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe("server-everything over stdio: simulate-research-query (taskSupport required)", () => {
  function connect(options: ClientOptions = {}) {
    const client = new Client({ name: "tasks-2511", version: "1" }, { protocol: "2025-11-25", onWarning: () => {}, ...options });
    const transport = new StdioTransport({ command: process.execPath, args: [everything, "stdio"], stderr: "ignore" });
    return { client, connected: client.connect(transport) };
  }

  it("is called as a task and its result reached", async () => {
    const { client, connected } = connect();
    await connected;
    try {
      const tools = await client.listAllTools();
      expect(tools.find((t) => t.name === "simulate-research-query")?.execution).toEqual({ taskSupport: "required" });
      const result = await client.callTool("simulate-research-query", { topic: "tides" });
      expect(result.isError).not.toBe(true);
      expect(JSON.stringify(result.content)).toContain("Research Report: tides");
    } finally {
      await client.close();
    }
  });

  it("answers the task's elicitation with the client's handler", async () => {
    const asked: string[] = [];
    const { client, connected } = connect({
      handlers: {
        elicitation: async (params) => {
          asked.push(String(params.message));
          return { action: "accept", content: { interpretation: "snake" } };
        },
      },
    });
    await connected;
    try {
      const result = await client.callTool("simulate-research-query", { topic: "python", ambiguous: true });
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain("python");
      expect(JSON.stringify(result.content)).toContain("python (snake)");
    } finally {
      await client.close();
    }
  });
});

describe("@x/server over Streamable HTTP on a 2025-11-25 session", () => {
  let running: RunningHttpServer;
  const aborted: string[] = [];
  const hold = gate();

  beforeAll(async () => {
    const server = new McpServer({ name: "tasks-2511", version: "1" }, { tasks: tasksPlugin({ ttlMs: 60_000, pollIntervalMs: 5 }) });
    server.registerTool("must", { taskSupport: "required" }, () => "required ran");
    server.registerTool("caps", {}, (_args, ctx) => JSON.stringify(ctx.clientCapabilities));
    server.registerTool("maybe", { taskSupport: "optional" }, () => "optional ran");
    server.registerTool("asks", { taskSupport: "required" }, async (_args, ctx) => {
      const answer = await ctx.elicit("Name?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] });
      return answer.action === "accept" ? `Hello ${String(answer.content?.name)}` : `no (${answer.action})`;
    });
    server.registerTool("fails", { taskSupport: "required" }, () => {
      throw new McpError(-32050, "custom failure", { why: "test" });
    });
    server.registerTool("crashes", { taskSupport: "required" }, () => {
      throw new McpError(-32603, "the tool crashed");
    });
    // Runs until cancelled, recording the abort that tasks/cancel brings.
    server.registerTool("never", { taskSupport: "required" }, async (args, ctx) => {
      const label = String(args.label);
      if (ctx.signal.aborted) aborted.push(label);
      const stopped = new Promise<void>((resolve) =>
        ctx.signal.addEventListener("abort", () => {
          aborted.push(label);
          resolve();
        }),
      );
      await Promise.race([stopped, hold.promise]);
      return "stopped";
    });
    running = await listen(server, { port: 0 });
  });
  afterAll(async () => {
    hold.open();
    await running.close();
  });

  async function connect(options: ClientOptions = {}) {
    const client = new Client({ name: "tasks-2511", version: "1" }, { protocol: "2025-11-25", onWarning: () => {}, ...options });
    await client.connect(new StreamableHttpTransport(running.url));
    return client;
  }

  it("declares no tasks capability on initialize (this client receives no task-augmented requests)", async () => {
    const client = await connect({ handlers: { elicitation: () => ({ action: "decline" }) } });
    try {
      expect(client.serverCapabilities?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
      expect(client.protocolVersion).toBe("2025-11-25");
      const declared = JSON.parse(String((await client.callTool("caps")).content[0]?.text));
      expect(declared).toEqual({ elicitation: { form: {} } });
    } finally {
      await client.close();
    }
  });

  it("a required tool: the task is created and its result reached", async () => {
    const client = await connect();
    try {
      const result = await client.callTool("must");
      expect(result.content).toEqual([{ type: "text", text: "required ran" }]);
    } finally {
      await client.close();
    }
  });

  it("an optional tool runs plainly by default, as a task with the task option", async () => {
    const client = await connect();
    try {
      expect((await client.callTool("maybe")).content).toEqual([{ type: "text", text: "optional ran" }]);
      const result = await client.callTool("maybe", {}, { task: { ttl: 30_000 } });
      expect(result.content).toEqual([{ type: "text", text: "optional ran" }]);
      expect(result._meta?.["io.modelcontextprotocol/related-task"]).toMatchObject({ taskId: expect.any(String) });
    } finally {
      await client.close();
    }
  });

  it("the task's ask is answered by the client's elicitation handler", async () => {
    const contexts: { method: string }[] = [];
    const client = await connect({
      handlers: {
        elicitation: (_params, context) => {
          contexts.push({ method: context.method });
          return { action: "accept", content: { name: "Ada" } };
        },
      },
    });
    try {
      const result = await client.callTool("asks");
      expect(result.content).toEqual([{ type: "text", text: "Hello Ada" }]);
      expect(contexts).toEqual([{ method: "elicitation/create" }]);
    } finally {
      await client.close();
    }
  });

  it("a failed task rejects with the task's own JSON-RPC error", async () => {
    const client = await connect();
    try {
      const error = (await client.callTool("fails").catch((e: unknown) => e)) as McpClientError;
      expect(error).toMatchObject({ code: -32050, message: "custom failure", source: "server", data: { why: "test" } });
    } finally {
      await client.close();
    }
  });

  it("an abort of the call sends tasks/cancel: the server's run is cancelled", async () => {
    const controller = new AbortController();
    const methods: string[] = [];
    // Aborts at the first tasks/get: the client holds the task id by then.
    const watching: typeof fetch = async (input, init) => {
      const method = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string }).method : undefined;
      if (method !== undefined) methods.push(method);
      if (method === "tasks/get") controller.abort(new Error("user gave up"));
      return fetch(input, init);
    };
    const client = new Client({ name: "tasks-2511", version: "1" }, { protocol: "2025-11-25", onWarning: () => {} });
    await client.connect(new StreamableHttpTransport(running.url, { fetch: watching }));
    try {
      const error = (await client
        .callTool("never", { label: "abort" }, { signal: controller.signal })
        .catch((e: unknown) => e)) as McpClientError;
      expect(error.code).toBe(ClientErrorCode.RequestCancelled);
      expect(methods).toContain("tasks/cancel");
      // tasks/cancel aborts the run before it is answered.
      expect(aborted).toContain("abort");
    } finally {
      await client.close();
    }
  });

  it("a task that never ends: the bounded wait rejects with -32001 and cancels the task", async () => {
    const client = await connect();
    try {
      const error = (await client.callTool("never", { label: "bound" }, { maxTaskWaitMs: 50 }).catch((e: unknown) => e)) as McpClientError;
      expect(error.code).toBe(ClientErrorCode.RequestTimeout);
      expect(error.message).toMatch(/did not end within 50 ms/);
      // The call sent tasks/cancel before it rejected: the server holds the task as cancelled.
      const taskId = (error.data as { taskId: string }).taskId;
      expect(await client.request("tasks/get", { taskId })).toMatchObject({ taskId, status: "cancelled" });
    } finally {
      await client.close();
    }
  });

  it("a failed task's -32603 is its answer: tasks/result is asked once, not retried as a transient failure", async () => {
    const methods: string[] = [];
    const warnings: string[] = [];
    const watching: typeof fetch = async (input, init) => {
      const method = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string }).method : undefined;
      if (method !== undefined) methods.push(method);
      return fetch(input, init);
    };
    const client = new Client({ name: "tasks-2511", version: "1" }, { protocol: "2025-11-25", onWarning: (w) => warnings.push(String(w)) });
    await client.connect(new StreamableHttpTransport(running.url, { fetch: watching }));
    try {
      const error = (await client.callTool("crashes").catch((e: unknown) => e)) as McpClientError;
      expect(error).toMatchObject({ code: -32603, message: "the tool crashed", source: "server" });
      expect(methods.filter((m) => m === "tasks/result")).toHaveLength(1);
      expect(methods).not.toContain("tasks/cancel");
      expect(warnings).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("refuses a task option the spec's TaskMetadata cannot carry, before sending anything", async () => {
    const client = await connect();
    try {
      await expect(client.callTool("must", {}, { task: { ttl: -5 } })).rejects.toThrow(/task\.ttl must be an integer at least 0, got -5/);
      await expect(client.callTool("must", {}, { task: { ttl: 1.5 } })).rejects.toThrow(TypeError);
      await expect(client.callTool("maybe", {}, { task: { tll: 5 } as never })).rejects.toThrow(/no option "tll" \(options: ttl\)/);
      await expect(client.callTool("maybe", {}, { task: false as never })).rejects.toThrow(/task must be true or \{ ttl \}/);
      expect(await client.callTool("must", {}, { task: { ttl: 60_000 } })).toMatchObject({
        content: [{ type: "text", text: "required ran" }],
      });
    } finally {
      await client.close();
    }
  });
});
