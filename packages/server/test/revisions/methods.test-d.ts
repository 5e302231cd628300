// Type-level tests of the method table's typing (src/methods.ts, src/features/feature.ts): the methods a
// server serves come from the generated table of @x/mcp-v2607 and the tasks extension, and a feature's
// entry may say it asks only on a method whose answer may be input_required.
import type { ClientRequestMethod } from "@x/mcp-v2607";
import { describe, expectTypeOf, it } from "vitest";
import type { MethodEntry, MethodTable, TypedEntry } from "../../src/features/feature.js";
import type { AskingMethod, ServerMethod } from "../../src/methods.js";

describe("the server's methods", () => {
  it("are the generated table's client requests and the tasks extension's", () => {
    expectTypeOf<ServerMethod>().toEqualTypeOf<ClientRequestMethod | "tasks/get" | "tasks/update" | "tasks/cancel">();
  });

  it("ask only where the schema admits an InputRequiredResult", () => {
    expectTypeOf<AskingMethod>().toEqualTypeOf<"tools/call" | "prompts/get" | "resources/read">();
  });

  it("type each entry by its method, and every typed entry is a dispatch entry (no cast at dispatch)", () => {
    const table: MethodTable = {
      "tools/call": {
        enabled: () => true,
        asks: true,
        handle: (params) => ({ resultType: "complete", content: [{ type: "text", text: String(params.name) }] }),
      },
      // @ts-expect-error: tools/list's answer is never input_required, so its handler may not ask
      "tools/list": { enabled: () => true, asks: true, handle: () => ({ resultType: "complete", tools: [] }) },
    };
    expectTypeOf(table["tools/call"]).toMatchTypeOf<MethodEntry | undefined>();
    expectTypeOf<TypedEntry<"prompts/get">>().toMatchTypeOf<MethodEntry>();
  });

  it("read params as sent: each member unknown until checked", () => {
    const entry: TypedEntry<"tools/call"> = {
      enabled: () => true,
      handle: (params) => {
        expectTypeOf(params.name).toEqualTypeOf<unknown>();
        return { resultType: "complete", content: [] };
      },
    };
    expectTypeOf(entry).toMatchTypeOf<MethodEntry>();
  });
});
