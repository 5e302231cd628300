import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpServer, type RunningHttpServer } from "../src/index.js";
import { rpc } from "./helpers.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * Every other text that decodes to the same bytes as `token`'s tag: the last
 * base64url character with different unused low bits (a tag of `bytes`
 * bytes leaves 6 - (8 * bytes) % 6 bits of it unused).
 */
function lookalikes(token: string): string[] {
  const dot = token.lastIndexOf(".");
  const tag = token.slice(dot + 1);
  const bytes = Buffer.from(tag, "base64url").length;
  const unused = 6 - ((bytes * 8) % 6);
  const last = ALPHABET.indexOf(tag.at(-1)!);
  const out: string[] = [];
  for (let low = 0; low < 1 << unused; low++) {
    const index = (last & ~((1 << unused) - 1)) | low;
    if (index !== last) out.push(`${token.slice(0, -1)}${ALPHABET[index]}`);
  }
  return out;
}

describe("signed tokens are read in their canonical base64url only", () => {
  const server = new McpServer({ name: "tokens", version: "1" }, { pageSize: 1 });
  server.registerTool("a", {}, () => "a");
  server.registerTool("b", {}, () => "b");
  server.registerTool("ask", {}, async (_args, ctx) => JSON.stringify(await ctx.elicit("Name?", { type: "object", properties: {} })));
  let running: RunningHttpServer;
  beforeAll(async () => {
    running = await listen(server, { port: 0 });
  });
  afterAll(() => running.close());

  it("refuses a cursor whose tag differs only in the unused bits of its last character", async () => {
    const cursor: string = (await rpc(running.url, "tools/list")).json.result.nextCursor;
    expect((await rpc(running.url, "tools/list", { cursor })).json.result.tools).toHaveLength(1);
    const others = lookalikes(cursor);
    expect(others.length).toBeGreaterThan(0);
    for (const other of others) {
      expect(Buffer.from(other.split(".")[1]!, "base64url")).toEqual(Buffer.from(cursor.split(".")[1]!, "base64url"));
      expect((await rpc(running.url, "tools/list", { cursor: other })).json.error?.code, other).toBe(-32602);
    }
  });

  it("refuses a requestState whose signature differs only in the unused bits of its last character", async () => {
    const caps = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
    const first = (await rpc(running.url, "tools/call", { name: "ask", arguments: {} }, { meta: caps })).json.result;
    expect(first.resultType).toBe("input_required");
    const inputResponses = { "elicit-1": { action: "accept", content: {} } };
    const others = lookalikes(first.requestState);
    expect(others.length).toBeGreaterThan(0);
    for (const requestState of others) {
      const r = await rpc(running.url, "tools/call", { name: "ask", arguments: {}, inputResponses, requestState }, { meta: caps });
      expect(r.json.error?.code, requestState).toBe(-32602);
    }
    const good = await rpc(
      running.url,
      "tools/call",
      { name: "ask", arguments: {}, inputResponses, requestState: first.requestState },
      { meta: caps },
    );
    expect(good.json.result.resultType).toBe("complete");
  });
});
