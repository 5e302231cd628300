/** Type-level checks: validate narrows by definition name, validators are type guards, constants are literal types. */
import { describe, expectTypeOf, it } from "vitest";
import {
  type CallToolResult,
  type CreateTaskResult,
  type DefinitionName,
  type DefinitionType,
  ErrorCode,
  type InitializeRequest,
  type JSONRPCRequest,
  type JSONValue,
  Method,
  type ProgressNotificationParams,
  type ProgressToken,
  type PROTOCOL_VERSION,
  type RequestId,
  type TaskStatus,
  type Tool,
  validate,
} from "../src/index.js";
import { CallToolResult as checkCallToolResult } from "../src/generated/validators.js";

describe("types", () => {
  it("validate narrows to the named definition", () => {
    const result = validate("InitializeRequest", {} as unknown);
    if (result.ok) expectTypeOf(result.value).toEqualTypeOf<InitializeRequest>();
    else expectTypeOf(result.problems).toEqualTypeOf<{ path: string; message: string }[]>();
    expectTypeOf<DefinitionType<"Tool">>().toEqualTypeOf<Tool>();
    // @ts-expect-error: not a definition name
    validate("NoSuchThing", {});
  });

  it("JSONValue is a type of this package but not a definition name", () => {
    expectTypeOf<"JSONValue" extends DefinitionName ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<"CreateTaskResult" extends DefinitionName ? true : false>().toEqualTypeOf<true>();
  });

  it("a validator is a type guard with ajv errors", () => {
    const value: unknown = {};
    if (checkCallToolResult(value)) expectTypeOf(value).toEqualTypeOf<CallToolResult>();
    expectTypeOf(checkCallToolResult.errors).toEqualTypeOf<import("ajv").ErrorObject[] | null | undefined>();
  });

  it("constants are literal types", () => {
    expectTypeOf<typeof PROTOCOL_VERSION>().toEqualTypeOf<"2025-11-25">();
    expectTypeOf(Method.Initialize).toEqualTypeOf<"initialize">();
    expectTypeOf<InitializeRequest["method"]>().toEqualTypeOf<typeof Method.Initialize>();
    expectTypeOf(ErrorCode.URLElicitationRequired).toEqualTypeOf<-32042>();
    expectTypeOf<TaskStatus>().toEqualTypeOf<"cancelled" | "completed" | "failed" | "input_required" | "working">();
  });

  it("results carry no resultType: it is only an extra member, typed as any JSON value", () => {
    expectTypeOf<CallToolResult["resultType"]>().toEqualTypeOf<JSONValue | undefined>();
    expectTypeOf<CreateTaskResult["task"]["status"]>().toEqualTypeOf<TaskStatus>();
  });

  it("untyped values are JSON values, and generated objects are JSON values too", () => {
    expectTypeOf<CallToolResult["structuredContent"]>().toEqualTypeOf<{ [k: string]: JSONValue | undefined } | undefined>();
    expectTypeOf<CallToolResult>().toMatchTypeOf<JSONValue>();
    const request: JSONRPCRequest = { jsonrpc: "2.0", id: 1, method: Method.ToolsCall, params: {} as Tool };
    expectTypeOf(request).toMatchTypeOf<JSONRPCRequest>();
    // @ts-expect-error: a Date is not a JSON value
    const bad: CallToolResult = { content: [], structuredContent: { when: new Date() } };
    void bad;
  });

  it("a progress token or a request id beyond 2^53 is a bigint, as parseJson reads it", () => {
    expectTypeOf<ProgressToken>().toEqualTypeOf<string | number | bigint>();
    expectTypeOf<RequestId>().toEqualTypeOf<string | number | bigint>();
    expectTypeOf<ProgressNotificationParams["progressToken"]>().toEqualTypeOf<ProgressToken>();
    const params: ProgressNotificationParams = { progressToken: 9007199254740993n, progress: 1 };
    expectTypeOf(params).toMatchTypeOf<JSONValue>();
  });
});
