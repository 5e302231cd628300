// Mistakes in registration and server options that must not compile, and
// hand-built results without `resultType` that must (checked by tsc in the vitest run).
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { McpServer } from "../src/index.js";

const server = new McpServer({ name: "typed", version: "1.0.0" });
const object = { type: "object", properties: { a: { type: "number" } }, required: ["a"] } as const;

describe("an option name that is not one refuses to compile", () => {
  it("on registerTool: a typo and tmcp's name, beside valid options or alone", () => {
    // @ts-expect-error: `inputschema` is a typo of `inputSchema`
    server.registerTool("t", { description: "d", inputschema: object }, () => "t");
    // @ts-expect-error: `schema` is tmcp's name for it
    server.registerTool("t", { description: "d", schema: object }, () => "t");
    const config = { description: "d", inputschema: object } as const;
    // @ts-expect-error: also from a variable
    server.registerTool("t", config, () => "t");
  });

  it("on registerPrompt: the official SDK's argsSchema, beside a valid option", () => {
    // @ts-expect-error: `argsSchema` is not a prompt option (declare `arguments`)
    server.registerPrompt("p", { description: "d", argsSchema: { code: z.string() } }, () => "p");
    const config = { title: "t", argsSchema: {} };
    // @ts-expect-error: also from a variable
    server.registerPrompt("p", config, () => "p");
  });

  it("on registerResource and registerResourceTemplate", () => {
    // @ts-expect-error: `mimetype` is a typo of `mimeType`
    server.registerResource("r", "file:///r", { description: "d", mimetype: "text/plain" }, () => "r");
    // @ts-expect-error: `mimetype` is a typo of `mimeType`
    server.registerResourceTemplate("r", "file:///{name}", { description: "d", mimetype: "text/plain" }, () => "r");
  });

  it("on the McpServer options", () => {
    // @ts-expect-error: `pagesize` is a typo of `pageSize`
    new McpServer({ name: "s", version: "1" }, { logging: true, pagesize: 10 });
  });
});

describe("the good spellings still infer", () => {
  it("types arguments from a JSON Schema literal and from zod, and prompt arguments from their list", () => {
    server.registerTool("json", { description: "d", inputSchema: object }, (args) => {
      expectTypeOf(args.a).toEqualTypeOf<number>();
      return "ok";
    });
    server.registerTool("zod", { inputSchema: z.object({ b: z.string() }), outputSchema: object }, (args) => {
      expectTypeOf(args.b).toEqualTypeOf<string>();
      return { content: [], structuredContent: { a: 1 } };
    });
    server.registerPrompt("p", { description: "d", arguments: [{ name: "code", required: true }] }, (args) => {
      expectTypeOf(args.code).toEqualTypeOf<string>();
      return args.code;
    });
  });
});

describe("resultType may be left out of what a handler returns", () => {
  it("takes hand-built results in tool, prompt and resource handlers", () => {
    server.registerTool("t", {}, () => ({ content: [{ type: "text", text: "hi" }] }));
    server.registerTool("e", { outputSchema: object }, () => ({ content: [{ type: "text", text: "no" }], isError: true }));
    server.registerPrompt("p", {}, () => ({ messages: [{ role: "user", content: { type: "text", text: "hi" } }] }));
    server.registerResource("r", "file:///r", {}, (uri) => ({ contents: [{ uri, text: "hi" }] }));
    server.registerResourceTemplate("f", "file:///{name}", {}, (uri) => ({ contents: [{ uri, text: "hi" }] }));
  });

  it("still refuses a string, or structuredContent of the wrong type, from a tool with an outputSchema", () => {
    // @ts-expect-error: a tool with an outputSchema answers structuredContent
    server.registerTool("s", { outputSchema: object }, () => "hi");
    // @ts-expect-error: `a` is a number
    server.registerTool("w", { outputSchema: object }, () => ({ content: [], structuredContent: { a: "one" } }));
  });
});
