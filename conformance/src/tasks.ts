/**
 * The fixture's tools for the tasks extension's scenarios
 * (`io.modelcontextprotocol/tasks`): a plain tool, tools that run as tasks
 * when the client declares the extension (or only then), tools whose task
 * asks the user, and one that asks before its task starts.
 */
import { callToolResult } from "@x/builders";
import { McpError, type McpServer } from "@x/server";

const noArgs = { type: "object" as const, properties: {} };

/** Waits `ms`, or rejects as soon as `signal` is aborted. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}

const confirmSchema = {
  type: "object" as const,
  properties: { confirm: { type: "boolean" as const, description: "Go ahead?" } },
  required: ["confirm"],
};

/** Registers the tasks scenarios' tools. */
export function registerTasks(server: McpServer): void {
  server.registerTool(
    "greet",
    { description: "Greets by name, at once (never a task).", inputSchema: { type: "object", properties: { name: { type: "string" } } } },
    (args) => callToolResult([["text", `Hello, ${String(args.name ?? "there")}!`]]),
  );
  server.registerTool(
    "slow_compute",
    {
      description: "Sleeps for `seconds`, then answers; a task when the client supports tasks.",
      inputSchema: { type: "object", properties: { seconds: { type: "number", minimum: 0 }, label: { type: "string" } } },
      taskSupport: "optional",
    },
    async (args, ctx) => {
      const seconds = Number(args.seconds ?? 0);
      await sleep(seconds * 1000, ctx.signal);
      return callToolResult([["text", `Computed ${String(args.label ?? "result")} after ${seconds} s`]]);
    },
  );
  server.registerTool(
    "failing_job",
    { description: "Runs only as a task, and ends with a tool error.", inputSchema: noArgs, taskSupport: "required" },
    async (_args, ctx) => {
      await sleep(1000, ctx.signal);
      return { ...callToolResult([["text", "The job failed: the input could not be processed"]]), isError: true };
    },
  );
  server.registerTool(
    "protocol_error_job",
    { description: "A task whose run ends with a JSON-RPC error.", inputSchema: noArgs, taskSupport: "required" },
    async (_args, ctx) => {
      await sleep(200, ctx.signal);
      throw new McpError(-32603, "The job's backend rejected the request");
    },
  );
  server.registerTool(
    "confirm_delete",
    {
      description: "A task that asks the user to confirm before it deletes a file.",
      inputSchema: { type: "object", properties: { filename: { type: "string" } } },
      taskSupport: "optional",
    },
    async (args, ctx) => {
      const answer = await ctx.elicit(`Delete ${String(args.filename)}?`, confirmSchema);
      const yes = answer.action === "accept" && (answer as { content?: { confirm?: unknown } }).content?.confirm === true;
      return callToolResult([["text", yes ? `Deleted ${String(args.filename)}` : `Kept ${String(args.filename)}`]]);
    },
  );
  server.registerTool(
    "multi_input",
    { description: "A task that asks two questions at once.", inputSchema: noArgs, taskSupport: "optional" },
    async (_args, ctx) => {
      const schema = {
        type: "object" as const,
        properties: { name: { type: "string" as const }, confirm: { type: "boolean" as const } },
      };
      const [first, second] = await ctx.all([ctx.ask.elicit("First answer?", schema), ctx.ask.elicit("Second answer?", schema)]);
      const name = (a: unknown) => String((a as { content?: { name?: unknown } }).content?.name ?? "?");
      return callToolResult([["text", `Got ${name(first)} and ${name(second)}`]]);
    },
  );
  server.registerTool(
    "test_tool_with_task",
    {
      description: "Asks for a name before any task exists, then greets in a task.",
      inputSchema: noArgs,
      taskSupport: "required",
      taskStart: "deferred",
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit("What is your name?", {
        type: "object",
        properties: { name: { type: "string" } },
        required: ["name"],
      });
      const name = answer.action === "accept" ? String((answer as { content?: { name?: unknown } }).content?.name) : "stranger";
      await ctx.startTask();
      await sleep(100, ctx.signal);
      return callToolResult([["text", `Hello, ${name}! (from a task)`]]);
    },
  );
}
