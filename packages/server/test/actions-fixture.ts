/**
 * Shared fixture of the action tool tests: a server with action tools and
 * plain tools, started on 127.0.0.1 port 0, and a tools/call helper over real HTTP.
 */
import { afterAll, beforeAll } from "vitest";
import { defineActionTool, error, hint, ok, registerActionTool } from "../src/actions/index.js";
import { type HttpTransportOptions, listen, McpServer, type RunningHttpServer, type ServerOptions } from "../src/index.js";
import { rpc } from "./helpers.js";

/** The action tool most tests call. */
export const tasks = defineActionTool({
  name: "tasks",
  title: "Tasks",
  description: "Task management.\nEvery action answers JSON.",
  annotations: { readOnlyHint: false },
  actions: {
    create: {
      description: "Create a task",
      properties: {
        name: { type: "string", description: "The task's name, as written" },
        priority: { type: "integer", minimum: 1, maximum: 5 },
        due: { type: "string", format: "date" },
        tags: { type: "array", items: { type: "string" } },
        note: { type: ["string", "null"] },
      },
      required: ["name"],
      defaults: { priority: 3, tags: ["inbox"] },
      notes: "Names are unique.\nA second create with the same name fails.",
      related: ["get"],
      examples: [{ name: "Write the docs", due: "2026-08-01" }],
    },
    get: {
      description: "Get one task by id",
      properties: { id: { type: "integer" } },
      required: ["id"],
    },
    get_pull_request: {
      description: "Get pull request details",
      properties: {
        url: { type: "string" },
        project_key: { type: "string" },
        repo_slug: { type: "string" },
        pr_id: { type: "integer" },
      },
      requiredOneOf: [["url"], ["project_key", "repo_slug", "pr_id"]],
    },
    configure: {
      description: "Change settings",
      properties: {
        settings: {
          type: "object",
          properties: { theme: { type: "string" }, layout: { type: "object", properties: { cols: { type: "integer" } } } },
        },
        labels: { type: "object", additionalProperties: { type: "object", properties: { color: { type: "string" } } } },
        extras: { type: "object", properties: { a: { type: "string" } }, additionalProperties: true },
        free: { type: "object" },
        sealed: { type: "object", additionalProperties: false },
        items: { type: "array", items: { type: "object", properties: { id: { type: "integer" } } } },
      },
    },
    fail: { description: "Fail with a reason", properties: { reason: { type: "string" } } },
    fail_hinted: { description: "Fail with a reason and hints", properties: { id: { type: "integer" } } },
    echo: {
      description: "Answer the data it received",
      properties: { n: { type: "integer" }, s: { type: "string" }, o: { type: ["string", "null"] } },
      defaults: { s: "default" },
    },
  },
  runAction(action, data, ctx) {
    switch (action) {
      case "create":
        return ok({ created: data.name, priority: data.priority, tags: data.tags }, { id: 7 });
      case "get":
        return ok({ id: data.id, name: "Write the docs" });
      case "get_pull_request":
        return ok({ pr: data.url ?? `${data.project_key}/${data.repo_slug}#${data.pr_id}` });
      case "configure":
        return ok({ configured: Object.keys(data).sort() });
      case "fail":
        return error(data.reason ?? "no reason");
      case "fail_hinted":
        return error({ code: "locked", id: data.id }, { id: data.id });
      case "echo":
        return ok({ data, isInteger: Number.isInteger(data.n), user: ctx.assigns.user ?? null });
    }
  },
  hints(action, hintContext) {
    const { id } = hintContext as { id: number };
    return [hint({ tool: "tasks", action: "get", description: `Look at task ${id} (after ${action})`, example: { id } })];
  },
  handleError(reason) {
    return typeof reason === "string" ? `Could not do it: ${reason}` : `Could not do it: ${JSON.stringify(reason)}`;
  },
  actionContext(action, ctx) {
    if (action === "create" || action === "fail_hinted") return { user: (ctx.assigns.user as string | undefined) ?? "anonymous", action };
    return null;
  },
});

/** An action tool with none of the optional callbacks (their defaults apply). */
export const notes = defineActionTool({
  name: "notes",
  description: "Notes",
  actions: {
    add: { description: "Add a note", properties: { text: { type: "string" } }, required: ["text"] },
    fail: { description: "Always fails", properties: {} },
    fail_hinted: { description: "Fails with hints", properties: {} },
    hinted: { description: "Succeeds with hints", properties: {} },
  },
  runAction(action, data) {
    if (action === "add") return ok({ added: data.text });
    if (action === "hinted") return ok({ done: true }, { any: 1 });
    if (action === "fail_hinted") return error({ code: 42 }, { any: 1 });
    return error({ code: 42 });
  },
});

/** An action tool with an output schema: `count` conforms, `bad` does not. */
export const stats = defineActionTool({
  name: "stats",
  description: "Statistics",
  outputSchema: { type: "object", properties: { count: { type: "integer" } }, required: ["count"] },
  actions: {
    count: { description: "Count things", properties: {} },
    bad: { description: "Answer a count that is not a number", properties: {} },
  },
  runAction(action) {
    return action === "count" ? ok({ count: 2 }) : ok({ count: "two" });
  },
});

/** Builds the fixture server: the three action tools, a plain tool, and `help`. */
export function actionServer(options: ServerOptions = {}): McpServer {
  const server = new McpServer({ name: "actions-test", version: "1.0.0" }, options);
  registerActionTool(server, tasks);
  registerActionTool(server, notes);
  registerActionTool(server, stats);
  server.registerTool(
    "plain",
    { description: "A plain tool", inputSchema: { type: "object", properties: { x: { type: "integer" } }, required: ["x"] } },
    (args) => `x=${String(args.x)}`,
  );
  return server;
}

/** Starts `server` on a free loopback port for the tests of one file, and stops it after them. */
export function serve(make: () => McpServer = actionServer, options: HttpTransportOptions = {}) {
  const state: { url: string; running?: RunningHttpServer; server?: McpServer } = { url: "" };
  beforeAll(async () => {
    state.server = make();
    state.running = await listen(state.server, { port: 0, ...options });
    state.url = state.running.url;
  });
  afterAll(async () => {
    await state.running?.close();
  });
  return state;
}

/** The `CallToolResult` of one tools/call over HTTP, with its first text block parsed as JSON when it is JSON. */
export async function callTool(url: string, name: string, args?: unknown, meta: Record<string, unknown> = {}) {
  const params: Record<string, unknown> = { name };
  if (args !== undefined) params.arguments = args;
  const res = await rpc(url, "tools/call", params, { meta });
  if (res.status !== 200 || !res.json?.result) throw new Error(`tools/call ${name} answered ${res.status}: ${res.raw}`);
  const result = res.json.result as { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: any };
  const text = result.content[0]?.text ?? "";
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { result, text, body };
}
