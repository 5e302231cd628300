import { describe, expect, it } from "vitest";
import {
  type ActionSchema,
  type ActionToolDefinition,
  ConfigurationError,
  defineActionTool,
  ok,
  registerActionTool,
} from "../src/actions/index.js";
import { listen, McpServer } from "../src/index.js";
import { callTool } from "./actions-fixture.js";
import { rpc } from "./helpers.js";

/** A valid definition with one action, `go`, whose schema is `action` merged over a minimal one. */
function definition(action: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): ActionToolDefinition {
  return {
    name: "cfg",
    description: "Configuration checks",
    actions: { go: { description: "Go", properties: { a: { type: "string" } }, ...action } as ActionSchema },
    runAction: () => ok({}),
    ...extra,
  } as ActionToolDefinition;
}

/** The ConfigurationError `build` throws (it must throw one). */
function refusal(build: () => unknown): ConfigurationError {
  try {
    build();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigurationError);
    return e as ConfigurationError;
  }
  throw new Error("expected a ConfigurationError");
}

describe("action tools: configuration checks", () => {
  it("[A40] action schema keys: description required without newline, properties required, the optional keys; any other key refused", () => {
    expect(() =>
      defineActionTool(
        definition({
          required: ["a"],
          requiredOneOf: [["a"]],
          notes: "line one\nline two",
          related: ["go"],
          examples: [{ a: "x" }],
        }),
      ),
    ).not.toThrow();
    expect(() => defineActionTool(definition({ defaults: { a: "x" } }))).not.toThrow();
    const stray = refusal(() => defineActionTool(definition({ requried: ["a"] })));
    expect(stray.message).toContain('"requried"');
    expect(stray.callback).toBe("actions");
    const noDescription = refusal(() => defineActionTool(definition({ description: undefined })));
    expect(noDescription.message).toMatch(/description is required/);
    const newline = refusal(() => defineActionTool(definition({ description: "Go\nfast" })));
    expect(newline.message).toMatch(/newline/);
    const carriageReturn = refusal(() => defineActionTool(definition({ description: "Go\rfast" })));
    expect(carriageReturn.message).toMatch(/newline/);
    const badName = refusal(() =>
      defineActionTool({ ...definition(), actions: { "go\nthere": { description: "Go", properties: {} } } } as ActionToolDefinition),
    );
    expect(badName.message).toMatch(/action name/);
    const noProperties = refusal(() => defineActionTool(definition({ properties: undefined })));
    expect(noProperties.message).toMatch(/properties is required/);
    // String keys at every depth: a symbol key is refused.
    const symbolKey = refusal(() =>
      defineActionTool(definition({ properties: { a: { type: "object", properties: { [Symbol("s")]: { type: "string" } } } } })),
    );
    expect(symbolKey.message).toMatch(/not a string/);
    // Newlines stay legal in the tool description and notes.
    expect(defineActionTool({ ...definition(), description: "two\nlines" }).description).toBe("two\nlines");
  });

  it("[A41] properties must be a map; additionalProperties true, false or a schema; property schemas compile with formats asserted", () => {
    expect(refusal(() => defineActionTool(definition({ properties: [] }))).message).toMatch(/properties must be a map/);
    expect(refusal(() => defineActionTool(definition({ properties: new Map() }))).value).toBe("an instance of Map");
    expect(refusal(() => defineActionTool(definition({ properties: { a: 5 } }))).message).toMatch(/properties\/a must be a schema/);
    const nested = refusal(() =>
      defineActionTool(definition({ properties: { a: { type: "object", properties: { b: { type: "object", properties: "x" } } } } })),
    );
    expect(nested.message).toContain("properties/a/properties/b/properties must be a map");
    const additional = refusal(() => defineActionTool(definition({ properties: { a: { type: "object", additionalProperties: "yes" } } })));
    expect(additional.message).toContain("additionalProperties must be true, false or a schema");
    expect(() =>
      defineActionTool(definition({ properties: { a: { type: "object", additionalProperties: { type: "string" } } } })),
    ).not.toThrow();
    const format = refusal(() => defineActionTool(definition({ properties: { a: { type: "string", format: "not-a-format" } } })));
    expect(format.message).toMatch(/unknown format "not-a-format"/);
    const type = refusal(() => defineActionTool(definition({ properties: { a: { type: "strin" } } })));
    expect(type.message).toMatch(/do not build as JSON Schema/);
    const regex = refusal(() => defineActionTool(definition({ properties: { a: { type: "string", pattern: /x/ } } })));
    expect(regex.message).toMatch(/JSON cannot carry/);
    expect(regex.value).toBe("an instance of RegExp");
  });

  it("[A42] defaults use declared string keys, pass the unknown-key gate, satisfy their schema, and are not required", () => {
    const undeclared = refusal(() => defineActionTool(definition({ defaults: { b: 1 } })));
    expect(undeclared.message).toMatch(/"b", which properties does not declare/);
    const unknownKey = refusal(() =>
      defineActionTool(
        definition({ properties: { o: { type: "object", properties: { x: { type: "string" } } } }, defaults: { o: { x: "1", y: 2 } } }),
      ),
    );
    expect(unknownKey.message).toMatch(/unknown-key gate/);
    expect(unknownKey.message).toContain("/o/y");
    const badValue = refusal(() => defineActionTool(definition({ defaults: { a: 5 } })));
    expect(badValue.message).toMatch(/does not satisfy its schema \(must be string\)/);
    const badFormat = refusal(() =>
      defineActionTool(definition({ properties: { d: { type: "string", format: "date" } }, defaults: { d: "tomorrow" } })),
    );
    expect(badFormat.message).toMatch(/format/);
    const required = refusal(() => defineActionTool(definition({ required: ["a"], defaults: { a: "x" } })));
    expect(required.message).toMatch(/has a default and is required/);
    const notMap = refusal(() => defineActionTool(definition({ defaults: new Map([["a", "x"]]) })));
    expect(notMap.value).toBe("an instance of Map");
  });

  it("[A43] dead configuration: a requiredOneOf group that contains another, a default that is required, a group naming an undeclared property", () => {
    const props = { a: { type: "string" }, b: { type: "string" }, c: { type: "string" } };
    const superset = refusal(() => defineActionTool(definition({ properties: props, requiredOneOf: [["a"], ["a", "b"]] })));
    expect(superset.message).toMatch(/group \["a","b"\] contains every name of another group/);
    const duplicate = refusal(() =>
      defineActionTool(
        definition({
          properties: props,
          requiredOneOf: [
            ["a", "b"],
            ["b", "a"],
          ],
        }),
      ),
    );
    expect(duplicate.message).toMatch(/repeats another group/);
    expect(() =>
      defineActionTool(
        definition({
          properties: props,
          requiredOneOf: [
            ["a", "b"],
            ["b", "c"],
          ],
        }),
      ),
    ).not.toThrow();
    const undeclared = refusal(() => defineActionTool(definition({ requiredOneOf: [["a"], ["zz"]] })));
    expect(undeclared.message).toMatch(/group names "zz", which properties does not declare/);
    const required = refusal(() => defineActionTool(definition({ required: ["a"], defaults: { a: "x" } })));
    expect(required.message).toMatch(/can never apply/);
  });

  it("[A44] an output schema that cannot be built: unknown type, unresolvable $ref, remote $ref (never fetched), a value JSON cannot carry", () => {
    const cases: [unknown, RegExp][] = [
      [{ type: "object", properties: { n: { type: "integr" } } }, /does not build/],
      [{ type: "object", properties: { n: { $ref: "#/$defs/missing" } } }, /can't resolve reference/],
      [{ type: "object", properties: { n: { $ref: "https://example.com/never-fetched.json" } } }, /can't resolve reference/],
      [{ type: "object", properties: { n: { type: "string", pattern: /x/ } } }, /JSON cannot carry/],
      [{ type: "array" }, /root is an object/],
      [new Map(), /must be a JSON Schema object/],
    ];
    for (const [outputSchema, pattern] of cases) {
      const e = refusal(() => defineActionTool(definition({}, { outputSchema })));
      expect(e.callback).toBe("outputSchema");
      expect(e.message).toMatch(pattern);
    }
  });

  it("[A45] validation runs at definition and again at registration; errors name tool, callback, expected shape and value; a map is never a class instance", async () => {
    // The definition moment.
    const e = refusal(() => defineActionTool(definition({ properties: { a: { type: "string", format: "nope" } } })));
    expect(e.tool).toBe("cfg");
    expect(e.callback).toBe("actions");
    expect(e.expected).toBe("schemas ajv can compile, local $ref only, known formats");
    expect(e.value).toMatch(/^an object/);
    expect(e.message).toMatch(/^tool "cfg", actions: action "go": /);
    // The registration moment catches a definition changed after defineActionTool, and one never defined.
    const source = definition();
    const tool = defineActionTool(source);
    (source.actions as Record<string, ActionSchema>).go = { description: "Go\nnow", properties: {} };
    const server = new McpServer({ name: "cfg", version: "1" });
    expect(() => registerActionTool(server, tool)).toThrow(ConfigurationError);
    expect(() => registerActionTool(server, { ...definition(), handleError: "nope" } as never)).toThrow(/handleError must be a function/);
    expect(() => registerActionTool(server, { ...definition(), actions: new (class Actions {})() } as never)).toThrow(
      /an instance of Actions/,
    );
    expect(() => registerActionTool(server, { ...definition(), name: "help" })).toThrow(/reserved/);
    // A class instance is a fine definition (its methods are called on it); its maps must be plain.
    class Counter implements ActionToolDefinition<"count"> {
      name = "counter";
      description = "Counts";
      actions = { count: { description: "Count one up", properties: {} } };
      #n = 0;
      runAction() {
        this.#n += 1;
        return ok({ n: this.#n });
      }
    }
    registerActionTool(server, new Counter());
    expect(() => server.registerTool("help", {}, () => "x")).toThrow(/reserved/);
    // What registration validated is what is served, whatever happens to the definition later.
    const served = definition();
    registerActionTool(server, { ...served, name: "frozen" });
    (served.actions as Record<string, ActionSchema>).go = { description: "Changed", properties: {} };
    const running = await listen(server, { port: 0 });
    try {
      expect((await callTool(running.url, "counter", { action: "count" })).body).toEqual({ n: 1 });
      expect((await callTool(running.url, "counter", { action: "count" })).body).toEqual({ n: 2 });
      const list = await rpc(running.url, "tools/list");
      const frozen = list.json.result.tools.find((t: { name: string }) => t.name === "frozen");
      expect(frozen.inputSchema.properties.action.description).toBe("go: Go");
    } finally {
      await running.close();
    }
  });
});
