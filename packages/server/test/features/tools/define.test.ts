// What a tool is (src/features/tools/define.ts): the published definition, and the checks made once, at registration.
import { validate } from "@x/mcp-v2607";
import { describe, expect, it } from "vitest";
import { McpServer } from "../../../src/index.js";
import { send } from "../../helpers.js";

async function listed(server: McpServer): Promise<Record<string, any>[]> {
  return (await send(server, "tools/list")).result.tools;
}

describe("the published definition", () => {
  it("has the name and an object inputSchema by default, and the optional fields only when given", async () => {
    const s = new McpServer({ name: "d", version: "1" });
    s.registerTool("bare", {}, () => "b");
    const published = {
      title: "Full tool",
      description: "Does everything",
      inputSchema: { type: "object", properties: { q: { type: "string" } } },
      outputSchema: { type: "object", properties: { n: { type: "number" } } },
      annotations: { readOnlyHint: true },
      _meta: { "example.com/owner": "team" },
    } as const;
    s.registerTool("full", { ...published, requiredClientCapabilities: { sampling: {} }, timeoutMs: 1000 }, () => ({
      resultType: "complete",
      content: [],
      structuredContent: { n: 1 },
    }));
    const [bare, full] = await listed(s);
    expect(bare).toEqual({ name: "bare", inputSchema: { type: "object" } });
    // What configures the server's handling (capabilities, run limit) is not published.
    expect(full).toEqual({ name: "full", ...published });
    expect(validate("Tool", full).ok).toBe(true);
  });
});

describe("registration checks", () => {
  it("refuses bad schemas, naming the tool and the schema", () => {
    const s = new McpServer({ name: "r", version: "1" });
    expect(() =>
      s.registerTool("b", { inputSchema: { type: "object", properties: { x: { $ref: "#/$defs/missing" } } } }, () => "b"),
    ).toThrow(/tool b: inputSchema does not compile/);
    expect(() =>
      s.registerTool("c", { inputSchema: { type: "object", properties: { x: { $ref: "https://example.com/schema.json" } } } }, () => "c"),
    ).toThrow(/tool c: inputSchema/);
    expect(() => s.registerTool("d", { inputSchema: { type: "string" } as never }, () => "d")).toThrow(/type "object"/);
    expect(() =>
      s.registerTool("o", { outputSchema: { type: "object", properties: { n: { type: "nonsense" } } } as never }, () => "o"),
    ).toThrow(/tool o: outputSchema does not compile/);
    // A refused registration leaves nothing behind.
    expect(() => s.registerTool("b", {}, () => "b")).not.toThrow();
  });

  it("refuses a schema that is not valid JSON Schema 2020-12, naming the tool and the keyword", () => {
    const s = new McpServer({ name: "v", version: "1" });
    // A misspelt keyword would be ignored, and the arguments left unchecked.
    expect(() =>
      s.registerTool("weather", { inputSchema: { type: "object", properies: { city: { type: "string" } } } }, () => "w"),
    ).toThrow('tool weather: inputSchema has unknown keyword "properies" at (root)');
    expect(() =>
      s.registerTool(
        "weather",
        { inputSchema: { type: "object", properties: { city: { type: "string" } }, require: ["city"] } },
        () => "w",
      ),
    ).toThrow(/^tool weather: inputSchema has unknown keyword "require" at \(root\)/);
    expect(() =>
      s.registerTool("weather", { inputSchema: { type: "object", properties: { city: { type: "string", minLenght: 2 } } } }, () => "w"),
    ).toThrow('tool weather: inputSchema has unknown keyword "minLenght" at /properties/city');
    expect(() =>
      s.registerTool("weather", { outputSchema: { type: "object", properties: { t: { tpye: "number" } } } }, () => ({
        resultType: "complete",
        content: [],
        structuredContent: {},
      })),
    ).toThrow('tool weather: outputSchema has unknown keyword "tpye" at /properties/t');
    // A keyword whose value its dialect does not allow (checked without the meta-schema: the schema is the program's own), and a reference to nowhere.
    expect(() =>
      s.registerTool("weather", { inputSchema: { type: "object", properties: { city: { type: "string" } }, required: "city" } }, () => "w"),
    ).toThrow("tool weather: inputSchema does not compile: schema is invalid: /required must be an array of distinct strings");
    expect(() =>
      s.registerTool("weather", { inputSchema: { type: "object", properties: { city: { $ref: "#/$defs/place" } } } }, () => "w"),
    ).toThrow(/^tool weather: inputSchema does not compile: can't resolve reference #\/\$defs\/place/);
    // Nothing was registered by the refusals.
    expect(() =>
      s.registerTool("weather", { inputSchema: { type: "object", properties: { city: { type: "string" } } } }, () => "w"),
    ).not.toThrow();
  });

  it("allows extension keywords (x-...), and any keyword with strictSchemas: false, which then goes unchecked", async () => {
    const s = new McpServer({ name: "v", version: "1" });
    expect(() =>
      s.registerTool("ext", { inputSchema: { type: "object", properties: { q: { type: "string", "x-vendor-note": "n" } } } }, () => "e"),
    ).not.toThrow();
    const loose = new McpServer({ name: "v", version: "1" }, { strictSchemas: false });
    loose.registerTool("typo", { inputSchema: { type: "object", properies: { n: { type: "number" } } } }, () => "ran");
    const result = (await send(loose, "tools/call", { name: "typo", arguments: { n: "not a number" } })).result;
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: "text", text: "ran" }]);
  });

  it("refuses an empty name even when names are not checked against the spec's rule, and a handler that is not a function", () => {
    const loose = new McpServer({ name: "r", version: "1" }, { strictToolNames: false });
    expect(() => loose.registerTool("", {}, () => "e")).toThrow(/non-empty/);
    expect(() => loose.registerTool("h", {}, "not a function" as never)).toThrow(/tool h: handler must be a function/);
  });

  it("checks x-mcp-header annotations at registration", () => {
    const s = new McpServer({ name: "h", version: "1" });
    const bad = [
      { type: "object", properties: { a: { type: "number", "x-mcp-header": "A" } } },
      { type: "object", properties: { a: { type: "string", "x-mcp-header": "" } } },
      { type: "object", properties: { a: { type: "string", "x-mcp-header": "Bad Name" } } },
      { type: "object", properties: { a: { type: "string", "x-mcp-header": "X" }, b: { type: "string", "x-mcp-header": "x" } } },
      { type: "object", properties: { a: { type: "array", items: { type: "string", "x-mcp-header": "A" } } } },
      { type: "object", properties: { a: { anyOf: [{ type: "string", "x-mcp-header": "A" }] } } },
    ];
    bad.forEach((inputSchema, i) => {
      expect(() => s.registerTool(`t${i}`, { inputSchema: inputSchema as never }, () => "")).toThrow(/x-mcp-header/);
    });
    expect(() =>
      s.registerTool(
        "ok",
        {
          inputSchema: {
            type: "object",
            properties: { o: { type: "object", properties: { r: { type: "string", "x-mcp-header": "Region" } } } },
          },
        },
        () => "",
      ),
    ).not.toThrow();
    // The server's own schema has no depth bound (a client bounds untrusted ones).
    let deep: Record<string, unknown> = { type: "string", "x-mcp-header": "Deep" };
    for (let i = 0; i < 70; i++) deep = { type: "object", properties: { [`p${i}`]: deep } };
    expect(() => s.registerTool("deep", { inputSchema: deep as never }, () => "")).not.toThrow();
  });

  it("resolves local $ref in an input schema", async () => {
    const s = new McpServer({ name: "r", version: "1" });
    s.registerTool(
      "ref",
      { inputSchema: { type: "object", $defs: { n: { type: "integer" } }, properties: { x: { $ref: "#/$defs/n" } } } },
      (a) => String(a.x),
    );
    expect((await send(s, "tools/call", { name: "ref", arguments: { x: 3 } })).result.isError).toBeUndefined();
    expect((await send(s, "tools/call", { name: "ref", arguments: { x: "3" } })).result.isError).toBe(true);
  });
});
