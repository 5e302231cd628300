// What every feature shares (src/features/feature.ts): required client capabilities (-32021) and the explicit
// input_required form, for tools, prompts and resources alike.
import { validate } from "@x/mcp-v2607";
import { describe, expect, it } from "vitest";
import { listen, McpServer } from "../../src/index.js";
import { capabilities, rpc, send } from "../helpers.js";

describe("requiredClientCapabilities", () => {
  it("answers a call without the declared capabilities with -32021 and HTTP 400, before the handler runs", async () => {
    let ran = 0;
    const s = new McpServer({ name: "r", version: "1" });
    s.registerTool("needs", { requiredClientCapabilities: { sampling: {}, elicitation: { form: {} } } }, () => {
      ran++;
      return "ran";
    });
    const r = await listen(s, { port: 0 });
    try {
      const refused = await rpc(r.url, "tools/call", { name: "needs" });
      expect(refused.status).toBe(400);
      expect(refused.json.error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { sampling: {}, elicitation: { form: {} } } },
      });
      expect(validate("MissingRequiredClientCapabilityError", refused.json).ok).toBe(true);
      const partial = await rpc(
        r.url,
        "tools/call",
        { name: "needs" },
        { meta: { "io.modelcontextprotocol/clientCapabilities": { sampling: {}, elicitation: { url: {} } } } },
      );
      expect(partial.status).toBe(400);
      expect(ran).toBe(0);
      const ok = await rpc(
        r.url,
        "tools/call",
        { name: "needs" },
        { meta: { "io.modelcontextprotocol/clientCapabilities": { sampling: {}, elicitation: { form: {} } } } },
      );
      expect(ok.json.result.content[0].text).toBe("ran");
      expect(ran).toBe(1);
    } finally {
      await r.close();
    }
  });

  it("guards prompts, static resources and templates the same way, naming only the missing capabilities in the message", async () => {
    const ran: string[] = [];
    const s = new McpServer({ name: "r", version: "1" });
    const required = { roots: {}, sampling: {} };
    s.registerPrompt("p", { requiredClientCapabilities: required }, () => {
      ran.push("prompt");
      return "p";
    });
    s.registerResource("r", "file:///r", { requiredClientCapabilities: required }, () => {
      ran.push("resource");
      return "r";
    });
    s.registerResourceTemplate("t", "t://{x}", { requiredClientCapabilities: required }, () => {
      ran.push("template");
      return "t";
    });
    const requests: [string, Record<string, unknown>][] = [
      ["prompts/get", { name: "p" }],
      ["resources/read", { uri: "file:///r" }],
      ["resources/read", { uri: "t://1" }],
    ];
    for (const [method, params] of requests) {
      const refused = await send(s, method, params, { meta: capabilities({ roots: {} }) });
      expect(refused.error, method).toEqual({
        code: -32021,
        message: "This request requires client capabilities: sampling",
        data: { requiredCapabilities: required },
      });
    }
    expect(ran).toEqual([]);
    for (const [method, params] of requests) {
      expect((await send(s, method, params, { meta: capabilities({ roots: {}, sampling: {} }) })).result.resultType, method).toBe(
        "complete",
      );
    }
    expect(ran).toEqual(["prompt", "resource", "template"]);
  });
});

describe("the explicit input_required form", () => {
  it("a prompt or resource handler that builds its own input_required result has it sent as it is, without cache hints", async () => {
    const asking = {
      resultType: "input_required",
      inputRequests: { confirm: { method: "roots/list", params: {} } },
    } as const;
    const s = new McpServer({ name: "e", version: "1" }, { cache: { ttlMs: 1000 } });
    s.registerPrompt("p", {}, () => asking as never);
    s.registerResource("r", "file:///r", {}, () => asking as never);
    for (const [method, params] of [
      ["prompts/get", { name: "p" }],
      ["resources/read", { uri: "file:///r" }],
    ] as const) {
      const result = (await send(s, method, params)).result;
      expect(result, method).toMatchObject(asking);
      expect("ttlMs" in result || "messages" in result || "contents" in result, method).toBe(false);
      expect(validate("InputRequiredResult", result).ok, method).toBe(true);
    }
  });
});
