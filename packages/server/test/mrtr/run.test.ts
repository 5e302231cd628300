// One round around a handler's run (src/revisions/2026-07-28/run.ts): answers read first, the handler run, and an unanswered
// ask turning the round into input_required with a sealed requestState.
import { validate } from "@x/mcp-v2607";
import { describe, expect, it } from "vitest";
import { listen } from "../../src/index.js";
import { rpc } from "../helpers.js";
import { caps, ELICIT, mrtrServer, nameSchema, observed, serveMrtr } from "./fixture.js";

const srv = serveMrtr();

describe("Multi Round-Trip Requests over HTTP", () => {
  it("[A37] [A32] [A33] a tool that asks 2 questions runs its body 3 times: each answer found by position, each missing one ends the round with input_required and requestState; [A29] keys are elicit-1, elicit-2", async () => {
    observed.runs = {};
    const r1 = await srv.call("two_questions");
    expect(r1.result.resultType).toBe("input_required");
    expect(validate("InputRequiredResult", r1.result).ok).toBe(true);
    expect(Object.keys(r1.result.inputRequests)).toEqual(["elicit-1"]);
    expect(r1.result.inputRequests["elicit-1"]).toEqual({
      method: "elicitation/create",
      params: { message: "Name?", requestedSchema: nameSchema },
    });
    expect("ttlMs" in r1.result).toBe(false);
    const r2 = await srv.call("two_questions", {
      inputResponses: { "elicit-1": { action: "accept", content: { name: "Ada" } } },
      requestState: r1.result.requestState,
    });
    expect(Object.keys(r2.result.inputRequests)).toEqual(["elicit-2"]);
    expect(r2.result.requestState).not.toBe(r1.result.requestState);
    const r3 = await srv.call("two_questions", {
      inputResponses: { "elicit-2": { action: "accept", content: { age: 36 } } },
      requestState: r2.result.requestState,
    });
    expect(r3.result.resultType).toBe("complete");
    expect(JSON.parse(r3.result.content[0].text)).toEqual({
      name: { action: "accept", content: { name: "Ada" } },
      age: { action: "accept", content: { age: 36 } },
    });
    expect(observed.runs.two_questions).toBe(3);
  });

  it("[A29] this round's answers are merged over earlier rounds'; {} on a first round", async () => {
    observed.answers = [];
    await srv.call("one_question");
    await srv.call("one_question", { inputResponses: { user_name: { action: "decline" } } });
    expect(observed.answers).toEqual([{}, { user_name: { action: "decline" } }]);
  });

  it("[A36] a catch around an ask does not swallow the end of the round", async () => {
    const r = await srv.call("swallows");
    expect(r.result.resultType).toBe("input_required");
  });

  it("[A36] an ask from a detached timer is refused by name", async () => {
    observed.outsideError = undefined;
    const r = await srv.call("detached");
    expect(r.result.content[0].text).toBe("returned");
    for (let i = 0; i < 50 && !observed.outsideError; i++) await new Promise((res) => setTimeout(res, 10));
    expect(String(observed.outsideError)).toMatch(/ctx\.elicit was called outside the handler's run/);
  });

  it("serves the explicit return form", async () => {
    const r = await srv.call("explicit");
    expect(r.result).toMatchObject({ resultType: "input_required", inputRequests: { confirm: { method: "elicitation/create" } } });
    expect("requestState" in r.result).toBe(false);
  });
});

describe("the per-process key", () => {
  /** Collects the warnings about the key emitted while `run` runs, and after it until the event loop's next turn. */
  async function keyWarnings(run: () => Promise<void>): Promise<string[]> {
    const warnings: string[] = [];
    const onWarning = (w: Error & { code?: string }) => {
      if (w.code === "X_MCP_EPHEMERAL_STATE_KEY") warnings.push(w.message);
    };
    process.on("warning", onWarning);
    try {
      await run();
      // A warning is emitted on the next tick: by the next turn it has been.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    return warnings;
  }
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": ELICIT };

  it("over HTTP, where the retry may reach another instance, warns once that instances need a shared key", async () => {
    const running = await listen(mrtrServer(), { port: 0 });
    try {
      const warnings = await keyWarnings(async () => {
        for (let i = 0; i < 2; i++) {
          const asked = await rpc(running.url, "tools/call", { name: "one_question", arguments: {} }, caps(ELICIT));
          expect(asked.json.result.resultType).toBe("input_required");
        }
      });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/shared key/);
    } finally {
      await running.close();
    }
  });

  it("in process (stdio and McpServer.handle), where one process holds the key, does not warn", async () => {
    const s = mrtrServer();
    const warnings = await keyWarnings(async () => {
      const answered = await s.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "one_question", _meta: meta } });
      expect((answered.response as { result: { resultType: string } }).result.resultType).toBe("input_required");
    });
    expect(warnings).toEqual([]);
  });
});
