// The test helpers of @x/server/testing (src/testing.ts): buildContext and runHandler run a handler without a server.
import { describe, expect, it } from "vitest";
import { isNotSupported, type RequestContext } from "../src/index.js";
import { buildContext, runHandler } from "../src/testing.js";
import { ageSchema, ELICIT, nameSchema } from "./mrtr/fixture.js";

describe("test helpers (@x/server/testing)", () => {
  const tool = async (_args: unknown, ctx: RequestContext) => {
    const first = await ctx.elicit("Name?", nameSchema);
    const second = await ctx.elicit("Age?", ageSchema);
    return { first, second };
  };

  it("[A38] buildContext with a preset answer plus runHandler answers the first elicit at once, and shows the next question", async () => {
    const ctx = buildContext({ capabilities: ELICIT, answers: { "elicit-1": { action: "accept", content: { name: "Di" } } } });
    expect(ctx.answers).toEqual({ "elicit-1": { action: "accept", content: { name: "Di" } } });
    const outcome = await runHandler(tool, {}, ctx);
    expect(outcome.status).toBe("input_required");
    if (outcome.status !== "input_required") return;
    expect(outcome.question).toEqual({
      key: "elicit-2",
      request: { method: "elicitation/create", params: { message: "Age?", requestedSchema: ageSchema } },
    });
    expect(outcome.used).toEqual({ "elicit-1": { action: "accept", content: { name: "Di" } } });
  });

  it("[A38] with both answers the run completes", async () => {
    const ctx = buildContext({
      capabilities: ELICIT,
      answers: { "elicit-1": { action: "decline" }, "elicit-2": { action: "accept", content: { age: 3 } } },
    });
    const outcome = await runHandler(tool, {}, ctx);
    expect(outcome).toEqual({
      status: "complete",
      result: { first: { action: "decline" }, second: { action: "accept", content: { age: 3 } } },
    });
  });

  it("[A38] [A36] with the capability but no open round, elicit throws by name", async () => {
    const ctx = buildContext({ capabilities: ELICIT });
    await expect(ctx.elicit("Name?", nameSchema)).rejects.toThrow(/ctx\.elicit was called outside the handler's run/);
  });

  it("[A30] a context that never reached the wire answers not_supported; [A29] its answers are {}", async () => {
    const ctx = buildContext();
    expect(ctx.answers).toEqual({});
    const answer = await ctx.elicit("Name?", nameSchema);
    expect(isNotSupported(answer)).toBe(true);
  });
});
