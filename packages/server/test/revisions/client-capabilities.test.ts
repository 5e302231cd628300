// A client's capabilities mean what its own version defines (the version
// table's `clientCapabilities`): before 2025-11-25, `elicitation` has no
// modes, its presence means form elicitation (that version's only one) and
// never URL elicitation, whatever members a client puts inside it.
import { afterEach, describe, expect, it } from "vitest";
import { McpServer } from "../../src/index.js";
import { type Message, stdioConnect } from "../legacy/helpers.js";

function server(): McpServer {
  const mcp = new McpServer({ name: "capabilities", version: "1.0.0" });
  mcp.registerTool("ask", { description: "asks for a name" }, async (_args, ctx) =>
    JSON.stringify(await ctx.elicit("Your name?", { type: "object", properties: { name: { type: "string" } } })),
  );
  mcp.registerTool("askUrl", { description: "sends the user to a page" }, async (_args, ctx) =>
    JSON.stringify(await ctx.elicitUrl("Sign in", "https://example.com/login")),
  );
  mcp.registerTool("caps", { description: "the capabilities as the server reads them" }, (_args, ctx) =>
    JSON.stringify(ctx.clientCapabilities),
  );
  return mcp;
}

const closes: (() => void)[] = [];
afterEach(() => {
  for (const close of closes.splice(0)) close();
});

async function connected(version: string, capabilities: Message) {
  const mcp = server();
  closes.push(() => mcp.close());
  const c = stdioConnect(mcp);
  const rid = c.request("initialize", { protocolVersion: version, capabilities, clientInfo: { name: "c", version: "1" } });
  expect((await c.answer(rid)).response.result.protocolVersion).toBe(version);
  c.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return c;
}

/** Calls `tool`, answering an elicitation it sends with `content`; the tool's text and the elicitations seen. */
async function call(c: Awaited<ReturnType<typeof connected>>, tool: string) {
  const rid = c.request("tools/call", { name: tool, arguments: {} });
  const asked: Message[] = [];
  for (let i = 0; i < 10; i++) {
    const line = await c.next();
    if (line.method === "elicitation/create") {
      asked.push(line);
      c.send({ jsonrpc: "2.0", id: line.id, result: { action: "accept", content: { name: "Ada" } } });
    } else if (line.id === rid) return { result: JSON.parse(line.result.content[0].text), asked };
  }
  throw new Error("no answer");
}

describe("a 2025-06-18 client's elicitation capability", () => {
  it.each([{}, { url: {} }, { form: {}, url: {} }])("%j means form elicitation, and never URL", async (elicitation) => {
    const c = await connected("2025-06-18", { elicitation });
    const form = await call(c, "ask");
    expect(form.asked).toHaveLength(1);
    expect(form.asked[0]!.params).not.toHaveProperty("mode");
    expect(form.result).toEqual({ action: "accept", content: { name: "Ada" } });
    const url = await call(c, "askUrl");
    expect(url.asked).toHaveLength(0);
    expect(url.result).toEqual({ action: "not_supported", capability: "elicitation.url" });
    expect((await call(c, "caps")).result).toEqual({ elicitation: {} });
    await c.end();
  });

  it("is read as 2025-11-25 defines it on a 2025-11-25 session: url alone is no form", async () => {
    const c = await connected("2025-11-25", { elicitation: { url: {} } });
    expect((await call(c, "ask")).result).toEqual({ action: "not_supported", capability: "elicitation.form" });
    expect((await call(c, "caps")).result).toEqual({ elicitation: { url: {} } });
    await c.end();
  });

  it("is nothing on a 2025-03-26 session, which has no elicitation", async () => {
    const c = await connected("2025-03-26", { elicitation: { form: {} }, roots: { listChanged: true } });
    expect((await call(c, "ask")).result).toEqual({ action: "not_supported", capability: "elicitation.form" });
    expect((await call(c, "caps")).result).toEqual({ roots: { listChanged: true } });
    await c.end();
  });
});
