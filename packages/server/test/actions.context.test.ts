import { describe, expect, it } from "vitest";
import { defineActionTool, ok, registerActionTool } from "../src/actions/index.js";
import { filterAssigns } from "../src/context.js";
import { McpServer, RESERVED_ASSIGNS_PREFIX, type RequestContext } from "../src/index.js";
import { callTool, serve } from "./actions-fixture.js";
import { rpc } from "./helpers.js";

const writes: string[] = [];

function contextServer(): McpServer {
  const server = new McpServer({ name: "ctx", version: "1" });
  const report = (ctx: RequestContext) => ({
    requestId: ctx.requestId,
    meta: ctx.meta,
    assigns: ctx.assigns,
    frozen: Object.isFrozen(ctx.assigns),
    tools: ctx.tools.map((t) => t.name),
    answers: ctx.answers,
    trace: ctx.trace ?? null,
  });
  server.registerTool("context", {}, (_args, ctx) => JSON.stringify(report(ctx)));
  registerActionTool(
    server,
    defineActionTool({
      name: "session",
      description: "Reads and tries to change the context",
      actions: {
        read: { description: "Answer the context", properties: {} },
        write: { description: "Try to write to ctx.assigns", properties: { key: { type: "string" } }, required: ["key"] },
      },
      runAction(action, data, ctx) {
        if (action === "write") {
          try {
            (ctx.assigns as Record<string, unknown>)[data.key as string] = "written";
          } catch (e) {
            writes.push((e as Error).name);
          }
          return ok({ assigns: ctx.assigns });
        }
        return ok(report(ctx));
      },
    }),
  );
  return server;
}

let counter = 0;
const srv = serve(contextServer, {
  // What an authentication step might leave: a user, plus keys of the server's own under the reserved prefix.
  assigns: (header) => ({
    user: header("x-user") ?? "nobody",
    call: ++counter,
    "x-mcp": "internal",
    "x-mcp.session": "internal",
    "x-mcp_principal": "internal",
  }),
});

describe("the tool context over HTTP", () => {
  it("[A27] the context holds requestId, meta, assigns, tools (the mount list) and answers", async () => {
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
    const res = await rpc(
      srv.url,
      "tools/call",
      { name: "context" },
      { id: "req-27", meta: { traceparent, tracestate: "vendor=1" }, headers: { "x-user": "ada" } },
    );
    const ctx = JSON.parse(res.json.result.content[0].text);
    expect(ctx.requestId).toBe("req-27");
    expect(ctx.meta["io.modelcontextprotocol/protocolVersion"]).toBe("2026-07-28");
    expect(ctx.meta.traceparent).toBe(traceparent);
    expect(ctx.assigns.user).toBe("ada");
    expect(ctx.tools).toEqual(["context", "session", "help"]);
    expect(ctx.answers).toEqual({});
    expect(ctx.trace).toEqual({
      traceparent,
      tracestate: "vendor=1",
      traceId: "0af7651916cd43dd8448eb211c80319c",
      parentId: "00f067aa0ba902b7",
      traceFlags: 1,
      sampled: true,
    });
    // The same context reaches an action tool's runAction.
    const action = await rpc(srv.url, "tools/call", { name: "session", arguments: { action: "read" } }, { id: 28 });
    const fromAction = JSON.parse(action.json.result.content[0].text);
    expect(fromAction).toMatchObject({ requestId: 28, tools: ["context", "session", "help"], answers: {}, trace: null });
  });

  it("[A28] assigns come from the request only: reserved keys filtered, fresh per request, never written by a run", async () => {
    const first = await rpc(srv.url, "tools/call", { name: "context" }, { headers: { "x-user": "ada" } });
    const a = JSON.parse(first.json.result.content[0].text);
    expect(Object.keys(a.assigns).sort()).toEqual(["call", "user"]);
    expect(a.frozen).toBe(true);
    const second = await rpc(srv.url, "tools/call", { name: "context" }, { headers: { "x-user": "grace" } });
    const b = JSON.parse(second.json.result.content[0].text);
    expect(b.assigns.user).toBe("grace");
    expect(b.assigns.call).toBe(a.assigns.call + 1);
    // A run cannot write to its assigns, and nothing carries over to the next request.
    const write = await callTool(srv.url, "session", { action: "write", data: { key: "sticky" } });
    expect(write.body.assigns.sticky).toBeUndefined();
    expect(writes).toEqual(["TypeError"]);
    const after = await callTool(srv.url, "session", { action: "read" });
    expect(after.body.assigns.sticky).toBeUndefined();
    expect(after.body.assigns.user).toBe("nobody");
    // The filter itself: one reserved prefix, and a fresh frozen copy each time.
    expect(RESERVED_ASSIGNS_PREFIX).toBe("x-mcp");
    const source = { user: "u", "x-mcp.auth": 1 };
    const copy = filterAssigns(source);
    expect(copy).toEqual({ user: "u" });
    expect(copy).not.toBe(filterAssigns(source));
    expect(Object.isFrozen(copy)).toBe(true);
  });
});
