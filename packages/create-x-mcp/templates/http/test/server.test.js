// Starts server.js as `npm start` does, on a free port, and calls its tool over HTTP.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { after, test } from "node:test";
import { Client, StreamableHttpTransport } from "@x/client";

const child = spawn(process.execPath, ["server.js"], {
  cwd: new URL("..", import.meta.url),
  env: { ...process.env, PORT: "0" },
  stdio: ["ignore", "pipe", "inherit"],
});
const exited = once(child, "exit");
after(async () => {
  if (child.exitCode === null) child.kill("SIGTERM");
  await exited;
});

/** The first line the server prints: its URL (or null if it exits first). */
async function firstLine() {
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) return line;
  return null;
}

test("the add tool answers over Streamable HTTP", async () => {
  const url = await firstLine();
  assert.match(url ?? "", /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const client = new Client({ name: "test", version: "0.1.0" });
  await client.connect(new StreamableHttpTransport(url));
  try {
    const tools = await client.listAllTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ["add"],
    );
    const result = await client.callTool("add", { a: 2, b: 3 });
    assert.deepEqual(result.structuredContent, { sum: 5 });
    const refused = await client.callTool("add", { a: "two" });
    assert.equal(refused.isError, true);
  } finally {
    await client.close();
  }
});
