import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { listToolsResult } from "@x/builders";
import { validate } from "@x/mcp-v2607";
import { describe, expect, it } from "vitest";
import { CHANNELS, type ToolCallEvent } from "../src/telemetry-entry.js";
import { defineActionTool, ok, registerActionTool } from "../src/actions/index.js";
import { listen, McpServer } from "../src/index.js";
import { partsOf } from "../src/server.js";
import { callTool, serve, tasks } from "./actions-fixture.js";
import { rpc } from "./helpers.js";

const srv = serve(undefined, { assigns: (header) => ({ user: header("x-user") }) });

/** Collects the `x-mcp:tool:stop` events published while `run` runs. */
async function stops(run: () => Promise<unknown>): Promise<ToolCallEvent[]> {
  const seen: ToolCallEvent[] = [];
  const listener = (message: unknown) => seen.push(message as ToolCallEvent);
  subscribe(CHANNELS.toolStop, listener);
  try {
    await run();
  } finally {
    unsubscribe(CHANNELS.toolStop, listener);
  }
  return seen;
}

describe("action tools: results, definitions and help, over HTTP", () => {
  it("[A57] ok(data) is JSON text; ok(data, hintCtx) injects hints; error(reason) is handleError text with isError; error(reason, hintCtx) is JSON {error, hints, context?}", async () => {
    const plain = await callTool(srv.url, "tasks", { action: "get", data: { id: 1 } });
    expect(plain.result.isError).toBeUndefined();
    expect(plain.result.content).toEqual([{ type: "text", text: JSON.stringify({ id: 1, name: "Write the docs" }) }]);
    const hinted = await callTool(srv.url, "tasks", { action: "create", data: { name: "x" } });
    expect(hinted.body.hints).toEqual([{ tool: "tasks", action: "get", description: "Look at task 7 (after create)", example: { id: 7 } }]);
    const failed = await callTool(srv.url, "tasks", { action: "fail", data: { reason: "disk full" } });
    expect(failed.result.isError).toBe(true);
    expect(failed.result.content).toEqual([{ type: "text", text: "Could not do it: disk full" }]);
    expect(failed.result.structuredContent).toBeUndefined();
    const failedHinted = await callTool(srv.url, "tasks", { action: "fail_hinted", data: { id: 9 } });
    expect(failedHinted.result.isError).toBe(true);
    expect(failedHinted.body).toEqual({
      error: 'Could not do it: {"code":"locked","id":9}',
      hints: [{ tool: "tasks", action: "get", description: "Look at task 9 (after fail_hinted)", example: { id: 9 } }],
      context: { user: "anonymous", action: "fail_hinted" },
    });
    expect(failedHinted.result.structuredContent).toEqual(failedHinted.body);
  });

  it("[A58] actionContext must return null or a map, else it throws; a map appears under context; no actionContext, no context key", async () => {
    const res = await rpc(
      srv.url,
      "tools/call",
      { name: "tasks", arguments: { action: "create", data: { name: "x" } } },
      { headers: { "x-user": "ada" } },
    );
    expect(JSON.parse(res.json.result.content[0].text).context).toEqual({ user: "ada", action: "create" });
    const none = await callTool(srv.url, "tasks", { action: "get", data: { id: 1 } });
    expect("context" in none.body).toBe(false);
    const noCallback = await callTool(srv.url, "notes", { action: "add", data: { text: "t" } });
    expect(noCallback.body).toEqual({ added: "t" });
    // A non-map return is a fault, on the dispatch path and the help path alike.
    const server = new McpServer({ name: "ctx", version: "1" });
    registerActionTool(
      server,
      defineActionTool({
        name: "bad_context",
        description: "actionContext returns a string",
        actions: { go: { description: "Go", properties: {} } },
        runAction: () => ok({ went: true }),
        actionContext: () => "not a map" as never,
      }),
    );
    const running = await listen(server, { port: 0 });
    try {
      const dispatched = await callTool(running.url, "bad_context", { action: "go" });
      expect(dispatched.result.isError).toBe(true);
      expect(dispatched.body).toMatchObject({ errorType: "tool_fault", tool: "bad_context", exception: "TypeError" });
      expect(dispatched.body.message).toMatch(/actionContext must return a plain object, null or undefined/);
      const helped = await callTool(running.url, "help", { tool: "bad_context", action: "go" });
      expect(helped.body).toMatchObject({ errorType: "tool_fault", tool: "help", exception: "TypeError" });
    } finally {
      await running.close();
    }
  });

  it("[A59] defaults: hints returns [], handleError gives 'Operation failed: <inspect>', outputSchema is absent", async () => {
    const hinted = await callTool(srv.url, "notes", { action: "hinted" });
    expect(hinted.body).toEqual({ done: true, hints: [] });
    const failed = await callTool(srv.url, "notes", { action: "fail" });
    expect(failed.result.isError).toBe(true);
    expect(failed.text).toBe("Operation failed: { code: 42 }");
    const failedHinted = await callTool(srv.url, "notes", { action: "fail_hinted" });
    expect(failedHinted.body).toEqual({ error: "Operation failed: { code: 42 }", hints: [] });
    const list = await rpc(srv.url, "tools/list");
    const notesTool = list.json.result.tools.find((t: { name: string }) => t.name === "notes");
    expect("outputSchema" in notesTool).toBe(false);
    expect(hinted.result.structuredContent).toBeUndefined();
  });

  it("[A60] results are classified dispatch or tool on x-mcp:tool:stop; a plain error(reason) counts as tool", async () => {
    const events = await stops(async () => {
      await callTool(srv.url, "tasks", { action: "nope" });
      await callTool(srv.url, "tasks", { action: "get", data: { id: "x" } });
      await callTool(srv.url, "tasks", { action: "fail", data: { reason: "r" } });
      await callTool(srv.url, "tasks", { action: "fail_hinted", data: { id: 1 } });
      await callTool(srv.url, "tasks", { action: "get", data: { id: 1 } });
      await callTool(srv.url, "plain", { x: "not an integer" });
      await callTool(srv.url, "help", { tool: "nope" });
    });
    expect(events.map((e) => [e.tool, e.action, e.outcome, e.errorKind])).toEqual([
      ["tasks", "nope", "error", "dispatch"],
      ["tasks", "get", "error", "dispatch"],
      ["tasks", "fail", "error", "tool"],
      ["tasks", "fail_hinted", "error", "tool"],
      ["tasks", "get", "ok", undefined],
      ["plain", undefined, "error", "dispatch"],
      ["help", undefined, "error", "dispatch"],
    ]);
    for (const e of events) expect(e.isError).toBe(e.outcome === "error");
  });

  it("[A62] the tools/list definition: name, description, inputSchema; title and annotations only when given; outputSchema validates structuredContent", async () => {
    const list = await rpc(srv.url, "tools/list");
    expect(validate("ListToolsResult", list.json.result).ok).toBe(true);
    const tools = list.json.result.tools as Record<string, any>[];
    expect(tools.map((t) => t.name)).toEqual(["tasks", "help", "notes", "stats", "plain"]);
    const tasksTool = tools[0]!;
    expect(Object.keys(tasksTool).sort()).toEqual(["annotations", "description", "inputSchema", "name", "title"]);
    expect(tasksTool.title).toBe("Tasks");
    expect(tasksTool.annotations).toEqual({ readOnlyHint: false });
    const notesTool = tools.find((t) => t.name === "notes")!;
    expect(Object.keys(notesTool).sort()).toEqual(["description", "inputSchema", "name"]);
    const statsTool = tools.find((t) => t.name === "stats")!;
    expect(statsTool.outputSchema).toEqual({ type: "object", properties: { count: { type: "integer" } }, required: ["count"] });
    const good = await callTool(srv.url, "stats", { action: "count" });
    expect(good.result.structuredContent).toEqual({ count: 2 });
    expect(good.body).toEqual({ count: 2 });
    const bad = await callTool(srv.url, "stats", { action: "bad" });
    expect(bad.result.isError).toBe(true);
    expect(bad.result.structuredContent).toBeUndefined();
    expect(bad.text).toMatch(/does not match its outputSchema/);
    // describe() is the same definition, so @x/builders' listToolsResult takes the tool object itself.
    expect(listToolsResult([tasks]).tools[0]).toEqual(tasksTool);
  });

  it("[A63] consumer text is sent unchanged; summaries are '<action>: <description>', sorted by name, joined with \\n", async () => {
    const list = await rpc(srv.url, "tools/list");
    const tasksTool = list.json.result.tools[0];
    expect(tasksTool.description).toBe("Task management.\nEvery action answers JSON.");
    const action = tasksTool.inputSchema.properties.action;
    expect(action.enum).toEqual(["configure", "create", "echo", "fail", "fail_hinted", "get", "get_pull_request"]);
    expect(action.description).toBe(
      [
        "configure: Change settings",
        "create: Create a task",
        "echo: Answer the data it received",
        "fail: Fail with a reason",
        "fail_hinted: Fail with a reason and hints",
        "get: Get one task by id",
        "get_pull_request: Get pull request details",
      ].join("\n"),
    );
    expect(tasksTool.inputSchema).toMatchObject({
      type: "object",
      required: ["action"],
      additionalProperties: false,
      properties: { data: { type: "object" } },
    });
    const index = await callTool(srv.url, "help", {});
    expect(index.body.tools[0]).toEqual({
      tool: "tasks",
      description: "Task management.\nEvery action answers JSON.",
      actions: action.description.split("\n"),
    });
    const toolLevel = await callTool(srv.url, "help", { tool: "tasks" });
    expect(toolLevel.body.actions.create.notes).toBe("Names are unique.\nA second create with the same name fails.");
    expect(toolLevel.body.actions.create.properties.name.description).toBe("The task's name, as written");
    expect(toolLevel.body.actions.create.examples).toEqual([{ name: "Write the docs", due: "2026-08-01" }]);
  });

  it("[A64] help checks its tool and action arguments with the same argument check and pointer helpers", async () => {
    const stray = await callTool(srv.url, "help", { topic: "tasks", tool: 5 });
    expect(stray.result.isError).toBe(true);
    expect(stray.body).toMatchObject({
      error: "unknown_arguments",
      unknown: ["topic"],
      unknown_count: 1,
      allowed: ["tool", "action"],
      help: { tool: "help", arguments: {} },
    });
    const type = await callTool(srv.url, "help", { tool: 5 });
    expect(type.body).toMatchObject({ error: "invalid_argument_type", argument: "tool", expected: "string", got: "number" });
    // The action tool's own gate gives the same shapes.
    const toolType = await callTool(srv.url, "tasks", { action: 5 });
    expect(Object.keys(toolType.body).sort()).toEqual(Object.keys(type.body).sort());
    const unknownTool = await callTool(srv.url, "help", { tool: "taskz" });
    expect(unknownTool.body).toMatchObject({
      error: "unknown_tool",
      tool: "taskz",
      valid_tools: ["notes", "plain", "stats", "tasks"],
      help: { tool: "help", arguments: {} },
    });
    const missingTool = await callTool(srv.url, "help", { action: "create" });
    expect(missingTool.body).toMatchObject({ error: "missing_tool", valid_tools: ["notes", "plain", "stats", "tasks"] });
    // An unknown action is answered exactly as the tool's own unknown_action gate answers it.
    const helpAction = await callTool(srv.url, "help", { tool: "tasks", action: "crate" });
    const toolAction = await callTool(srv.url, "tasks", { action: "crate" });
    expect(helpAction.body).toEqual(toolAction.body);
    expect(helpAction.result.isError).toBe(true);
  });

  it("help answers the index, a tool, and an action with its context", async () => {
    const index = await callTool(srv.url, "help");
    expect(index.body.tools.map((t: { tool: string }) => t.tool)).toEqual(["tasks", "notes", "stats", "plain"]);
    expect(index.body.tools[3]).toEqual({ tool: "plain", description: "A plain tool" });
    const plain = await callTool(srv.url, "help", { tool: "plain" });
    expect(plain.body.inputSchema).toEqual({ type: "object", properties: { x: { type: "integer" } }, required: ["x"] });
    const toolLevel = await callTool(srv.url, "help", { tool: "tasks" });
    expect(toolLevel.body.title).toBe("Tasks");
    expect(Object.keys(toolLevel.body.actions)).toEqual(["configure", "create", "echo", "fail", "fail_hinted", "get", "get_pull_request"]);
    expect(toolLevel.body.actions.get_pull_request.required_one_of).toEqual([["url"], ["project_key", "repo_slug", "pr_id"]]);
    const res = await rpc(
      srv.url,
      "tools/call",
      { name: "help", arguments: { tool: "tasks", action: "create" } },
      { headers: { "x-user": "grace" } },
    );
    const actionLevel = JSON.parse(res.json.result.content[0].text);
    expect(actionLevel).toMatchObject({
      tool: "tasks",
      action: "create",
      description: "Create a task",
      required: ["name"],
      defaults: { priority: 3, tags: ["inbox"] },
      related: ["get"],
    });
    expect(actionLevel.context).toEqual({ user: "grace", action: "create" });
    const noContext = await callTool(srv.url, "help", { tool: "tasks", action: "get" });
    expect("context" in noContext.body).toBe(false);
    const plainAction = await callTool(srv.url, "help", { tool: "plain", action: "x" });
    expect(plainAction.body).toMatchObject({ error: "unknown_action", valid_actions: [] });
  });

  it("help goes with the last action tool and cannot be removed or claimed", async () => {
    const server = new McpServer({ name: "h", version: "1" });
    server.registerTool("only_plain", {}, () => "x");
    expect(partsOf(server).tools.get("help")).toBeUndefined();
    registerActionTool(
      server,
      defineActionTool({ name: "a1", description: "A", actions: { go: { description: "Go", properties: {} } }, runAction: () => ok(1) }),
    );
    expect(partsOf(server).tools.get("help")).toBeDefined();
    expect(server.removeTool("help")).toBe(false);
    expect(server.removeTool("a1")).toBe(true);
    expect(partsOf(server).tools.get("help")).toBeUndefined();
  });
});
