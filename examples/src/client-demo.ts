/**
 * The demo client's steps, kept apart from the terminal so that tests can
 * drive them: discover the example server, list its tools, call a few, and,
 * when the server offers a tool that asks questions (`book_table`), answer
 * its elicitations through the suspension bridge (`waitFor`).
 */
import { type Answer, type Client, isMcpClientError, type Request, type WaitFor } from "@x/client";

/** How the demo talks to a person: print a line, ask a question (resolving `undefined` when input has ended). */
export interface DemoIO {
  print(line: string): void;
  ask(question: string): Promise<string | undefined>;
}

/** The example tool that asks questions, if the server offers it. */
export const ELICITING_TOOL = "book_table";

interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  oneOf?: Array<{ const?: unknown; title?: string }>;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  items?: { enum?: unknown[]; anyOf?: Array<{ const?: unknown }> };
}

function choicesOf(field: FieldSchema): string[] | undefined {
  if (Array.isArray(field.enum)) return field.enum.map(String);
  if (Array.isArray(field.oneOf)) return field.oneOf.map((o) => String(o.const));
  if (field.type === "array") {
    const items = field.items ?? {};
    if (Array.isArray(items.enum)) return items.enum.map(String);
    if (Array.isArray(items.anyOf)) return items.anyOf.map((o) => String(o.const));
  }
  return undefined;
}

/** Reads one form field's value from text, or explains why it cannot. */
function parseField(field: FieldSchema, text: string): { value: unknown } | { problem: string } {
  const choices = choicesOf(field);
  if (field.type === "array") {
    const picked = text
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => (choices && /^\d+$/.test(s) ? (choices[Number(s) - 1] ?? s) : s));
    const unknown = picked.filter((p) => choices && !choices.includes(p));
    return unknown.length > 0 ? { problem: `not a choice: ${unknown.join(", ")}` } : { value: picked };
  }
  if (choices) {
    const byNumber = /^\d+$/.test(text) ? choices[Number(text) - 1] : undefined;
    const value = byNumber ?? text;
    return choices.includes(value) ? { value } : { problem: `choose one of ${choices.join(", ")}` };
  }
  if (field.type === "boolean") {
    if (/^(y|yes|true)$/i.test(text)) return { value: true };
    if (/^(n|no|false)$/i.test(text)) return { value: false };
    return { problem: "answer yes or no" };
  }
  if (field.type === "integer" || field.type === "number") {
    const n = Number(text);
    if (text === "" || !Number.isFinite(n) || (field.type === "integer" && !Number.isInteger(n)))
      return { problem: `enter ${field.type === "integer" ? "a whole number" : "a number"}` };
    if (field.minimum !== undefined && n < field.minimum) return { problem: `at least ${field.minimum}` };
    if (field.maximum !== undefined && n > field.maximum) return { problem: `at most ${field.maximum}` };
    return { value: n };
  }
  return { value: text };
}

/**
 * A `waitFor` that asks at the terminal: for `kind: "input"`, one prompt per
 * field of `data.schema` (an empty line declines, the end of input cancels);
 * for `kind: "authorization"`, it shows the URL and asks whether the user is
 * done there.
 */
export function terminalWaitFor(io: DemoIO): WaitFor {
  return async (request: Request): Promise<Answer> => {
    io.print(`\n? The server asks: ${request.prompt}`);
    if (request.kind === "authorization") {
      io.print(`  Open ${request.url ?? "(no URL given)"} and come back.`);
      const done = await io.ask("  Done? [y/N] ");
      if (done === undefined) return { id: request.id, ok: false, reason: "cancelled" };
      return /^y/i.test(done) ? { id: request.id, ok: true } : { id: request.id, ok: false, reason: "declined" };
    }
    const schema = (request.data?.schema ?? {}) as { properties?: Record<string, FieldSchema>; required?: string[] };
    const answers: Record<string, unknown> = {};
    io.print("  (an empty answer declines)");
    for (const [name, field] of Object.entries(schema.properties ?? {})) {
      const choices = choicesOf(field);
      const label = field.title ?? field.description ?? name;
      const hint = choices ? ` [${choices.map((c, i) => `${i + 1}) ${c}`).join("  ")}]` : field.type === "boolean" ? " [y/n]" : "";
      const fallback = field.default !== undefined ? ` (default ${JSON.stringify(field.default)})` : "";
      for (let attempt = 0; ; attempt++) {
        const text = await io.ask(`  ${label}${hint}${fallback}: `);
        if (text === undefined) return { id: request.id, ok: false, reason: "cancelled" };
        const trimmed = text.trim();
        if (trimmed === "") {
          if (field.default !== undefined) {
            answers[name] = field.default;
            break;
          }
          if (!schema.required?.includes(name)) break;
          return { id: request.id, ok: false, reason: "declined" };
        }
        const parsed = parseField(field, trimmed);
        if ("value" in parsed) {
          answers[name] = parsed.value;
          break;
        }
        io.print(`    ${parsed.problem}`);
        if (attempt >= 2) return { id: request.id, ok: false, reason: "declined" };
      }
    }
    return { id: request.id, ok: true, data: answers };
  };
}

function textOf(content: Array<{ type: string; text?: string }>): string {
  return content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
}

/**
 * Runs the demo against a connected client whose `waitFor` is wired to `io`.
 * @returns whether the elicitation step ran (it needs the server to offer {@link ELICITING_TOOL}).
 */
export async function runDemo(client: Client, io: DemoIO, options: { restaurant?: string } = {}): Promise<{ elicited: boolean }> {
  // Known from connect in either era (the discover probe, or initialize); discover() only when connect sent neither.
  if (client.serverInfo === undefined) await client.discover();
  const info = client.serverInfo as { name?: string; version?: string } | undefined;
  io.print(`Connected to ${info?.name ?? "a server"} ${info?.version ?? ""} (protocol ${client.protocolVersion})`);
  if (client.instructions) io.print(`Instructions: ${client.instructions}`);

  const tools = await client.listAllTools();
  io.print(`\nTools (${tools.length}):`);
  for (const tool of tools) io.print(`  ${tool.name.padEnd(12)} ${tool.description ?? ""}`);

  const has = (name: string) => tools.some((t) => t.name === name);
  if (has("add")) {
    const sum = await client.callTool("add", { a: 2, b: 40 });
    io.print(`\nadd(2, 40) → structuredContent ${JSON.stringify(sum.structuredContent)} (checked against the tool's outputSchema)`);
  }
  if (has("word_stats")) {
    const stats = await client.callTool("word_stats", { text: "The quick brown fox\njumps over the lazy dog" });
    io.print(`word_stats → ${textOf(stats.content as never)}`);
  }
  if (has("divide")) {
    const divided = await client.callTool("divide", { dividend: 1, divisor: 0 });
    io.print(`divide(1, 0) → ${divided.isError ? "tool error: " : ""}${textOf(divided.content as never)}`);
  }

  if (has("make_report") && client.protocolVersion === "2026-07-28") {
    // With tasks on, the server answers with a task handle and callTool polls it to the end.
    const report = await client.callTool(
      "make_report",
      { pages: 3 },
      { onTask: (task) => io.print(`\nmake_report → task ${task.taskId} (${task.status})`) },
    );
    io.print(`make_report → ${textOf(report.content as never)}`);
  }

  if (!has(ELICITING_TOOL)) {
    io.print(`\nThe server offers no tool that asks questions (${ELICITING_TOOL}), so the elicitation step is skipped.`);
    return { elicited: false };
  }
  const restaurant = options.restaurant ?? "Chez Panisse";
  io.print(`\n${ELICITING_TOOL}("${restaurant}") — the server will ask questions; answer them here:`);
  try {
    const booked = await client.callTool(ELICITING_TOOL, { restaurant });
    io.print(`\n${ELICITING_TOOL} → ${booked.isError ? "tool error: " : ""}${textOf(booked.content as never)}`);
  } catch (error) {
    io.print(
      `\n${ELICITING_TOOL} failed${isMcpClientError(error) ? ` (${error.code})` : ""}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return { elicited: true };
}
