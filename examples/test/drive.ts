// What every framework test does to a mounted example server, in both eras:
// discover (or initialize), list the tools, call them (one with arguments the
// inputSchema refuses) and answer book_table's two questions (elicitation);
// once with @x/client, once with the official @modelcontextprotocol/client 2.4.0.
import {
  Client as OfficialClient,
  type ElicitRequest,
  type ElicitResult,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { Client, StreamableHttpTransport } from "@x/client";
import { expect } from "vitest";
import { runDemo, terminalWaitFor } from "../src/client-demo.js";
import { scripted } from "./scripted.js";

/** @x/client in the 2026-07-28 era: the demo run (discover, list, calls, the elicitation round, a task) and an argument check. */
export async function driveModern(url: string): Promise<void> {
  const io = scripted(["6", "3"]);
  const client = new Client({ name: "framework-test", version: "1" }, { waitFor: terminalWaitFor(io), tasks: true });
  try {
    await client.connect(new StreamableHttpTransport(url));
    const outcome = await runDemo(client, io, { restaurant: "Noma" });
    expect(outcome).toEqual({ elicited: true });
    const text = io.output.join("\n");
    expect(text).toContain("Connected to x-example 0.1.0 (protocol 2026-07-28)");
    expect(text).toContain("echo ");
    expect(text).toContain('add(2, 40) → structuredContent {"sum":42}');
    expect(text).toContain("? The server asks: How many people for Noma?");
    expect(text).toContain("book_table → Booked Noma for 6 at 21:00.");
    expect(text).toMatch(/make_report → Report of 3 pages ready \(task [0-9a-f-]{36}\)\./);
    // Arguments that do not match the tool's inputSchema are refused before its handler runs.
    const wrong = await client.callTool("add", { a: "two", b: 40 });
    expect(wrong.isError).toBe(true);
    expect(JSON.stringify(wrong.content)).toContain("Invalid arguments for tool add");
  } finally {
    await client.close();
  }
}

/** @x/client in the initialize era: a session, and elicitation/create sent on it. */
export async function driveInitialize(url: string): Promise<void> {
  const io = scripted(["4", "1"]);
  const client = new Client({ name: "framework-test", version: "1" }, { waitFor: terminalWaitFor(io), protocol: "2025-11-25" });
  try {
    await client.connect(new StreamableHttpTransport(url));
    const outcome = await runDemo(client, io, { restaurant: "Noma" });
    expect(outcome).toEqual({ elicited: true });
    const text = io.output.join("\n");
    expect(text).toContain("Connected to x-example 0.1.0 (protocol 2025-11-25)");
    expect(text).toContain('add(2, 40) → structuredContent {"sum":42}');
    expect(text).toContain("book_table → Booked Noma for 4 at 18:00.");
    const wrong = await client.callTool("add", { a: "two", b: 40 });
    expect(wrong.isError).toBe(true);
    expect(JSON.stringify(wrong.content)).toContain("Invalid arguments for tool add");
  } finally {
    await client.close();
  }
}

const EXAMPLE_TOOLS = ["echo", "add", "word_stats", "divide", "book_table", "make_report"];

/** The answers of a person booking a table: 5 people at 19:30. */
function booking(request: ElicitRequest): ElicitResult {
  const message = request.params.message;
  if (message.startsWith("How many people")) return { action: "accept", content: { people: 5 } };
  if (message === "What time?") return { action: "accept", content: { time: "19:30" } };
  return { action: "decline" };
}

const textOf = (result: { content?: unknown }) =>
  ((result.content as { type: string; text?: string }[] | undefined) ?? []).map((c) => c.text ?? "").join("");

/**
 * The official client against the example server: `era` "2026-07-28" pins
 * that version (server/discover, Multi Round-Trip elicitation), "initialize"
 * leaves the client's defaults (initialize, a session, elicitation/create
 * sent to it on the session).
 */
export async function driveOfficial(url: string, era: "2026-07-28" | "initialize"): Promise<void> {
  const asked: string[] = [];
  const client = new OfficialClient(
    { name: "official-sdk-client", version: "2.4.0" },
    era === "2026-07-28"
      ? { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } }
      : { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler("elicitation/create", async (request) => {
    asked.push(request.params.message);
    return booking(request);
  });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(client.getNegotiatedProtocolVersion()).toBe(era === "2026-07-28" ? "2026-07-28" : "2025-11-25");
    expect(client.getServerVersion()).toMatchObject({ name: "x-example", version: "0.1.0" });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {} });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(EXAMPLE_TOOLS));
    const sum = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
    expect(sum.structuredContent).toEqual({ sum: 42 });
    const echoed = await client.callTool({ name: "echo", arguments: { text: "héllo" } });
    expect(textOf(echoed)).toBe("héllo");
    const wrong = await client.callTool({ name: "add", arguments: { a: "two", b: 40 } });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toContain("Invalid arguments for tool add");
    const booked = await client.callTool({ name: "book_table", arguments: { restaurant: "Noma" } });
    expect(textOf(booked)).toBe("Booked Noma for 5 at 19:30.");
    expect(asked).toEqual(["How many people for Noma?", "What time?"]);
    // Without the tasks extension declared, the task-optional tool runs as a plain call.
    const report = await client.callTool({ name: "make_report", arguments: { pages: 1 } });
    expect(textOf(report)).toBe("Report of 1 pages ready.");
  } finally {
    await client.close();
  }
}
