// The revision seam (src/revisions/revision.ts): a revision is a codec handed to the dispatcher, and the
// dispatcher, the context and the features ask it and name none. A third, made-up revision plugs in here
// with no change to them: it claims its own opening, reads its bound requests, serves its own method and
// the shared table's, routes a handler's asks, stamps results and maps faults; 2026-07-28 is untouched.
import type { RequestEnvelope } from "@x/mcp-v2607/wire";
import { describe, expect, it } from "vitest";
import { McpError, McpServer, type RequestContext } from "../../src/index.js";
import type { MethodEntry } from "../../src/features/feature.js";
import { Dispatcher, type InboundRequest, refusal } from "../../src/dispatch.js";
import { KeyRing } from "../../src/keys.js";
import { revision2607 } from "../../src/revisions/2026-07-28/index.js";
import type { Binding, Revision } from "../../src/revisions/revision.js";
import { RequestRoute } from "../../src/route.js";
import { partsOf } from "../../src/server.js";
import { meta } from "../helpers.js";

/** What the made-up revision's binding holds: the questions its client was asked, answered from a list. */
interface ToyBinding extends Binding {
  asked: string[];
  answers: unknown[];
}

const toy: Revision = {
  name: "toy",
  versions: ["toy-1"],
  perRequest: false,
  opens: (method) => method === "toy/open",
  request(id, method, params, binding, table) {
    if (binding === undefined) return refusal(id, -32600, "toy: open a binding first");
    const envelope: RequestEnvelope = {
      meta: {} as RequestEnvelope["meta"],
      protocolVersion: "toy-1",
      clientCapabilities: { elicitation: {} },
      clientInfo: undefined,
    };
    return { kind: "request", id, method, params, envelope, headerParams: undefined, revision: toy, binding, entry: table.get(method) };
  },
  methods(shared, contributed) {
    const table = new Map([...shared, ...contributed]);
    table.delete("server/discover");
    table.set("toy/ping", { enabled: () => true, handle: () => ({ pong: true }) });
    return table;
  },
  run(entry, params, ctx, transport, scope) {
    if (entry.asks === true) {
      const binding = scope.binding as ToyBinding;
      scope.route = new RequestRoute((method, askParams) => {
        binding.asked.push(`${method} ${String(askParams.message)}`);
        return Promise.resolve(binding.answers.shift());
      }, false);
    }
    return entry.handle(params, ctx, transport, scope);
  },
  logLevel: () => undefined,
  stamp: (result) => ({ ...result, toy: true }),
  fault: (error) => (error instanceof RangeError ? new McpError(-32042, `toy: ${error.message}`) : error),
};

function dispatcher(shared: ReadonlyMap<string, MethodEntry>): Dispatcher {
  const settings = {
    info: { name: "seam", version: "1" },
    keys: new KeyRing([new Uint8Array(32).fill(7)]),
    principal: undefined,
    ttlMs: 60_000,
    loggingEnabled: false,
    validator: undefined,
    tools: () => [],
    onError: () => {},
  };
  return new Dispatcher(shared, settings, [revision2607, toy]);
}

const greet: MethodEntry = {
  enabled: () => true,
  asks: true,
  handle: async (_params, ctx: RequestContext) => {
    const answer = await ctx.elicit("Your name?", { type: "object", properties: { name: { type: "string" } } });
    return { content: [{ type: "text", text: answer.action === "accept" ? `Hello ${String(answer.content?.name)}` : answer.action }] };
  },
};
const boom: MethodEntry = {
  enabled: () => true,
  handle: () => {
    throw new RangeError("too far");
  },
};

describe("a revision is a codec the dispatcher asks", () => {
  it("claims its opening, reads its bound requests, runs its own and the shared methods, routes asks, stamps and maps faults", async () => {
    const d = dispatcher(
      new Map([
        ["x/greet", greet],
        ["x/boom", boom],
      ]),
    );
    expect(d.versions).toEqual(["2026-07-28"]);
    const binding: ToyBinding = { revision: toy, id: "b1", asked: [], answers: [{ action: "accept", content: { name: "Ada" } }] };

    // Unbound: the opening goes to the revision that claims it, anything else to the per-request one.
    expect(d.inspect({ jsonrpc: "2.0", id: 1, method: "toy/open", params: {} })).toMatchObject({ kind: "error" });
    expect(d.inspect({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta() } })).toMatchObject({
      kind: "request",
      revision: revision2607,
    });

    const ping = d.inspect({ jsonrpc: "2.0", id: 3, method: "toy/ping", params: {} }, binding) as InboundRequest;
    expect(ping.revision).toBe(toy);
    expect((await d.answer(ping, {})).response).toEqual({ jsonrpc: "2.0", id: 3, result: { pong: true, toy: true } });

    const asked = d.inspect({ jsonrpc: "2.0", id: 4, method: "x/greet", params: {} }, binding) as InboundRequest;
    expect((await d.answer(asked, {})).response).toEqual({
      jsonrpc: "2.0",
      id: 4,
      result: { content: [{ type: "text", text: "Hello Ada" }], toy: true },
    });
    expect(binding.asked).toEqual(["elicitation/create Your name?"]);

    const failed = d.inspect({ jsonrpc: "2.0", id: 5, method: "x/boom", params: {} }, binding) as InboundRequest;
    expect((await d.answer(failed, {})).response).toMatchObject({ error: { code: -32042, message: "toy: too far" } });

    // What it leaves out of the shared table is unknown on its bindings.
    const gone = d.inspect({ jsonrpc: "2.0", id: 6, method: "server/discover", params: {} }, binding) as InboundRequest;
    expect((await d.answer(gone, {})).response).toMatchObject({ error: { code: -32601 } });
  });

  it("a run's route is finished when its run is over: an ask from a detached promise is refused", async () => {
    let later: Promise<unknown> | undefined;
    const detached: MethodEntry = {
      enabled: () => true,
      asks: true,
      handle: (_params, ctx) => {
        later = Promise.resolve().then(() => ctx.elicit("Late?", { type: "object", properties: {} }));
        return {};
      },
    };
    const d = dispatcher(new Map([["x/detached", detached]]));
    const binding: ToyBinding = { revision: toy, id: "b2", asked: [], answers: [] };
    const request = d.inspect({ jsonrpc: "2.0", id: 1, method: "x/detached", params: {} }, binding) as InboundRequest;
    expect((await d.answer(request, {})).response).toMatchObject({ result: { toy: true } });
    await expect(later).rejects.toThrow(/outside the handler's run/);
    expect(binding.asked).toEqual([]);
  });

  it("takes methods a plug-in contributes, answered before the shared table's", async () => {
    const d = dispatcher(new Map([["x/who", { enabled: () => true, handle: () => ({ who: "shared" }) }]]));
    const binding: ToyBinding = { revision: toy, id: "b3", asked: [], answers: [] };
    d.contribute(toy, [["x/who", { enabled: () => true, handle: () => ({ who: "plug-in" }) }]]);
    const request = d.inspect({ jsonrpc: "2.0", id: 1, method: "x/who", params: {} }, binding) as InboundRequest;
    expect((await d.answer(request, {})).response).toMatchObject({ result: { who: "plug-in", toy: true } });
    // A 2026-07-28 request still reaches the shared one.
    const later = d.inspect({ jsonrpc: "2.0", id: 2, method: "x/who", params: { _meta: meta() } }) as InboundRequest;
    expect((await d.answer(later, {})).response).toMatchObject({ result: { who: "shared", resultType: "complete" } });
    expect(() => d.contribute({ ...toy, name: "other" }, [])).toThrow(/does not serve revision other/);
  });

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
