import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { Client, ClientErrorCode, StreamableHttpTransport } from "../src/index.js";
import { httpServer, listResult, tool } from "./helpers.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Writes JSON text as it is: `1e400` survives (JSON.stringify would have no way to write it). */
function sendText(res: ServerResponse, text: string) {
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** A client of a server whose tool `t` declares `outputSchema` and answers `structuredContent` written as `structured` (JSON text). */
async function serverAnswering(outputSchema: unknown, structured: string) {
  const server = await httpServer((_req, res, text) => {
    const body = JSON.parse(text);
    if (body.method === "tools/list") {
      sendText(res, JSON.stringify({ jsonrpc: "2.0", id: body.id, result: listResult("tools", [tool("t", { outputSchema })]) }));
    } else {
      sendText(
        res,
        `{"jsonrpc":"2.0","id":${JSON.stringify(body.id)},"result":{"resultType":"complete","content":[],"structuredContent":${structured}}}`,
      );
    }
  });
  const client = new Client({ name: "non-finite", version: "1.0.0" }, { protocol: "2026-07-28", onWarning: () => {} });
  await client.connect(new StreamableHttpTransport(server.url));
  cleanups.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

describe("a non-finite number in structuredContent", () => {
  it("is refused with -32092 naming its path, although the schema's number check alone would pass it", async () => {
    const client = await serverAnswering({ type: "object", properties: { sum: { type: "number" } }, required: ["sum"] }, '{"sum":1e400}');
    const error = await client.callTool("t").catch((e) => e);
    expect(error).toMatchObject({
      code: ClientErrorCode.OutputSchemaMismatch,
      data: { tool: "t", problems: [{ path: "/sum", message: "is not a finite number (JSON has no Infinity, -Infinity or NaN)" }] },
    });
    expect(error.message).toMatch(/\/sum: is not a finite number/);
  });

  it("is found anywhere, also where the schema says nothing", async () => {
    const client = await serverAnswering({ type: "object" }, '{"deep":{"list":[1,-1e999]}}');
    await expect(client.callTool("t")).rejects.toMatchObject({
      code: ClientErrorCode.OutputSchemaMismatch,
      data: { problems: [{ path: "/deep/list/1" }] },
    });
  });

  it("passes a large finite number", async () => {
    const client = await serverAnswering({ type: "object", properties: { sum: { type: "number" } } }, '{"sum":1.7976931348623157e308}');
    expect((await client.callTool("t")).structuredContent).toEqual({ sum: Number.MAX_VALUE });
  });
});
