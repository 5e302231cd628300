// The asks of one run (src/revisions/2026-07-28/round.ts): each finds its answer by its key, kind and position by default.
import { describe, expect, it } from "vitest";
import { buildContext, runHandler } from "../../src/testing.js";
import { ALL, caps, ELICIT, nameSchema, serveMrtr } from "./fixture.js";

const srv = serveMrtr();

describe("resolving the asks of a run", () => {
  it("[A34] accept, decline and cancel are returned to the tool and never asked again", async () => {
    for (const answer of [{ action: "accept", content: { name: "Bo" } }, { action: "decline" }, { action: "cancel" }]) {
      const r = await srv.call("one_question", { inputResponses: { user_name: answer } });
      expect(r.result.resultType).toBe("complete");
      expect(JSON.parse(r.result.content[0].text)).toEqual(answer);
    }
  });

  it("asks only what the client declared, each kind keyed by kind and position, in one round", async () => {
    const only = await srv.call("kinds", {}, caps({ sampling: {} }));
    expect(Object.keys(only.result.inputRequests)).toEqual(["sample-1"]);
    const all = await srv.call("kinds", {}, caps(ALL));
    expect(Object.keys(all.result.inputRequests)).toEqual(["elicit-1", "elicit-2", "sample-1", "roots-1"]);
    expect(all.result.inputRequests["elicit-2"].params).toEqual({ mode: "url", message: "Log in", url: "https://example.com/login" });
    const answers = {
      "elicit-1": { action: "accept", content: { name: "Cy" } },
      "elicit-2": { action: "accept" },
      "sample-1": { role: "assistant", content: { type: "text", text: "Hello" }, model: "m" },
      "roots-1": { roots: [{ uri: "file:///home" }] },
    };
    const done = await srv.call("kinds", { inputResponses: answers, requestState: all.result.requestState }, caps(ALL));
    expect(done.result.resultType).toBe("complete");
    expect(JSON.parse(done.result.content[0].text)).toEqual({
      form: answers["elicit-1"],
      url: answers["elicit-2"],
      sample: answers["sample-1"],
      roots: answers["roots-1"],
    });
  });

  it("a duplicate key in one run is a fault, not a question", async () => {
    const r = await srv.call("duplicate_key");
    expect(r.result.isError).toBe(true);
    expect(r.result.content[0].text).toContain("used twice");
  });

  it("a keyed ask takes no position: the default keys count the unkeyed asks of each kind only", async () => {
    const ctx = buildContext({ capabilities: ELICIT, answers: { mine: { action: "decline" } } });
    const outcome = await runHandler(
      async (_a, c) => {
        const keyed = await c.elicit("Keyed?", nameSchema, { key: "mine" });
        const unkeyed = await c.elicit("Unkeyed?", nameSchema);
        return { keyed, unkeyed };
      },
      {},
      ctx,
    );
    expect(outcome.status).toBe("input_required");
    if (outcome.status !== "input_required") return;
    expect(outcome.question.key).toBe("elicit-1");
    expect(outcome.used).toEqual({ mine: { action: "decline" } });
  });
});

describe("the signal that ends a round", () => {
  it("is an Error without a stack trace, and leaves Error.stackTraceLimit as it was", async () => {
    const { InputRequiredSignal } = await import("../../src/index.js");
    const before = Error.stackTraceLimit;
    const signal = new InputRequiredSignal();
    expect(signal).toBeInstanceOf(Error);
    expect(signal.name).toBe("InputRequiredSignal");
    expect(signal.stack).not.toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(before);
    // Other errors keep their traces.
    expect(new Error("x").stack).toMatch(/\n\s+at /);
  });
});
