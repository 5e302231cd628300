/**
 * The example server's tools: a plain text tool, a tool with an
 * `outputSchema` and `structuredContent`, a tool that reports a tool error,
 * a tool that asks the user a question (Multi Round-Trip Requests), and a
 * long one that runs as a task (the tasks extension).
 */
import { callToolResult } from "@x/builders";
import { McpServer } from "@x/server";
import { tasks } from "@x/server/tasks";
import { registerExampleActions } from "./actions.js";

/** Builds the example server; one instance serves every request of every transport. */
export function createExampleServer(): McpServer {
  const server = new McpServer(
    { name: "x-example", version: "0.1.0", title: "@x example server" },
    {
      instructions: "Small demo tools: echo, add, word_stats, divide, book_table (which asks questions) and make_report (a task).",
      // make_report runs as a task: the tasks plug-in.
      tasks: tasks(),
    },
  );

  server.registerTool<{ text: string }>(
    "echo",
    {
      title: "Echo",
      description: "Returns the text it is given.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      annotations: { readOnlyHint: true },
    },
    ({ text }) => text,
  );

  server.registerTool<{ a: number; b: number }>(
    "add",
    {
      title: "Add",
      description: "Adds two numbers and returns the sum as structured content.",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
      outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
      annotations: { readOnlyHint: true },
    },
    ({ a, b }) => callToolResult([["data", { sum: a + b }]]),
  );

  server.registerTool<{ text: string }>(
    "word_stats",
    {
      title: "Word statistics",
      description: "Counts the words, lines and characters of a text.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      outputSchema: {
        type: "object",
        properties: { words: { type: "integer" }, lines: { type: "integer" }, characters: { type: "integer" } },
        required: ["words", "lines", "characters"],
      },
    },
    ({ text }) => {
      const words = text.split(/\s+/).filter(Boolean).length;
      const lines = text === "" ? 0 : text.split("\n").length;
      const characters = [...text].length;
      return callToolResult([
        ["text", `${words} words, ${lines} lines, ${characters} characters`],
        ["_data", { words, lines, characters }],
      ]);
    },
  );

  server.registerTool<{ dividend: number; divisor: number }>(
    "divide",
    {
      title: "Divide",
      description: "Divides one number by another; dividing by zero is reported as a tool error.",
      inputSchema: {
        type: "object",
        properties: { dividend: { type: "number" }, divisor: { type: "number" } },
        required: ["dividend", "divisor"],
      },
    },
    ({ dividend, divisor }) =>
      divisor === 0 ? callToolResult([["error", "Cannot divide by zero"]]) : callToolResult([["text", String(dividend / divisor)]]),
  );

  server.registerTool<{ restaurant: string }>(
    "book_table",
    {
      title: "Book a table",
      description: "Books a table at a restaurant, asking the user for the party size and time.",
      inputSchema: { type: "object", properties: { restaurant: { type: "string" } }, required: ["restaurant"] },
    },
    async ({ restaurant }, ctx) => {
      // Each question ends the round until the client answers it; the client
      // then retries the call and this body runs again from the top, so
      // nothing before the last question has side effects.
      const party = await ctx.elicit(`How many people for ${restaurant}?`, {
        type: "object",
        properties: { people: { type: "integer", minimum: 1, maximum: 20, description: "Party size" } },
        required: ["people"],
      });
      if (party.action === "not_supported")
        return callToolResult([["error", "This client cannot answer questions (no elicitation capability)."]]);
      if (party.action !== "accept") return callToolResult([["text", "No booking made."]]);
      const time = await ctx.elicit("What time?", {
        type: "object",
        properties: { time: { type: "string", enum: ["18:00", "19:30", "21:00"], description: "Seating" } },
        required: ["time"],
      });
      if (time.action !== "accept") return callToolResult([["text", "No booking made."]]);
      return callToolResult([["text", `Booked ${restaurant} for ${party.content?.people} at ${time.content?.time}.`]]);
    },
  );

  server.registerTool<{ pages: number }>(
    "make_report",
    {
      title: "Make a report",
      description: "Writes a report page by page; a long call, so it runs as a task when the client supports tasks.",
      inputSchema: { type: "object", properties: { pages: { type: "integer", minimum: 1, maximum: 20 } }, required: ["pages"] },
      taskSupport: "optional",
    },
    async ({ pages }, ctx) => {
      // ctx.signal is aborted by tasks/cancel (or when the task's time to live passes).
      for (let page = 1; page <= pages; page++) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, 100);
          const stop = () => {
            clearTimeout(timer);
            reject(ctx.signal.reason);
          };
          ctx.signal.addEventListener("abort", stop, { once: true });
        });
      }
      return callToolResult([["text", `Report of ${pages} pages ready${ctx.task ? ` (task ${ctx.task.taskId})` : ""}.`]]);
    },
  );

  registerExampleActions(server);
  // A static resource, a resource template and a prompt, as in the README.
  server.registerResource(
    "readme",
    "file:///readme.md",
    { description: "What this server offers", mimeType: "text/markdown", cache: { ttlMs: 60_000, cacheScope: "public" } },
    () => "# @x example server\n\nTools: echo, add, word_stats, divide, book_table, make_report, units.",
  );
  server.registerResourceTemplate(
    "unit",
    "units://{unit}",
    {
      description: "One unit the units tool knows",
      mimeType: "application/json",
      complete: { unit: (v) => ["m", "km", "mi", "kg", "lb", "c", "f"].filter((u) => u.startsWith(v)) },
    },
    (_uri, { unit }) => JSON.stringify({ unit }),
  );
  server.registerPrompt(
    "summarize",
    {
      description: "Asks the model to summarize a text",
      arguments: [{ name: "text", description: "The text to summarize", required: true }],
    },
    ({ text }) => `Summarize this in one sentence:\n\n${text}`,
  );

  return server;
}
