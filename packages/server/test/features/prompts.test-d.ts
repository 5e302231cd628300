// Type-level tests of registerPrompt's typing from a literal `arguments` list (checked by tsc in the vitest run).
import { describe, expectTypeOf, it } from "vitest";
import { McpServer } from "../../src/index.js";

const server = new McpServer({ name: "typed", version: "1.0.0" });

describe("registerPrompt from literal arguments", () => {
  it("types a required argument as string and an optional one as string | undefined", () => {
    server.registerPrompt("review", { arguments: [{ name: "code", required: true }, { name: "style" }] }, (args) => {
      expectTypeOf(args.code).toEqualTypeOf<string>();
      expectTypeOf(args.style).toEqualTypeOf<string | undefined>();
      return args.code;
    });
  });

  it("refuses a handler that treats an optional argument as always there", () => {
    server.registerPrompt(
      "review",
      { arguments: [{ name: "code", required: true }, { name: "style" }] },
      // @ts-expect-error: `style` is optional, so the handler may get undefined
      (args: { style: string }) => args.style,
    );
  });

  it("refuses a misspelt argument name", () => {
    server.registerPrompt("review", { arguments: [{ name: "name", required: true }] }, (args) => {
      // @ts-expect-error: `nmae` is not a declared argument
      const { nmae } = args;
      return String(nmae);
    });
  });

  it("gives Record<string, string> without arguments", () => {
    server.registerPrompt("plain", {}, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, string>>();
      return "hi";
    });
  });
});
