// Runs client.js as `npm start` does, against a real @x/server on a free port of 127.0.0.1.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { after, before, test } from "node:test";
import { listen, McpServer } from "@x/server";

const run = promisify(execFile);
const clientFile = fileURLToPath(new URL("../client.js", import.meta.url));
let running;

before(async () => {
  const server = new McpServer({ name: "test-server", version: "0.1.0" });
  server.registerTool(
    "add",
    {
      description: "Adds two numbers",
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
    },
    ({ a, b }) => ({ resultType: "complete", content: [{ type: "text", text: `sum ${a + b}` }] }),
  );
  running = await listen(server, { port: 0 });
});
after(() => running.close());

test("lists the tools and calls one", async () => {
  const { stdout } = await run(process.execPath, [clientFile, running.url, "add", '{"a":2,"b":3}']);
  const lines = stdout.trim().split("\n");
  assert.match(lines[0], /^test-server \(/);
  assert.equal(lines[1], "  add: Adds two numbers");
  assert.equal(lines[2], "sum 5");
});

test("exits 1 when the call fails", async () => {
  await assert.rejects(run(process.execPath, [clientFile, running.url, "missing"]), (error) => error.code === 1);
});
