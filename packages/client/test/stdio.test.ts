import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client, ClientErrorCode, StdioTransport, type StdioOptions } from "../src/index.js";

// A small newline-delimited JSON-RPC server, behaving by method and tool name.
const SERVER = String.raw`
const stubborn = process.argv.includes("--stubborn");
let buffer = "";
const send = (m, eol = "\n") => process.stdout.write(JSON.stringify(m) + eol);
const ok = (id, result) => send({ jsonrpc: "2.0", id, result: { resultType: "complete", ...result } });
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let i;
  while ((i = buffer.indexOf("\n")) !== -1) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    handle(JSON.parse(line));
  }
});
process.stdin.on("end", () => { if (!stubborn) process.exit(0); });
if (stubborn) {
  process.on("SIGTERM", () => process.stderr.write("ignoring SIGTERM\n"));
  setInterval(() => {}, 1000);
}
process.stderr.write("ready\n");
function handle(m) {
  if (m.method === "notifications/cancelled") { process.stderr.write("cancelled " + m.params.requestId + "\n"); return; }
  const p = m.params || {};
  if (m.method === "tools/list") return ok(m.id, { tools: [{ name: "echo", inputSchema: { type: "object", properties: { v: { type: "string", "x-mcp-header": "Bad Name" } } } }], ttlMs: 0, cacheScope: "public" });
  if (m.method === "subscriptions/listen") {
    send({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { _meta: { "io.modelcontextprotocol/subscriptionId": m.id }, notifications: p.notifications } });
    send({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { "io.modelcontextprotocol/subscriptionId": "someone-else" } } });
    send({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { "io.modelcontextprotocol/subscriptionId": m.id } } });
    return;
  }
  if (m.method !== "tools/call") return send({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
  const text = (p.arguments && p.arguments.text) || "";
  switch (p.name) {
    case "echo": return ok(m.id, { content: [{ type: "text", text }] });
    case "notify":
      send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "on the way" } });
      process.stderr.write("log line on stderr\n");
      return ok(m.id, { content: [{ type: "text", text: "notified" }] });
    case "crlf": return send({ jsonrpc: "2.0", id: m.id, result: { resultType: "complete", content: [{ type: "text", text: "crlf" }] } }, "\r\n");
    case "split": {
      const bytes = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { resultType: "complete", content: [{ type: "text", text: "日本語" }] } }) + "\n");
      const cut = bytes.indexOf(Buffer.from("本")) + 1;
      process.stdout.write(bytes.subarray(0, cut));
      setTimeout(() => process.stdout.write(bytes.subarray(cut)), 20);
      return;
    }
    case "junk": process.stdout.write("this is not json\n"); return ok(m.id, { content: [] });
    case "stray":
      send({ jsonrpc: "2.0", id: "never-sent", result: { resultType: "complete", content: [{ type: "text", text: "stray" }] } });
      send({ jsonrpc: "2.0", id: 424242, error: { code: -32603, message: "stray error" } });
      return ok(m.id, { content: [{ type: "text", text: "mine" }] });
    case "die": process.stderr.write("fatal: the database is gone\n"); setTimeout(() => process.exit(3), 10); return;
    case "huge": process.stdout.write("x".repeat(3000) + "\n"); return;
    case "slow": return;
  }
}
`;

let dir: string;
let script: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "x-client-stdio-"));
  script = join(dir, "server.cjs");
  writeFileSync(script, SERVER);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const open: Client[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!.close();
});

async function start(extra: Partial<StdioOptions> = {}, args: string[] = []) {
  const stderr: string[] = [];
  const transport = new StdioTransport({ command: process.execPath, args: [script, ...args], stderr: (t) => stderr.push(t), ...extra });
  const client = new Client({ name: "stdio-test", version: "1.0.0" }, { protocol: "2026-07-28", lookupTools: false });
  await client.connect(transport);
  open.push(client);
  return { client, transport, stderr };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("stdio transport", () => {
  it("exchanges newline-delimited messages, passes notifications on and stderr through", async () => {
    const { client, stderr } = await start();
    expect((await client.callTool("echo", { text: "ünïcødé" })).content).toEqual([{ type: "text", text: "ünïcødé" }]);
    const seen: string[] = [];
    expect((await client.callTool("notify", {}, { onNotification: (n) => seen.push(n.method) })).content).toEqual([
      { type: "text", text: "notified" },
    ]);
    expect(seen).toEqual(["notifications/message"]);
    await expect.poll(() => stderr.join("")).toContain("log line on stderr");
  });

  it("reads CRLF line ends and a message split inside a character", async () => {
    const { client } = await start();
    expect((await client.callTool("crlf")).content).toEqual([{ type: "text", text: "crlf" }]);
    expect((await client.callTool("split")).content).toEqual([{ type: "text", text: "日本語" }]);
  });

  it("skips a stdout line that is not JSON-RPC and reports it", async () => {
    const invalid: string[] = [];
    const { client } = await start({ onInvalidLine: (d) => invalid.push(d) });
    expect((await client.callTool("junk")).content).toEqual([]);
    expect(invalid).toEqual([expect.stringMatching(/not JSON: this is not json/)]);
  });

  it("ignores a response to no request in flight, and reports it", async () => {
    const invalid: string[] = [];
    const { client } = await start({ onInvalidLine: (d) => invalid.push(d) });
    expect((await client.callTool("stray")).content).toEqual([{ type: "text", text: "mine" }]);
    expect(invalid).toEqual([
      expect.stringMatching(/^a response to no request in flight \(id "never-sent"\)/),
      expect.stringMatching(/^a response to no request in flight \(id 424242\)/),
    ]);
  });

  it("keeps x-mcp-header annotations out of the way: no headers on stdio", async () => {
    const { client } = await start();
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
  });

  it("fails the waiting request with process_exited, the exit code and the last stderr, when the process dies", async () => {
    const { client } = await start();
    const error = await client.callTool("die").catch((e) => e);
    expect(error).toMatchObject({ code: ClientErrorCode.TransportFailed, data: { reason: "process_exited", exitCode: 3 } });
    expect(error.message).toMatch(/exited with code 3 before answering.*fatal: the database is gone/s);
    await expect(client.callTool("echo")).rejects.toMatchObject({ data: { reason: "process_exited" } });
  });

  it("fails the waiting requests with message_too_large on an over-long line, and keeps working", async () => {
    const { client } = await start({ maxMessageBytes: 1000 });
    await expect(client.callTool("huge")).rejects.toMatchObject({ data: { reason: "message_too_large", limit: 1000 } });
    expect((await client.callTool("echo", { text: "still here" })).content).toEqual([{ type: "text", text: "still here" }]);
    await expect(client.callTool("echo", { text: "y".repeat(2000) })).rejects.toMatchObject({ data: { reason: "message_too_large" } });
  });

  it("sends notifications/cancelled with the request id on abort", async () => {
    const { client, stderr } = await start();
    const controller = new AbortController();
    const call = client.callTool("slow", {}, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 30));
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: ClientErrorCode.RequestCancelled });
    await expect.poll(() => stderr.join("")).toMatch(/cancelled \d+/);
  });

  it("delivers a subscription's notifications by subscription id", async () => {
    const { client } = await start();
    const subscription = client.listen({ toolsListChanged: true });
    expect(await subscription.acknowledged).toEqual({ toolsListChanged: true });
    const iterator = subscription[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).toMatchObject({ method: "notifications/tools/list_changed" });
    expect(first.value.params._meta["io.modelcontextprotocol/subscriptionId"]).not.toBe("someone-else");
    await subscription.close();
    expect(await subscription.ended).toEqual({ graceful: false });
  });

  it("ends the process on close: stdin closed, then SIGTERM, then SIGKILL for one that will not go", async () => {
    const { client, transport } = await start();
    const pid = transport.pid!;
    expect(alive(pid)).toBe(true);
    await client.close();
    expect(alive(pid)).toBe(false);

    const stubborn = await start({ closeTimeout: 500 }, ["--stubborn"]);
    // Wait until the child has set up its SIGTERM handler.
    await expect.poll(() => stubborn.stderr.join(""), { timeout: 10_000 }).toContain("ready");
    const waiting = stubborn.client.callTool("slow").catch((e) => e);
    await new Promise((r) => setTimeout(r, 30));
    const stubbornPid = stubborn.transport.pid!;
    await stubborn.client.close();
    expect(alive(stubbornPid)).toBe(false);
    expect(await waiting).toMatchObject({ data: { reason: "closed" } });
    await expect.poll(() => stubborn.stderr.join("")).toContain("ignoring SIGTERM");
  });

  it("reports a command that cannot start as process_exited", async () => {
    const client = new Client({ name: "t", version: "1" }, { protocol: "2026-07-28" });
    await client.connect(new StdioTransport({ command: join(dir, "no-such-program"), stderr: "ignore" }));
    await expect(client.request("tools/list")).rejects.toMatchObject({
      data: { reason: "process_exited" },
      message: expect.stringMatching(/could not run/),
    });
  });

  it("refuses an empty command", () => {
    expect(() => new StdioTransport({ command: "" })).toThrow(TypeError);
  });
});
