// The completion feature (src/features/completion.ts): completion/complete for prompt arguments and template variables.
import { validate } from "@x/mcp-v2607";
import { describe, expect, it } from "vitest";
import { MAX_COMPLETION_VALUES, McpServer } from "../../src/index.js";
import { send } from "../helpers.js";

function completionServer() {
  const server = new McpServer({ name: "completion", version: "1.0.0" });
  server.registerResourceTemplate(
    "user",
    "users://{id}/profile",
    { complete: { id: (value) => ["alice", "albert", "bob"].filter((v) => v.startsWith(value)) } },
    (uri) => uri,
  );
  server.registerPrompt(
    "greet",
    {
      arguments: [
        { name: "name", required: true },
        { name: "tone", required: false },
      ],
      complete: { tone: (value) => Array.from({ length: 150 }, (_, i) => `${value}${i}`) },
    },
    ({ name }) => `Say hello to ${name}`,
  );
  return server;
}

const server = completionServer();
const complete = (params: Record<string, unknown>, s: McpServer = server) => send(s, "completion/complete", params);

describe("completion/complete", () => {
  it("completes a template variable and a prompt argument, capped at 100 values", async () => {
    const user = (await complete({ ref: { type: "ref/resource", uri: "users://{id}/profile" }, argument: { name: "id", value: "al" } }))
      .result;
    expect(validate("CompleteResult", user).ok).toBe(true);
    expect(user.completion).toEqual({ values: ["alice", "albert"], total: 2, hasMore: false });
    const tone = (await complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "tone", value: "x" } })).result;
    expect(MAX_COMPLETION_VALUES).toBe(100);
    expect(tone.completion.values).toHaveLength(MAX_COMPLETION_VALUES);
    expect(tone.completion.values.slice(0, 2)).toEqual(["x0", "x1"]);
    expect(tone.completion).toMatchObject({ total: 150, hasMore: true });
    const none = (await complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "" } })).result;
    expect(none.completion).toEqual({ values: [], total: 0, hasMore: false });
  });

  it("refuses an unknown prompt, argument or template with -32602", async () => {
    for (const params of [
      { ref: { type: "ref/prompt", name: "nope" }, argument: { name: "x", value: "" } },
      { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "nope", value: "" } },
      { ref: { type: "ref/resource", uri: "nope://{x}" }, argument: { name: "x", value: "" } },
      { ref: { type: "ref/other" }, argument: { name: "x", value: "" } },
      { argument: { name: "x", value: "" } },
    ]) {
      expect((await complete(params)).error.code).toBe(-32602);
    }
  });

  it("names what it refuses, and refuses an argument without a string name and value", async () => {
    expect((await complete({ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "x", value: "" } })).error).toMatchObject({
      message: "Unknown prompt: nope",
      data: { name: "nope" },
    });
    expect((await complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "mood", value: "" } })).error).toMatchObject({
      message: "Prompt greet has no argument mood",
      data: { argument: "mood" },
    });
    // A template is named by its URI template, not by a URI it matches.
    expect(
      (await complete({ ref: { type: "ref/resource", uri: "users://alice/profile" }, argument: { name: "id", value: "" } })).error,
    ).toMatchObject({
      message: "Unknown resource template: users://alice/profile",
      data: { uri: "users://alice/profile" },
    });
    for (const argument of [undefined, { name: "tone" }, { name: 1, value: "" }, { name: "tone", value: 2 }]) {
      const refused = await complete({ ref: { type: "ref/prompt", name: "greet" }, argument });
      expect(refused.error.code, JSON.stringify(argument)).toBe(-32602);
    }
    // The other arguments are strings too: a completer is never handed anything else.
    for (const tone of [5, null, ["loud"], { x: 1 }]) {
      const refused = await complete({
        ref: { type: "ref/prompt", name: "greet" },
        argument: { name: "tone", value: "" },
        context: { arguments: { name: tone } },
      });
      expect(refused.error, JSON.stringify(tone)).toMatchObject({
        code: -32602,
        message: "Invalid params: context.arguments.name must be a string",
      });
    }
  });

  it("hands the completer the value and the other arguments, awaits it, and keeps only strings", async () => {
    const seen: unknown[] = [];
    const s = new McpServer({ name: "c", version: "1" });
    s.registerPrompt(
      "trip",
      {
        arguments: [{ name: "country" }, { name: "city" }],
        complete: {
          city: async (value, context) => {
            seen.push({ value, context });
            return ["Paris", 7, "Lyon", null] as never;
          },
        },
      },
      () => "trip",
    );
    const r = await complete(
      { ref: { type: "ref/prompt", name: "trip" }, argument: { name: "city", value: "P" }, context: { arguments: { country: "FR" } } },
      s,
    );
    expect(r.result.completion).toEqual({ values: ["Paris", "Lyon"], total: 2, hasMore: false });
    const without = await complete({ ref: { type: "ref/prompt", name: "trip" }, argument: { name: "city", value: "" } }, s);
    expect(without.result.completion.total).toBe(2);
    expect(seen).toEqual([
      { value: "P", context: { arguments: { country: "FR" } } },
      { value: "", context: { arguments: {} } },
    ]);
  });
});

describe("completions capability", () => {
  it("is advertised, and completion/complete served, only while some prompt or template declares a completer", async () => {
    const s = new McpServer({ name: "t", version: "1" });
    s.registerResourceTemplate("path", "tree://x{/path*}", {}, (_uri, { path }) => JSON.stringify(path));
    s.registerPrompt("plain", { arguments: [{ name: "a" }] }, () => "p");
    expect(s.capabilities().completions).toBeUndefined();
    const refused = await complete({ ref: { type: "ref/resource", uri: "tree://x{/path*}" }, argument: { name: "path", value: "" } }, s);
    expect(refused.error).toMatchObject({ code: -32601, data: { method: "completion/complete" } });
    s.registerPrompt("p", { arguments: [{ name: "a" }], complete: { a: () => ["x"] } }, () => "p");
    expect((await send(s, "server/discover")).result.capabilities.completions).toEqual({});
    // Served, it completes any prompt or template; one without a completer gets no values.
    const empty = await complete({ ref: { type: "ref/resource", uri: "tree://x{/path*}" }, argument: { name: "path", value: "" } }, s);
    expect(empty.result.completion).toEqual({ values: [], total: 0, hasMore: false });
    s.removePrompt("p");
    expect(s.capabilities().completions).toBeUndefined();
    s.registerResourceTemplate("t", "t://{v}", { complete: { v: () => [] } }, () => "");
    expect(s.capabilities().completions).toEqual({});
  });
});
