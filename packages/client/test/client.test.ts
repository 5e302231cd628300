import { describe, expect, it } from "vitest";
import {
  Client,
  ClientErrorCode,
  errorCode,
  InMemoryTransport,
  isMcpClientError,
  McpClientError,
  StdioTransport,
  StreamableHttpTransport,
  type Transport,
} from "../src/index.js";
import { listResult, memoryClient, textResult, tool } from "./helpers.js";

const META = {
  version: "io.modelcontextprotocol/protocolVersion",
  capabilities: "io.modelcontextprotocol/clientCapabilities",
  info: "io.modelcontextprotocol/clientInfo",
};

describe("request metadata", () => {
  it("puts protocol version, capabilities and client info in _meta of every request", async () => {
    const { client, requests } = await memoryClient({
      "server/discover": () => ({
        resultType: "complete",
        supportedVersions: ["2026-07-28"],
        capabilities: {},
        ttlMs: 0,
        cacheScope: "public",
      }),
      "tools/list": () => listResult("tools", [tool("echo")]),
      "tools/call": () => textResult("hi"),
    });
    await client.discover();
    await client.listTools();
    await client.callTool("echo", { text: "hi" });
    expect(requests.map((r) => r.message.method)).toEqual(["server/discover", "tools/list", "tools/call"]);
    for (const { message } of requests) {
      const meta = (message.params as { _meta: Record<string, unknown> })._meta;
      expect(meta[META.version]).toBe("2026-07-28");
      expect(meta[META.capabilities]).toEqual({});
      expect(meta[META.info]).toEqual({ name: "test-client", version: "1.0.0" });
    }
    expect(new Set(requests.map((r) => r.message.id)).size).toBe(3);
  });

  it("declares a capability for each handler given, and keeps explicit ones", async () => {
    const { client, requests } = await memoryClient(
      { "tools/list": () => listResult("tools", []) },
      {
        capabilities: { experimental: { "x.example/flag": {} } },
        handlers: {
          sampling: () => ({ role: "assistant", content: { type: "text", text: "" }, model: "m" }),
          roots: () => ({ roots: [] }),
        },
      },
    );
    await client.listTools();
    expect((requests[0]!.message.params as { _meta: Record<string, unknown> })._meta[META.capabilities]).toEqual({
      experimental: { "x.example/flag": {} },
      sampling: {},
      roots: {},
    });
  });

  it("sends the log level and extra _meta keys it is given, never replacing the protocol's own", async () => {
    const { client, requests } = await memoryClient({ "tools/list": () => listResult("tools", []) }, { logLevel: "info" });
    await client.listTools({ meta: { "x.example/trace": "t1", [META.version]: "1999-01-01" } });
    const meta = (requests[0]!.message.params as { _meta: Record<string, unknown> })._meta;
    expect(meta["io.modelcontextprotocol/logLevel"]).toBe("info");
    expect(meta["x.example/trace"]).toBe("t1");
    expect(meta[META.version]).toBe("2026-07-28");
  });
});

describe("protocol version negotiation", () => {
  it("retries once, with a new id, in a version the server listed after -32022", async () => {
    let first = true;
    const { client, requests } = await memoryClient(
      {
        "tools/list": (params) => {
          const version = (params._meta as Record<string, unknown>)[META.version];
          if (first || version !== "2026-07-28") {
            first = false;
            return {
              error: {
                code: -32022,
                message: "Unsupported protocol version",
                data: { supported: ["2026-07-28", "2025-11-25"], requested: version },
              },
            };
          }
          return listResult("tools", []);
        },
      },
      { protocolVersions: ["2027-01-01", "2026-07-28"] },
    );
    await client.listTools();
    expect(requests).toHaveLength(2);
    expect((requests[0]!.message.params as { _meta: Record<string, unknown> })._meta[META.version]).toBe("2027-01-01");
    expect((requests[1]!.message.params as { _meta: Record<string, unknown> })._meta[META.version]).toBe("2026-07-28");
    expect(requests[1]!.message.id).not.toBe(requests[0]!.message.id);
    expect(client.protocolVersion).toBe("2026-07-28");
  });

  it("fails with -32022 naming both sides when no version is shared", async () => {
    const { client, requests } = await memoryClient({
      "tools/list": () => ({
        error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2030-01-01"], requested: "2026-07-28" } },
      }),
    });
    const error = await client.listTools().catch((e) => e);
    expect(error.code).toBe(-32022);
    expect(error.message).toMatch(/2030-01-01.*2026-07-28/);
    expect(requests).toHaveLength(1);
  });

  it("switches version when discover lists only another shared one", async () => {
    const { client } = await memoryClient(
      {
        "server/discover": () => ({
          resultType: "complete",
          supportedVersions: ["2026-07-28"],
          capabilities: {},
          ttlMs: 0,
          cacheScope: "public",
        }),
      },
      { protocolVersions: ["2027-01-01", "2026-07-28"] },
    );
    await client.discover();
    expect(client.protocolVersion).toBe("2026-07-28");
  });
});

describe("results and errors", () => {
  it("reads an absent resultType as complete (a server of an older revision)", async () => {
    const { client } = await memoryClient({
      "tools/list": () => ({ tools: [tool("old")] }),
      "tools/call": () => ({ content: [{ type: "text", text: "ok" }] }),
    });
    expect((await client.callTool("old")).content).toEqual([{ type: "text", text: "ok" }]);
  });

  it("refuses an unknown resultType with -32094", async () => {
    const { client } = await memoryClient({ "tools/list": () => ({ resultType: "deferred", tools: [] }) });
    await expect(client.listTools()).rejects.toMatchObject({
      code: ClientErrorCode.InvalidResult,
      message: expect.stringMatching(/unknown resultType "deferred"/),
    });
  });

  it("refuses input_required on a method that may not send it", async () => {
    const { client } = await memoryClient({ "tools/list": () => ({ resultType: "input_required", requestState: "s" }) });
    await expect(client.listTools()).rejects.toMatchObject({ code: ClientErrorCode.InvalidResult });
  });

  it("refuses a result that is not an object, or a list that is not an array", async () => {
    const { client } = await memoryClient({ "prompts/list": () => ({ resultType: "complete", prompts: "nope" }) });
    await expect(client.listPrompts()).rejects.toMatchObject({ code: ClientErrorCode.InvalidResult });
    const second = await memoryClient({ "tools/list": () => listResult("tools", []) });
    const transport = new InMemoryTransport((message) => ({ jsonrpc: "2.0", id: message.id, result: 42 as never }));
    const raw = new Client({ name: "t", version: "1" });
    await raw.connect(transport);
    await expect(raw.request("tools/list")).rejects.toMatchObject({ code: ClientErrorCode.InvalidResult });
    await second.client.close();
  });

  it("throws the server's error with its code, message and data, marked as from the server", async () => {
    const { client } = await memoryClient({
      "tools/list": () => listResult("tools", [tool("t")]),
      "tools/call": () => ({ error: { code: -32602, message: "Unknown tool: t2", data: { name: "t2" } } }),
    });
    const error = await client.callTool("t").catch((e) => e);
    expect(isMcpClientError(error, -32602)).toBe(true);
    expect(error).toMatchObject({ code: -32602, message: "Unknown tool: t2", data: { name: "t2" }, source: "server" });
  });

  it("returns a tool error as a result, not a throw", async () => {
    const { client } = await memoryClient({
      "tools/list": () => listResult("tools", [tool("t")]),
      "tools/call": () => textResult("boom", { isError: true }),
    });
    expect(await client.callTool("t")).toMatchObject({ isError: true, content: [{ text: "boom" }] });
  });

  it("turns a throwing in-memory handler into a -32603 error", async () => {
    const client = new Client({ name: "t", version: "1" });
    await client.connect(
      new InMemoryTransport(() => {
        throw new Error("the handler broke");
      }),
    );
    await expect(client.request("tools/list")).rejects.toMatchObject({ code: -32603, message: "the handler broke" });
  });

  it("refuses to send before connect, and after close", async () => {
    const client = new Client({ name: "t", version: "1" });
    await expect(client.listTools()).rejects.toMatchObject({ code: ClientErrorCode.TransportFailed, data: { reason: "closed" } });
    const { client: other } = await memoryClient({ "tools/list": () => listResult("tools", []) });
    await other.close();
    await expect(other.listTools()).rejects.toMatchObject({ code: ClientErrorCode.TransportFailed, data: { reason: "closed" } });
  });

  it("refuses a clientInfo without name or version, and a negative option", () => {
    expect(() => new Client({ name: "x" } as never)).toThrow(TypeError);
    expect(() => new Client({ name: "x", version: "1" }, { timeout: -1 })).toThrow(TypeError);
  });

  it("refuses a misspelt option of the client, its tasks settings and the HTTP and stdio transports, naming it", () => {
    const info = { name: "x", version: "1" };
    expect(() => new Client(info, { timout: 5 } as never)).toThrow(/Client has no option "timout"; did you mean "timeout"\?/);
    expect(() => new Client(info, { tasks: { pollIntervalMS: 5 } } as never)).toThrow(
      /tasks has no option "pollIntervalMS"; did you mean "pollIntervalMs"\?/,
    );
    expect(() => new StreamableHttpTransport("http://127.0.0.1:1/mcp", { maxResumeAttempt: 3 } as never)).toThrow(
      /StreamableHttpTransport has no option "maxResumeAttempt"; did you mean "maxResumeAttempts"\?/,
    );
    expect(() => new StdioTransport({ command: "node", arg: ["server.js"] } as never)).toThrow(/StdioTransport has no option "arg"/);
    // Every documented option is still taken.
    expect(() => new Client(info, { timeout: 5, probeTimeout: 5, tasks: { pollIntervalMs: 5, stream: true } })).not.toThrow();
  });

  it("refuses, at once, capabilities, client info or a log level that every server would refuse (the shared _meta rule)", () => {
    const info = { name: "x", version: "1" };
    expect(() => new Client(info, { capabilities: { sampling: 5 } as never })).toThrow(
      new TypeError('Invalid params: _meta["io.modelcontextprotocol/clientCapabilities"].sampling must be an object'),
    );
    expect(() => new Client(info, { logLevel: "DEBUG" as never })).toThrow(/_meta\["io\.modelcontextprotocol\/logLevel"\] must be one of/);
    expect(() => new Client({ ...info, websiteUrl: "not a uri" })).toThrow(/clientInfo"\]\.websiteUrl must match format "uri"/);
    expect(() => new Client(info, { capabilities: { roots: {}, experimental: { x: {} } }, logLevel: "debug" })).not.toThrow();
  });

  it("isMcpClientError knows the client's errors by their shape, not any error with a numeric code such as a DOMException", () => {
    const timeout = new DOMException("x", "TimeoutError");
    expect(timeout.code).toBe(23);
    expect(isMcpClientError(timeout)).toBe(false);
    expect(isMcpClientError(new DOMException("x", "AbortError"))).toBe(false);
    expect(errorCode(timeout)).toBeUndefined();
    expect(isMcpClientError(Object.assign(new Error("x"), { code: -32000 }))).toBe(false);
    expect(isMcpClientError({ code: -32602, message: "x" })).toBe(false);
    expect(isMcpClientError(new McpClientError(-32001, "x"), ClientErrorCode.RequestTimeout)).toBe(true);
    // Another copy of the package, or another realm: the same shape, another class.
    expect(isMcpClientError({ code: 23, message: "the server's own code", source: "server" }, 23)).toBe(true);
  });

  it("a transport that throws a DOMException fails the call with the client's own -32000, the DOMException as its cause", async () => {
    const timeout = new DOMException("x", "TimeoutError");
    const transport: Transport = { kind: "custom", mirrorsHeaders: false, send: () => Promise.reject(timeout), close: async () => {} };
    const client = new Client({ name: "t", version: "1" }, { protocol: "2026-07-28", lookupTools: false });
    await client.connect(transport);
    const error = await client.request("tools/list").catch((e: unknown) => e);
    expect(error).not.toBe(timeout);
    expect(isMcpClientError(error, ClientErrorCode.TransportFailed)).toBe(true);
    expect(error).toMatchObject({ source: "client", data: { reason: "stream_broken" }, cause: timeout });
    await client.close();
  });
});

describe("cancellation and timeouts", () => {
  it("rejects with -32800 when the signal aborts, and the handler sees the abort", async () => {
    let seen: AbortSignal | undefined;
    let handling: () => void = () => {};
    const handled = new Promise<void>((resolve) => (handling = resolve));
    const { client } = await memoryClient({
      "tools/list": () => listResult("tools", [tool("slow")]),
      "tools/call": (_params, exchange) => {
        seen = exchange.signal;
        handling();
        return new Promise(() => {});
      },
    });
    await client.listTools();
    const controller = new AbortController();
    const call = client.callTool("slow", {}, { signal: controller.signal });
    // Abort once the server handles the call (a fixed sleep races a loaded machine).
    await handled;
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled });
    expect(seen?.aborted).toBe(true);
  });

  it("rejects at once with -32800 when the signal is already aborted", async () => {
    const { client, requests } = await memoryClient({ "tools/list": () => listResult("tools", []) });
    await expect(client.listTools({ signal: AbortSignal.abort() })).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled });
    expect(requests).toHaveLength(0);
  });

  it("rejects with -32001 when the timeout passes", async () => {
    const { client } = await memoryClient({ "tools/list": () => new Promise(() => {}) });
    await expect(client.listTools({ timeout: 20 })).rejects.toMatchObject({ code: ClientErrorCode.RequestTimeout, data: { timeout: 20 } });
  });
});

describe("progress and notifications", () => {
  it("sends a progressToken with onProgress and delivers that request's progress", async () => {
    const { client, requests } = await memoryClient({
      "tools/list": () => listResult("tools", [tool("long")]),
      "tools/call": (params, exchange) => {
        const token = (params._meta as Record<string, unknown>).progressToken;
        exchange.notify({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: token as string, progress: 1, total: 2 },
        });
        exchange.notify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "someone-else", progress: 9 } });
        exchange.notify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "half way" } });
        return textResult("done");
      },
    });
    const progress: unknown[] = [];
    const notifications: string[] = [];
    await client.callTool(
      "long",
      {},
      { onProgress: (p) => progress.push(p.progress), onNotification: (n) => notifications.push(n.method) },
    );
    expect(progress).toEqual([1]);
    expect(notifications).toEqual(["notifications/progress", "notifications/progress", "notifications/message"]);
    expect((requests[1]!.message.params as { _meta: Record<string, unknown> })._meta.progressToken).toBeTypeOf("string");
  });
});

describe("listeners", () => {
  it("a listener that throws is reported as a warning and does not break the request", async () => {
    const warnings: string[] = [];
    const { client } = await memoryClient(
      {
        "tools/list": () => listResult("tools", [tool("t")]),
        "tools/call": (_p, exchange) => {
          exchange.notify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } });
          return textResult("fine");
        },
      },
      { onWarning: (w) => warnings.push(w) },
    );
    const result = await client.callTool(
      "t",
      {},
      {
        onNotification: () => {
          throw new Error("listener bug");
        },
      },
    );
    expect(result.content).toEqual([{ type: "text", text: "fine" }]);
    expect(warnings).toEqual(["A notification listener threw: listener bug"]);
  });
});

describe("completion", () => {
  it("sends completion/complete and returns the values", async () => {
    const { client, requests } = await memoryClient({
      "completion/complete": () => ({ resultType: "complete", completion: { values: ["python", "pytorch"], hasMore: false } }),
    });
    const result = await client.complete({ ref: { type: "ref/prompt", name: "code" }, argument: { name: "language", value: "py" } });
    expect(result.completion.values).toEqual(["python", "pytorch"]);
    expect(requests[0]!.message.params).toMatchObject({
      ref: { type: "ref/prompt", name: "code" },
      argument: { name: "language", value: "py" },
    });
  });
});
