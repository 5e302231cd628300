/** Type-level checks: validate narrows by definition name, validators are type guards, constants are literal types, the method table pairs methods. */
import { describe, expectTypeOf, it } from "vitest";
import type { validateStrict } from "../src/generated/strict.js";
import { CallToolResult as checkCallToolResult } from "../src/generated/validators.js";
import {
  type CallToolResult,
  type ClientRequestMethod,
  type EmptyResult,
  ErrorCode,
  type InitializeRequest,
  type InitializeResult,
  type JSONValue,
  Method,
  type PROTOCOL_VERSION,
  type ResultOf,
  type ServerRequestMethod,
  type Tool,
  type ValidationResult,
  validate,
} from "../src/index.js";
import type * as TypesEntry from "../src/types-entry.js";

describe("types of 2024-11-05", () => {
  it("validate and validateStrict narrow to the named definition", () => {
    const result = validate("InitializeRequest", {} as unknown);
    if (result.ok) expectTypeOf(result.value).toEqualTypeOf<InitializeRequest>();
    expectTypeOf<ReturnType<typeof validateStrict<"Tool">>>().toEqualTypeOf<ValidationResult<Tool>>();
    // @ts-expect-error: not a definition name
    validate("ElicitResult", {});
  });

  it("a validator is a type guard, and constants are literal types", () => {
    const value: unknown = {};
    if (checkCallToolResult(value)) expectTypeOf(value).toEqualTypeOf<CallToolResult>();
    expectTypeOf<typeof PROTOCOL_VERSION>().toEqualTypeOf<"2024-11-05">();
    expectTypeOf(Method.ToolsCall).toEqualTypeOf<"tools/call">();
    expectTypeOf(ErrorCode.InvalidParams).toEqualTypeOf<-32602>();
  });

  it("generated objects are JSON values, and there are no batches", () => {
    expectTypeOf<CallToolResult>().toMatchTypeOf<JSONValue>();
    // @ts-expect-error: batches are 2025-03-26's
    validate("JSONRPCBatchRequest", []);
  });

  it("the method table pairs each method with its result, by sender", () => {
    expectTypeOf<ResultOf<"initialize">>().toEqualTypeOf<InitializeResult>();
    expectTypeOf<ResultOf<"ping">>().toEqualTypeOf<EmptyResult>();
    expectTypeOf<"sampling/createMessage">().toMatchTypeOf<ServerRequestMethod>();
    expectTypeOf<"initialize">().toMatchTypeOf<ClientRequestMethod>();
    // @ts-expect-error: elicitation is 2025-06-18's
    type _Elicit = ResultOf<"elicitation/create">;
    expectTypeOf<TypesEntry.Tool>().toEqualTypeOf<Tool>();
  });
});
