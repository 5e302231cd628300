/** Type-level checks: validate narrows by definition name, validators are type guards, constants are literal types, the method table pairs methods. */
import { describe, expectTypeOf, it } from "vitest";
import type { validateStrict } from "../src/generated/strict.js";
import { CallToolResult as checkCallToolResult } from "../src/generated/validators.js";
import {
  type CallToolResult,
  type ClientRequestMethod,
  type DefinitionName,
  type ElicitResult,
  type EmptyResult,
  ErrorCode,
  type InitializeRequest,
  type InitializeResult,
  type JSONValue,
  Method,
  type PROTOCOL_VERSION,
  type ProgressToken,
  type RequestId,
  type ResponseResultOf,
  type ResultOf,
  type ServerRequestMethod,
  type Tool,
  type ValidationResult,
  validate,
} from "../src/index.js";
import type * as TypesEntry from "../src/types-entry.js";

describe("types of 2025-06-18", () => {
  it("validate and validateStrict narrow to the named definition", () => {
    const result = validate("InitializeRequest", {} as unknown);
    if (result.ok) expectTypeOf(result.value).toEqualTypeOf<InitializeRequest>();
    expectTypeOf<ReturnType<typeof validateStrict<"Tool">>>().toEqualTypeOf<ValidationResult<Tool>>();
    // @ts-expect-error: not a definition name
    validate("NoSuchThing", {});
    expectTypeOf<"JSONValue" extends DefinitionName ? true : false>().toEqualTypeOf<false>();
  });

  it("a validator is a type guard with ajv errors", () => {
    const value: unknown = {};
    if (checkCallToolResult(value)) expectTypeOf(value).toEqualTypeOf<CallToolResult>();
    expectTypeOf(checkCallToolResult.errors).toEqualTypeOf<import("ajv").ErrorObject[] | null | undefined>();
  });

  it("constants are literal types", () => {
    expectTypeOf<typeof PROTOCOL_VERSION>().toEqualTypeOf<"2025-06-18">();
    expectTypeOf(Method.ElicitationCreate).toEqualTypeOf<"elicitation/create">();
    expectTypeOf(ErrorCode.ResourceNotFound).toEqualTypeOf<-32002>();
  });

  it("an elicitation answer may hold any number (the erratum), and untyped values are JSON values", () => {
    expectTypeOf<NonNullable<ElicitResult["content"]>[string]>().toEqualTypeOf<string | number | boolean>();
    expectTypeOf<CallToolResult["structuredContent"]>().toEqualTypeOf<{ [k: string]: JSONValue | undefined } | undefined>();
    expectTypeOf<CallToolResult>().toMatchTypeOf<JSONValue>();
    expectTypeOf<RequestId>().toEqualTypeOf<string | number | bigint>();
    expectTypeOf<ProgressToken>().toEqualTypeOf<string | number | bigint>();
  });

  it("the method table pairs each method with its result, by sender", () => {
    expectTypeOf<ResultOf<"initialize">>().toEqualTypeOf<InitializeResult>();
    expectTypeOf<ResultOf<"elicitation/create">>().toEqualTypeOf<ElicitResult>();
    expectTypeOf<ResultOf<"ping">>().toEqualTypeOf<EmptyResult>();
    expectTypeOf<ResponseResultOf<"tools/call">>().toEqualTypeOf<CallToolResult>();
    expectTypeOf<"elicitation/create">().toMatchTypeOf<ServerRequestMethod>();
    expectTypeOf<"initialize">().toMatchTypeOf<ClientRequestMethod>();
    // @ts-expect-error: tasks are 2025-11-25's
    type _Tasks = ResultOf<"tasks/get">;
    expectTypeOf<TypesEntry.Tool>().toEqualTypeOf<Tool>();
  });
});
