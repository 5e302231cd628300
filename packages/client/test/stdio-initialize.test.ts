// The initialize era over stdio, on one spawned process: @x/client in auto
// mode against the official SDK's stdio server (2.4.0) wired by hand (the
// earlier era only) and through serveStdio (both eras), and against a
// server that stays silent until `initialize` (the probe times out).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client, type ClientOptions, type JSONRPCNotification, StdioTransport } from "../src/index.js";

const official = fileURLToPath(new URL("./fixtures/official-stdio-server.mjs", import.meta.url));

// Answers nothing before initialize (some servers of the earlier era do so), then tools/call.
const SILENT = String.raw`
process.stderr.write("started " + process.pid + "\n");
let buffer = "";
let initialized = false;
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let i;
  while ((i = buffer.indexOf("\n")) !== -1) {
    const m = JSON.parse(buffer.slice(0, i));
    buffer = buffer.slice(i + 1);
    if (m.method === "initialize") {
      initialized = true;
      send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "silent", version: "1" } } });
    } else if (!initialized || m.id === undefined) {
      continue;
    } else if (m.method === "tools/call") {
      send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "called " + m.params.name }] } });
    }
  }
});
process.stdin.on("end", () => process.exit(0));
`;

let dir: string;
let silent: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "x-client-stdio-era-"));
  silent = join(dir, "silent.cjs");
  writeFileSync(silent, SILENT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const open: Client[] = [];
afterEach(async () => {
  while (open.length > 0) await open.pop()!.close();
});

async function start(args: string[], options: ClientOptions = {}) {
  const stderr: string[] = [];
  const transport = new StdioTransport({ command: process.execPath, args, stderr: (t) => stderr.push(t) });
  const client = new Client({ name: "x-stdio", version: "1.0.0" }, { onWarning: () => {}, ...options });
  open.push(client);
  await client.connect(transport);
  return { client, transport, stderr };
}

const starts = (stderr: string[]) => stderr.join("").match(/started \d+/g) ?? [];

describe("stdio: the earlier era on one process", () => {
  it("auto: the official hand-wired server refuses the probe, the client initializes on the same process", async () => {
    const notifications: JSONRPCNotification[] = [];
    const { client, transport, stderr } = await start([official, "legacy"], {
      onNotification: (n) => notifications.push(n),
      handlers: { elicitation: () => ({ action: "accept", content: { name: "octocat" } }) },
    });
    expect(client.era).toBe("legacy");
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo).toMatchObject({ name: "official-stdio-server" });
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(["add", "count", "ask"]);
    expect(await client.callTool("add", { a: 2, b: 40 })).toMatchObject({ content: [{ type: "text", text: "42" }] });
    const progress: number[] = [];
    await client.callTool("count", { n: 2 }, { onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2]);
    expect(notifications.filter((n) => n.method === "notifications/progress")).toHaveLength(2);
    // elicitation/create arrives on stdout and is answered on stdin by the handler.
    expect(await client.callTool("ask", {})).toMatchObject({ content: [{ text: "hello octocat" }] });
    expect(starts(stderr)).toEqual([`started ${transport.pid}`]);
  });

  it("auto: serveStdio answers the probe, and the client stays modern", async () => {
    const { client } = await start([official, "dual"]);
    expect(client.era).toBe("modern");
    expect(await client.callTool("add", { a: 1, b: 2 })).toMatchObject({ content: [{ text: "3" }] });
  });

  it("pinned to 2025-11-25: serveStdio serves the session, elicitation included", async () => {
    const { client } = await start([official, "dual"], {
      protocol: "2025-11-25",
      handlers: { elicitation: () => ({ action: "decline" }) },
    });
    expect(client.era).toBe("legacy");
    expect(await client.callTool("ask", {})).toMatchObject({ content: [{ text: "decline" }] });
  });

  it("auto: a server silent before initialize is taken as the earlier era after probeTimeout, without a second spawn", async () => {
    const { client, transport, stderr } = await start([silent], { probeTimeout: 200, lookupTools: false });
    expect(client.era).toBe("legacy");
    expect(client.protocolVersion).toBe("2025-06-18");
    expect(await client.callTool("x", {})).toMatchObject({ content: [{ text: "called x" }] });
    expect(starts(stderr)).toEqual([`started ${transport.pid}`]);
  });
});
