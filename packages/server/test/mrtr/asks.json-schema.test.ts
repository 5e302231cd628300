// ctx.elicit with a literal JSON Schema: the answer's content is typed from the schema (asks.json-schema.test-d.ts)
// and still checked at run time: an accepted answer of the wrong type is asked again, a right one reaches the handler.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpServer, type RunningHttpServer } from "../../src/index.js";
import { rpc } from "../helpers.js";
import { caps, ELICIT } from "./fixture.js";

let running: RunningHttpServer;
beforeAll(async () => {
  const server = new McpServer({ name: "typed-elicit", version: "1" }, { requestStateKeys: [Buffer.alloc(32, 2)] });
  server.registerTool("proceed", {}, async (_args, ctx) => {
    const answer = await ctx.elicit("Proceed?", { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] });
    return answer.action === "accept" ? (answer.content.confirm ? "yes" : "no") : answer.action;
  });
  running = await listen(server, { port: 0 });
});
afterAll(() => running.close());

const call = async (inputResponses?: Record<string, unknown>) =>
  (await rpc(running.url, "tools/call", { name: "proceed", arguments: {}, ...(inputResponses ? { inputResponses } : {}) }, caps(ELICIT)))
    .json;

describe("ctx.elicit with a literal JSON Schema", () => {
  it("asks again when an accepted answer does not satisfy the schema", async () => {
    const first = await call();
    expect(first.result.resultType).toBe("input_required");
    expect(first.result.inputRequests["elicit-1"].params.requestedSchema.properties.confirm).toEqual({ type: "boolean" });
    const wrong = await call({ "elicit-1": { action: "accept", content: { confirm: "yes" } } });
    expect(wrong.result.resultType).toBe("input_required");
    expect(Object.keys(wrong.result.inputRequests)).toEqual(["elicit-1"]);
  });

  it("gives the handler a valid accepted answer's content", async () => {
    const done = await call({ "elicit-1": { action: "accept", content: { confirm: true } } });
    expect(done.result.resultType).toBe("complete");
    expect(done.result.content).toEqual([{ type: "text", text: "yes" }]);
  });
});
