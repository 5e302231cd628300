import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { meta } from "./helpers.js";

// vitest runs with the package folder as working directory.
const fixture = resolve("test/fixtures/stdio-server.mjs");

/** A real server process speaking newline-delimited JSON-RPC on stdio. */
function start() {
  const child = spawn(process.execPath, [fixture], { stdio: ["pipe", "pipe", "pipe"] }) as ChildProcessWithoutNullStreams;
  const lines: any[] = [];
  let buffer = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    buffer += String(chunk);
    const parts = buffer.split("\n");
    buffer = parts.pop()!;
    for (const line of parts) if (line) lines.push(JSON.parse(line));
  });
  child.stderr.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const until = async (check: () => boolean) => {
    // At least 120 s of checks 10 ms apart (a count, and a hang guard): a child process on a busy machine may take long.
    for (let i = 0; i < 12_000 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(check()).toBe(true);
  };
  return { child, lines, send, until, stderr: () => stderr };
}

let current: ReturnType<typeof start> | undefined;
afterEach(async () => {
  if (current && current.child.exitCode === null) {
    process.kill(current.child.pid!, "SIGTERM");
    await once(current.child, "exit");
  }
  current = undefined;
});

describe("stdio transport, a real child process", () => {
  it("sends progress and log notifications before the response, and nothing but JSON-RPC on stdout", async () => {
    current = start();
    const { send, lines, until } = current;
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "progress", _meta: meta({ progressToken: "p", "io.modelcontextprotocol/logLevel": "info" }) },
    });
    await until(() => lines.some((l) => l.id === 1));
    expect(lines.map((l) => l.method ?? "response")).toEqual([
      "notifications/progress",
      "notifications/message",
      "notifications/progress",
      "response",
    ]);
    for (const l of lines) expect(l.jsonrpc).toBe("2.0");
  });

  it("notifications/cancelled aborts the request and no message for it follows", async () => {
    current = start();
    const { send, lines, until, stderr } = current;
    send({ jsonrpc: "2.0", id: "w", method: "tools/call", params: { name: "wait", _meta: meta() } });
    await new Promise((r) => setTimeout(r, 50));
    send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "w" } });
    await until(() => stderr().includes("wait: aborted"));
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "after" }, _meta: meta() } });
    await until(() => lines.some((l) => l.id === 2));
    expect(lines.filter((l) => l.id === "w")).toEqual([]);
  });

  it("serves subscriptions/listen and ends it with its final result when stdin ends, then exits", async () => {
    current = start();
    const { child, send, lines, until } = current;
    send({ jsonrpc: "2.0", id: "L", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: meta() } });
    await until(() => lines.some((l) => l.method === "notifications/subscriptions/acknowledged"));
    send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "add_tool", _meta: meta() } });
    await until(() => lines.some((l) => l.method === "notifications/tools/list_changed"));
    const changed = lines.find((l) => l.method === "notifications/tools/list_changed");
    expect(changed.params._meta["io.modelcontextprotocol/subscriptionId"]).toBe("L");
    child.stdin.end();
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    const final = lines.find((l) => l.id === "L");
    expect(final.result).toMatchObject({ resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "L" } });
  });

  it("runs a Multi Round-Trip request over stdio", async () => {
    current = start();
    const { send, lines, until } = current;
    const caps = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
    send({ jsonrpc: "2.0", id: 10, method: "tools/call", params: { name: "ask", _meta: meta(caps) } });
    await until(() => lines.some((l) => l.id === 10));
    const first = lines.find((l) => l.id === 10).result;
    expect(first.resultType).toBe("input_required");
    send({
      jsonrpc: "2.0",
      id: 11,
      method: "tools/call",
      params: {
        name: "ask",
        inputResponses: { "elicit-1": { action: "accept", content: { name: "Eve" } } },
        requestState: first.requestState,
        _meta: meta(caps),
      },
    });
    await until(() => lines.some((l) => l.id === 11));
    expect(JSON.parse(lines.find((l) => l.id === 11).result.content[0].text)).toEqual({ action: "accept", content: { name: "Eve" } });
  });

  it("seals the question's requestState with its per-process key without a warning: one process holds the key", async () => {
    current = start();
    const { child, send, lines, until, stderr } = current;
    const caps = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
    send({ jsonrpc: "2.0", id: 12, method: "tools/call", params: { name: "ask", _meta: meta(caps) } });
    await until(() => lines.some((l) => l.id === 12));
    expect(lines.find((l) => l.id === 12).result.resultType).toBe("input_required");
    // All it wrote to stderr, to its exit: 'close' comes once its streams are closed.
    child.stdin.end();
    await once(child, "close");
    expect(stderr()).toContain("stdio fixture: input ended");
    expect(stderr()).not.toMatch(/per-process key|X_MCP_EPHEMERAL_STATE_KEY|Warning/);
  });

  it("answers garbage lines with errors and keeps serving", async () => {
    current = start();
    const { child, send, lines, until } = current;
    child.stdin.write("{oops\n");
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 5, method: "initialize", params: { _meta: meta() } })}\n`);
    send({ jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "echo", arguments: { text: "ok" }, _meta: meta() } });
    await until(() => lines.length >= 3);
    expect(lines[0].error.code).toBe(-32700);
    expect(lines.find((l) => l.id === 5).error.code).toBe(-32601);
    expect(lines.find((l) => l.id === 6).result.content[0].text).toBe("ok");
  });
});
