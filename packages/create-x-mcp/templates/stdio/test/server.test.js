// Starts server.js as a client would, over stdin and stdout, and calls its tool.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { Client, StdioTransport } from "@x/client";

test("the add tool answers over stdio", async () => {
  const client = new Client({ name: "test", version: "0.1.0" });
  await client.connect(
    new StdioTransport({ command: process.execPath, args: [fileURLToPath(new URL("../server.js", import.meta.url))], stderr: "inherit" }),
  );
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
    // Ends the server process too.
    await client.close();
  }
});
