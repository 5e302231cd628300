// What the dispatcher used to special-case by method name is its method's entry's to say (src/features/feature.ts):
// whether its handler may ask, the header parameters it names, the scopes its registration requires.
import { describe, expect, it } from "vitest";
import { McpServer } from "../../src/index.js";
import type { InboundRequest } from "../../src/dispatch.js";
import { partsOf } from "../../src/server.js";
import { meta } from "../helpers.js";

describe("a method's entry", () => {
  it("the server's features own what the dispatcher used to special-case: scopes, asks, header params", () => {
    const server = new McpServer({ name: "own", version: "1" });
    server.registerTool(
      "deploy",
      {
        requiredScopes: ["deploy"],
        inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
      },
      () => "ok",
    );
    server.registerPrompt("brief", { requiredScopes: ["read"], arguments: [{ name: "topic" }], complete: { topic: () => [] } }, () => "b");
    const parts = partsOf(server);
    const read = (method: string, params: Record<string, unknown>) =>
      parts.dispatcher.inspect({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta() } }) as InboundRequest;
    const call = read("tools/call", { name: "deploy", arguments: { region: "eu" } });
    expect(call.headerParams?.map((p) => p.header)).toEqual(["Region"]);
    expect(call.entry?.asks).toBe(true);
    expect(parts.requiredScopes(call)).toEqual(["deploy"]);
    expect(parts.requiredScopes(read("prompts/get", { name: "brief" }))).toEqual(["read"]);
    expect(parts.requiredScopes(read("completion/complete", { ref: { type: "ref/prompt", name: "brief" } }))).toEqual(["read"]);
    expect(parts.requiredScopes(read("tools/list", {}))).toBeUndefined();
    expect(read("tools/list", {}).entry?.asks).toBeUndefined();
  });
});
