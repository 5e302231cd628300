// requestState (src/revisions/2026-07-28/state.ts): the answers of earlier rounds, sealed and bound to the request, its principal
// and an expiry; and inputResponses as sent.
import { describe, expect, it } from "vitest";
import { listen, type McpServer } from "../../src/index.js";
import { rpc } from "../helpers.js";
import { caps, ELICIT, mrtrServer, observed, serveMrtr } from "./fixture.js";

const srv = serveMrtr();

describe("inputResponses", () => {
  it("refuses inputResponses that is not an object, or an entry that is not one, with -32602", async () => {
    for (const inputResponses of [null, [], "x", { user_name: 12345 }, { user_name: null }]) {
      const r = await srv.call("one_question", { inputResponses });
      expect(r.error?.code, JSON.stringify(inputResponses)).toBe(-32602);
    }
  });
});

describe("sealed requestState", () => {
  async function firstRound(options: Parameters<typeof rpc>[3] = caps(ELICIT), extra: Record<string, unknown> = {}) {
    const r = await srv.call("echo_args", { arguments: { n: 1 }, ...extra }, options);
    expect(r.result.resultType).toBe("input_required");
    return r.result.requestState as string;
  }
  const answer = { "elicit-1": { action: "accept", content: { name: "Ann" } } };

  it("completes with the state it sealed", async () => {
    const state = await firstRound();
    const r = await srv.call("echo_args", { arguments: { n: 1 }, inputResponses: answer, requestState: state });
    expect(JSON.parse(r.result.content[0].text)).toEqual({ n: 1, answer: answer["elicit-1"] });
  });

  it("refuses a state with one byte changed, and the handler does not run", async () => {
    const state = await firstRound();
    observed.runs = {};
    for (const i of [0, 10, state.indexOf(".") + 3, state.length - 2]) {
      const c = state[i]!;
      const tampered = `${state.slice(0, i)}${c === "A" ? "B" : "A"}${state.slice(i + 1)}`;
      const r = await srv.call("echo_args", { arguments: { n: 1 }, inputResponses: answer, requestState: tampered });
      expect(r.error?.code).toBe(-32602);
      expect(r.error.message).toMatch(/requestState/);
    }
    expect(
      (await srv.call("echo_args", { arguments: { n: 1 }, inputResponses: answer, requestState: `${state}-TAMPERED` })).error.code,
    ).toBe(-32602);
    expect(observed.runs.echo_args).toBeUndefined();
  });

  it("refuses a state replayed on another request (other arguments or another tool)", async () => {
    const state = await firstRound();
    expect((await srv.call("echo_args", { arguments: { n: 2 }, inputResponses: answer, requestState: state })).error.code).toBe(-32602);
    expect((await srv.call("one_question", { inputResponses: answer, requestState: state })).error.code).toBe(-32602);
  });

  it("refuses a state replayed by another principal", async () => {
    const state = await firstRound({ ...caps(ELICIT), headers: { "x-user": "alice" } });
    const bob = await srv.call(
      "echo_args",
      { arguments: { n: 1 }, inputResponses: answer, requestState: state },
      { ...caps(ELICIT), headers: { "x-user": "bob" } },
    );
    expect(bob.error.code).toBe(-32602);
    expect(bob.error.message).toMatch(/principal/);
    const alice = await srv.call(
      "echo_args",
      { arguments: { n: 1 }, inputResponses: answer, requestState: state },
      { ...caps(ELICIT), headers: { "x-user": "alice" } },
    );
    expect(alice.result.resultType).toBe("complete");
  });

  it("refuses an expired state", async () => {
    const s = mrtrServer({ requestStateTtlMs: 1 });
    const r = await listen(s, { port: 0 });
    try {
      const first = (await rpc(r.url, "tools/call", { name: "echo_args", arguments: { n: 1 } }, caps(ELICIT))).json.result;
      await new Promise((res) => setTimeout(res, 10));
      const late = (
        await rpc(
          r.url,
          "tools/call",
          { name: "echo_args", arguments: { n: 1 }, inputResponses: answer, requestState: first.requestState },
          caps(ELICIT),
        )
      ).json;
      expect(late.error).toMatchObject({ code: -32602, message: "Invalid requestState: expired" });
    } finally {
      await r.close();
    }
  });

  it("accepts a state signed with a rotated-out key still in the ring, and refuses it once the key is gone", async () => {
    const oldKey = Buffer.alloc(32, 1);
    const newKey = Buffer.alloc(32, 2);
    const state = await firstRound();
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": ELICIT };
    const retry = (server: McpServer) =>
      server.handle({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "echo_args", arguments: { n: 1 }, inputResponses: answer, requestState: state, _meta: meta },
      });
    const rotated = (await retry(mrtrServer({ requestStateKeys: [newKey, oldKey] }))).response as any;
    expect(rotated.result.resultType).toBe("complete");
    const dropped = (await retry(mrtrServer({ requestStateKeys: [newKey] }))).response as any;
    expect(dropped.error.code).toBe(-32602);
  });

  it("takes keys from MCP_REQUEST_STATE_KEYS when no option is given", async () => {
    process.env.MCP_REQUEST_STATE_KEYS = `${Buffer.alloc(32, 9).toString("base64")}`;
    try {
      const a = mrtrServer();
      const b = mrtrServer();
      expect(a.keys.ephemeral).toBe(false);
      const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": ELICIT };
      const first = (await a.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "one_question", _meta: meta } }))
        .response as any;
      const second = (
        await b.handle({
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: {
            name: "one_question",
            inputResponses: { user_name: { action: "decline" } },
            requestState: first.result.requestState,
            _meta: meta,
          },
        })
      ).response as any;
      expect(second.result.resultType).toBe("complete");
    } finally {
      delete process.env.MCP_REQUEST_STATE_KEYS;
    }
  });

  it("refuses a state replayed on another method", async () => {
    const state = await firstRound();
    const prompt = await rpc(srv.url, "prompts/get", { name: "asking_prompt", inputResponses: answer, requestState: state }, caps(ELICIT));
    expect(prompt.json.error).toMatchObject({ code: -32602, message: "Invalid requestState: issued for another request" });
  });

  it("binds the request, not its spelling: absent and empty arguments, and arguments in any key order, are the same request", async () => {
    const bare = (await rpc(srv.url, "tools/call", { name: "one_question" }, caps(ELICIT))).json.result;
    expect(bare.resultType).toBe("input_required");
    const retried = await srv.call("one_question", {
      inputResponses: { user_name: { action: "decline" } },
      requestState: bare.requestState,
    });
    expect(retried.result.resultType).toBe("complete");
    const state = await firstRound(caps(ELICIT), { arguments: { n: 1, m: 2 } });
    const reordered = await srv.call("echo_args", { arguments: { m: 2, n: 1 }, inputResponses: answer, requestState: state });
    expect(reordered.result.resultType).toBe("complete");
  });
});
