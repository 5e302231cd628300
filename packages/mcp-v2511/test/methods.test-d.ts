/** Type-level checks of the method table of 2025-11-25. */
import { describe, expectTypeOf, it } from "vitest";
import type {
  CallToolResult,
  ClientRequestMethod,
  EmptyResult,
  InitializeRequestParams,
  InitializeResult,
  ParamsOf,
  RequestMethods,
  ResponseResultOf,
  ResultOf,
  ServerRequestMethod,
} from "../src/index.js";
import type * as TypesEntry from "../src/types-entry.js";

describe("method table", () => {
  it("pairs each request method with its params and result", () => {
    expectTypeOf<ParamsOf<"initialize">>().toEqualTypeOf<InitializeRequestParams>();
    expectTypeOf<ResultOf<"initialize">>().toEqualTypeOf<InitializeResult>();
    expectTypeOf<ResultOf<"tools/call">>().toEqualTypeOf<CallToolResult>();
    // The schema gives ping no result of its own; the generator pairs it with EmptyResult.
    expectTypeOf<ResultOf<"ping">>().toEqualTypeOf<EmptyResult>();
    // No interim results in this revision: a response holds the result itself.
    expectTypeOf<ResponseResultOf<"tools/call">>().toEqualTypeOf<CallToolResult>();
    // @ts-expect-error: server/discover is 2026-07-28's
    type _Discover = ResultOf<"server/discover">;
  });

  it("splits the methods by sender", () => {
    expectTypeOf<"initialize">().toMatchTypeOf<ClientRequestMethod>();
    expectTypeOf<"sampling/createMessage">().toMatchTypeOf<ServerRequestMethod>();
    expectTypeOf<"ping">().toMatchTypeOf<ClientRequestMethod & ServerRequestMethod>();
    expectTypeOf<"initialize">().not.toMatchTypeOf<ServerRequestMethod>();
  });

  it("is exported from the types-only entry too", () => {
    expectTypeOf<TypesEntry.RequestMethods>().toEqualTypeOf<RequestMethods>();
  });
});
