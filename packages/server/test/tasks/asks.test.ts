// A task's asks (src/tasks/runner.ts #route, #deliver, #sync; src/route.ts RequestRoute): `await ctx.elicit(...)`
// in a task puts it in input_required with the ask in inputRequests; tasks/update answers it and the run goes
// on. Keys are never reused over the task's life, keys that are not outstanding are ignored (and acknowledged),
// and a partial answer leaves the other asks outstanding.
import { validate } from "@x/mcp-v2607";
import { TASKS_EXTENSION } from "@x/mcp-v2607/tasks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TASK_ASK_ATTEMPTS } from "../../src/route.js";
import { McpServer } from "../../src/index.js";
import { capabilities } from "../helpers.js";
import { gate, nameSchema, start, tasks, waitFor } from "./fixture.js";
import { tasks as tasksPlugin } from "../../src/tasks/index.js";

const ageSchema = { type: "object" as const, properties: { age: { type: "integer" as const, minimum: 0 } }, required: ["age"] };
const accept = (content: Record<string, unknown>) => ({ action: "accept", content });

/** What the handlers saw, by tool. */
const seen: Record<string, unknown[]> = {};
const note = (tool: string, value: unknown) => {
  seen[tool] ??= [];
  seen[tool].push(value);
};

let server: McpServer;
beforeAll(() => {
  server = new McpServer({ name: "asks", version: "1" }, { tasks: tasksPlugin() });
  server.registerTool("greet", { taskSupport: "required" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Your name?", nameSchema);
    note("greet", answer);
    return answer.action === "accept" ? `Hello, ${String((answer as any).content.name)}!` : `no name (${answer.action})`;
  });
  server.registerTool("two_at_once", { taskSupport: "required" }, async (_args, ctx) => {
    const [name, age] = await ctx.all([ctx.ask.elicit("Name?", nameSchema), ctx.ask.elicit("Age?", ageSchema)]);
    return `${String((name as any).content?.name)} is ${String((age as any).content?.age)}`;
  });
  server.registerTool("one_then_another", { taskSupport: "required" }, async (_args, ctx) => {
    const name = await ctx.elicit("Name?", nameSchema);
    const age = await ctx.elicit("Age?", ageSchema);
    return `${String((name as any).content.name)} is ${String((age as any).content.age)}`;
  });
  server.registerTool("own_key_twice", { taskSupport: "required" }, async (_args, ctx) => {
    await ctx.elicit("Name?", nameSchema, { key: "who" });
    try {
      await ctx.elicit("Name again?", nameSchema, { key: "who" });
      return "asked twice under one key";
    } catch (error) {
      return `refused: ${(error as Error).message}`;
    }
  });
  server.registerTool("kinds", { taskSupport: "required" }, async (_args, ctx) => {
    const [sample, roots] = await ctx.all([
      ctx.ask.createMessage({ messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 5 }),
      ctx.ask.listRoots(),
    ]);
    return JSON.stringify({ sample, roots });
  });
  server.registerTool("catches_misfit", { taskSupport: "required" }, async (_args, ctx) => {
    try {
      const answer = await ctx.elicit("Age?", ageSchema);
      return `took ${JSON.stringify(answer)}`;
    } catch (error) {
      return `misfit: ${(error as Error).message}`;
    }
  });
  server.registerTool("misfit", { taskSupport: "required" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Age?", ageSchema);
    return `took ${JSON.stringify(answer)}`;
  });
  server.registerTool("no_elicitation", { taskSupport: "required" }, async (_args, ctx) =>
    JSON.stringify(await ctx.elicit("Name?", nameSchema)),
  );
});
afterAll(() => server.close());

describe("an ask in a task", () => {
  it("puts the task in input_required with a valid elicitation/create under elicit-1; tasks/update resumes it to completed", async () => {
    const taskId = await start(server, "greet");
    const waiting = await waitFor(server, taskId, "input_required");
    expect(waiting.inputRequests).toEqual({
      "elicit-1": { method: "elicitation/create", params: { message: "Your name?", requestedSchema: nameSchema } },
    });
    expect(validate("InputRequests", waiting.inputRequests).ok).toBe(true);
    expect(validate("ElicitRequest", waiting.inputRequests["elicit-1"]).ok).toBe(true);
    expect(typeof waiting.statusMessage).toBe("string");
    expect(waiting).not.toHaveProperty("result");
    // A second poll before any answer shows the same ask again (the client deduplicates by key).
    expect((await tasks(server, "get", { taskId })).result.inputRequests).toEqual(waiting.inputRequests);

    const ack = await tasks(server, "update", { taskId, inputResponses: { "elicit-1": accept({ name: "Ada" }) } });
    expect(ack.result.resultType).toBe("complete");
    const done = await waitFor(server, taskId, "completed");
    expect(done.result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    expect(done).not.toHaveProperty("inputRequests");
  });

  it("the status after the acknowledgement no longer lists the answered ask (working or completed, never the old ask)", async () => {
    const taskId = await start(server, "greet");
    await waitFor(server, taskId, "input_required");
    await tasks(server, "update", { taskId, inputResponses: { "elicit-1": accept({ name: "Bo" }) } });
    const next = (await tasks(server, "get", { taskId })).result;
    expect(["working", "completed"]).toContain(next.status);
    expect(next).not.toHaveProperty("inputRequests");
  });

  it("a decline or cancel is an answer like any other", async () => {
    for (const action of ["decline", "cancel"]) {
      const taskId = await start(server, "greet");
      await waitFor(server, taskId, "input_required");
      await tasks(server, "update", { taskId, inputResponses: { "elicit-1": { action } } });
      expect((await waitFor(server, taskId, "completed")).result.content[0].text).toBe(`no name (${action})`);
    }
  });

  it("ignores keys that are not outstanding (never issued, or already answered) and acknowledges them", async () => {
    const taskId = await start(server, "one_then_another");
    await waitFor(server, taskId, "input_required");
    const unknown = await tasks(server, "update", { taskId, inputResponses: { "elicit-9": accept({ name: "X" }), other: {} } });
    expect(unknown.result.resultType).toBe("complete");
    const still = (await tasks(server, "get", { taskId })).result;
    expect(still.status).toBe("input_required");
    expect(Object.keys(still.inputRequests)).toEqual(["elicit-1"]);

    await tasks(server, "update", { taskId, inputResponses: { "elicit-1": accept({ name: "Cy" }) } });
    // Keys are never reused: the second ask of the task is elicit-2, not elicit-1 again.
    const second = await waitFor(server, taskId, "input_required", { where: (t) => "elicit-2" in t.inputRequests });
    expect(Object.keys(second.inputRequests)).toEqual(["elicit-2"]);
    expect(second.inputRequests["elicit-2"].params.message).toBe("Age?");
    // elicit-1 again (already answered) is ignored: the task still waits for elicit-2.
    const replay = await tasks(server, "update", { taskId, inputResponses: { "elicit-1": accept({ name: "Other" }) } });
    expect(replay.result.resultType).toBe("complete");
    expect(Object.keys((await tasks(server, "get", { taskId })).result.inputRequests)).toEqual(["elicit-2"]);

    await tasks(server, "update", { taskId, inputResponses: { "elicit-2": accept({ age: 41 }) } });
    expect((await waitFor(server, taskId, "completed")).result.content[0].text).toBe("Cy is 41");
  });

  it("ctx.all: both asks are outstanding together; a partial answer leaves the other, on the very next tasks/get", async () => {
    const taskId = await start(server, "two_at_once");
    const both = await waitFor(server, taskId, "input_required", { where: (t) => Object.keys(t.inputRequests).length === 2 });
    expect(Object.keys(both.inputRequests).sort()).toEqual(["elicit-1", "elicit-2"]);
    const nameKey = Object.keys(both.inputRequests).find((k) => both.inputRequests[k].params.message === "Name?")!;
    const ageKey = Object.keys(both.inputRequests).find((k) => k !== nameKey)!;

    await tasks(server, "update", { taskId, inputResponses: { [nameKey]: accept({ name: "Di" }) } });
    const partial = (await tasks(server, "get", { taskId })).result;
    expect(partial.status).toBe("input_required");
    expect(Object.keys(partial.inputRequests)).toEqual([ageKey]);

    await tasks(server, "update", { taskId, inputResponses: { [ageKey]: accept({ age: 7 }) } });
    expect((await waitFor(server, taskId, "completed")).result.content[0].text).toBe("Di is 7");
  });

  it("a key the handler names is never reused either: asking twice under it fails the second ask", async () => {
    const taskId = await start(server, "own_key_twice");
    const first = await waitFor(server, taskId, "input_required");
    expect(Object.keys(first.inputRequests)).toEqual(["who"]);
    await tasks(server, "update", { taskId, inputResponses: { who: accept({ name: "Ed" }) } });
    const done = await waitFor(server, taskId, "completed");
    expect(done.result.content[0].text).toMatch(/^refused: .*already used/);
  });

  it("sampling and roots asks are keyed by kind (sample-1, roots-1)", async () => {
    const taskId = await start(
      server,
      "kinds",
      {},
      { meta: capabilities({ extensions: { [TASKS_EXTENSION]: {} }, sampling: {}, roots: {} }) },
    );
    const waiting = await waitFor(server, taskId, "input_required", { where: (t) => Object.keys(t.inputRequests).length === 2 });
    expect(Object.keys(waiting.inputRequests).sort()).toEqual(["roots-1", "sample-1"]);
    expect(waiting.inputRequests["sample-1"].method).toBe("sampling/createMessage");
    expect(waiting.inputRequests["roots-1"]).toEqual({ method: "roots/list", params: {} });
    expect(validate("InputRequests", waiting.inputRequests).ok).toBe(true);
    await tasks(server, "update", {
      taskId,
      inputResponses: {
        "sample-1": { role: "assistant", content: { type: "text", text: "Hello" }, model: "m" },
        "roots-1": { roots: [{ uri: "file:///home" }] },
      },
    });
    const done = await waitFor(server, taskId, "completed");
    expect(JSON.parse(done.result.content[0].text)).toMatchObject({ roots: { roots: [{ uri: "file:///home" }] }, sample: { model: "m" } });
  });

  it("an ask whose capability the call did not declare answers not_supported without input_required", async () => {
    const taskId = await start(server, "no_elicitation", {}, { meta: capabilities({ extensions: { [TASKS_EXTENSION]: {} } }) });
    const done = await waitFor(server, taskId, ["completed", "input_required"]);
    expect(done.status).toBe("completed");
    expect(JSON.parse(done.result.content[0].text)).toEqual({ action: "not_supported", capability: "elicitation.form" });
  });
});

describe("an answer that does not fit the ask", () => {
  // As a Multi Round-Trip round would, a task asks again under a new key; after MAX_TASK_ASK_ATTEMPTS
  // answers that do not fit, the ask fails and the handler sees it.
  it("is asked again under a new key, and a fitting answer then completes the task", async () => {
    const taskId = await start(server, "catches_misfit");
    await waitFor(server, taskId, "input_required");
    const ack = await tasks(server, "update", { taskId, inputResponses: { "elicit-1": accept({ age: "old" }) } });
    expect(ack.result.resultType).toBe("complete");
    const again = await waitFor(server, taskId, "input_required");
    expect(Object.keys(again.inputRequests)).toEqual(["elicit-2"]);
    expect(again.inputRequests["elicit-2"]).toMatchObject({ method: "elicitation/create", params: { message: "Age?" } });
    await tasks(server, "update", { taskId, inputResponses: { "elicit-2": accept({ age: 42 }) } });
    const done = await waitFor(server, taskId, "completed");
    expect(done.result.content[0].text).not.toMatch(/misfit/);
  });

  it(`fails the ask after ${MAX_TASK_ASK_ATTEMPTS} answers that do not fit: uncaught, the task ends completed with a tool_fault result`, async () => {
    for (const answer of [accept({ age: -1 }), accept({}), { action: "maybe" }]) {
      const taskId = await start(server, "misfit");
      for (let attempt = 1; attempt <= MAX_TASK_ASK_ATTEMPTS; attempt++) {
        const asking = await waitFor(server, taskId, "input_required");
        const key = Object.keys(asking.inputRequests)[0]!;
        expect(key).toBe(`elicit-${attempt}`);
        const ack = await tasks(server, "update", { taskId, inputResponses: { [key]: answer } });
        expect(ack.result?.resultType, JSON.stringify(answer)).toBe("complete");
      }
      const done = await waitFor(server, taskId, ["completed", "failed"]);
      expect(done.status, JSON.stringify(answer)).toBe("completed");
      expect(done.result.isError).toBe(true);
      expect(done.result.structuredContent).toMatchObject({ errorType: "tool_fault", tool: "misfit" });
    }
  });

  // Doubtful (reported): a Multi Round-Trip retry refuses an inputResponses entry that is not an object with
  // -32602 (revisions/2026-07-28/state.ts readInputResponses); tasks/update takes such an entry ("shape per MRTR", says the
  // extension) and hands it to the waiting ask, which then fails the run as above.
  it("tasks/update refuses an inputResponses entry that is not an object, as a Multi Round-Trip retry does (-32602)", async () => {
    const taskId = await start(server, "misfit");
    await waitFor(server, taskId, "input_required");
    const answer = await tasks(server, "update", { taskId, inputResponses: { "elicit-1": 5 } });
    expect(answer.error?.code).toBe(-32602);
  });
});

describe("asks and the end of a task", () => {
  it("a cancelled input_required task drops its inputRequests and its handler's ask rejects", async () => {
    const s = new McpServer({ name: "c", version: "1" }, { tasks: tasksPlugin() });
    const rejected = gate<unknown>();
    s.registerTool("asks", { taskSupport: "required" }, async (_args, ctx) => {
      try {
        await ctx.elicit("Name?", nameSchema);
      } catch (error) {
        rejected.open(error);
        throw error;
      }
      return "answered";
    });
    const taskId = await start(s, "asks");
    await waitFor(s, taskId, "input_required");
    await tasks(s, "cancel", { taskId });
    const error = (await rejected.promise) as Error;
    expect(error.name).toBe("AbortError");
    const cancelled = (await tasks(s, "get", { taskId })).result;
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled).not.toHaveProperty("inputRequests");
    // An answer after the end is acknowledged and changes nothing.
    const late = await tasks(s, "update", { taskId, inputResponses: { "elicit-1": accept({ name: "late" }) } });
    expect(late.result.resultType).toBe("complete");
    expect((await tasks(s, "get", { taskId })).result.status).toBe("cancelled");
    s.close();
  });

  it("an ask from a detached promise after the task ended is refused", async () => {
    const s = new McpServer({ name: "d", version: "1" }, { tasks: tasksPlugin() });
    const late = gate<unknown>();
    const go = gate();
    s.registerTool("detaches", { taskSupport: "required" }, (_args, ctx) => {
      void go.promise.then(() => ctx.elicit("late?", nameSchema).then(late.open, late.open));
      return "returned at once";
    });
    const taskId = await start(s, "detaches");
    await waitFor(s, taskId, "completed");
    go.open();
    const error = (await late.promise) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/task is over/);
    expect((await tasks(s, "get", { taskId })).result.status).toBe("completed");
    s.close();
  });
});
