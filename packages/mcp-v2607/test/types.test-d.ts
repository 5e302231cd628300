/** Type-level checks: validate narrows by definition name, the guards narrow result unions. */
import { describe, expectTypeOf, it } from "vitest";
import {
  type CallToolResult,
  type CallToolResultResponse,
  type DefinitionType,
  type InputRequiredResult,
  isCompleteResult,
  isInputRequiredResult,
  type JSONRPCRequest,
  type JSONValue,
  Method,
  type ProgressNotificationParams,
  type ProgressToken,
  type RequestId,
  type ResultType,
  type Tool,
  validate,
} from "../src/index.js";
import { CallToolResult as checkCallToolResult } from "../src/generated/validators.js";

describe("types", () => {
  it("validate narrows to the named definition", () => {
    const result = validate("CallToolResult", {} as unknown);
    if (result.ok) expectTypeOf(result.value).toEqualTypeOf<CallToolResult>();
    else expectTypeOf(result.problems).toEqualTypeOf<{ path: string; message: string }[]>();
    expectTypeOf<DefinitionType<"Tool">>().toEqualTypeOf<Tool>();
    // @ts-expect-error: not a definition name
    validate("NoSuchThing", {});
  });

  it("a validator is a type guard with ajv errors", () => {
    const value: unknown = {};
    if (checkCallToolResult(value)) expectTypeOf(value).toEqualTypeOf<CallToolResult>();
    expectTypeOf(checkCallToolResult.errors).toEqualTypeOf<import("ajv").ErrorObject[] | null | undefined>();
  });

  it("the guards split CallToolResult | InputRequiredResult", () => {
    const result = {} as CallToolResultResponse["result"];
    if (isInputRequiredResult(result)) {
      expectTypeOf(result.resultType).toEqualTypeOf<"input_required">();
      expectTypeOf(result.inputRequests).toEqualTypeOf<InputRequiredResult["inputRequests"]>();
    } else if (isCompleteResult(result)) {
      expectTypeOf(result).toEqualTypeOf<CallToolResult>();
    }
  });

  it("ResultType and Method are closed unions", () => {
    expectTypeOf<ResultType>().toEqualTypeOf<"complete" | "input_required">();
    expectTypeOf(Method.ToolsCall).toEqualTypeOf<"tools/call">();
  });

  it("untyped values are JSON values, and generated objects are JSON values too", () => {
    expectTypeOf<CallToolResult["structuredContent"]>().toEqualTypeOf<JSONValue | undefined>();
    expectTypeOf<CallToolResult>().toMatchTypeOf<JSONValue>();
    const request: JSONRPCRequest = { jsonrpc: "2.0", id: 1, method: Method.ToolsCall, params: {} as Tool };
    expectTypeOf(request).toMatchTypeOf<JSONRPCRequest>();
    // @ts-expect-error: a Date is not a JSON value
    const bad: CallToolResult = { resultType: "complete", content: [], structuredContent: new Date() };
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
