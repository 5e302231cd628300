/** Type-level checks of the method table, and the handler table a server dispatcher types with it. */
import { describe, expectTypeOf, it } from "vitest";
import type {
  CallToolRequestParams,
  CallToolResult,
  ClientRequestMethod,
  DiscoverResult,
  InputRequiredResult,
  ListToolsResult,
  NotificationMethod,
  NotificationParamsOf,
  ParamsOf,
  ProgressNotificationParams,
  RequestMethod,
  RequestMethods,
  ResponseResultOf,
  ResultOf,
  ServerRequestMethod,
} from "../src/index.js";
import type * as TypesEntry from "../src/types-entry.js";

describe("method table", () => {
  it("pairs each request method with its params and result", () => {
    expectTypeOf<ParamsOf<"tools/call">>().toEqualTypeOf<CallToolRequestParams>();
    expectTypeOf<ResultOf<"tools/call">>().toEqualTypeOf<CallToolResult>();
    expectTypeOf<ResultOf<"server/discover">>().toEqualTypeOf<DiscoverResult>();
    expectTypeOf<ResultOf<"tools/list">>().toEqualTypeOf<ListToolsResult>();
    // A Multi Round-Trip method may answer input_required before its result.
    expectTypeOf<ResponseResultOf<"tools/call">>().toEqualTypeOf<InputRequiredResult | CallToolResult>();
    expectTypeOf<ResponseResultOf<"tools/list">>().toEqualTypeOf<ListToolsResult>();
    expectTypeOf<NotificationParamsOf<"notifications/progress">>().toEqualTypeOf<ProgressNotificationParams>();
  });

  it("has closed method unions, split by sender", () => {
    expectTypeOf<"tools/call">().toMatchTypeOf<ClientRequestMethod>();
    expectTypeOf<"sampling/createMessage">().toMatchTypeOf<RequestMethod>();
    expectTypeOf<"sampling/createMessage">().not.toMatchTypeOf<ClientRequestMethod>();
    expectTypeOf<ServerRequestMethod>().toEqualTypeOf<never>();
    expectTypeOf<"notifications/progress">().toMatchTypeOf<NotificationMethod>();
    // @ts-expect-error: not a request method of 2026-07-28 (initialize is 2025-11-25's)
    type _Initialize = ResultOf<"initialize">;
  });

  it("is exported from the types-only entry too", () => {
    expectTypeOf<TypesEntry.RequestMethods>().toEqualTypeOf<RequestMethods>();
    expectTypeOf<TypesEntry.ResultOf<"tools/call">>().toEqualTypeOf<CallToolResult>();
  });

  it("types a server's handler table and its dispatcher", () => {
    interface Context {
      signal: AbortSignal;
    }
    // The example of the method table's documentation: one optional handler per method.
    type Handlers = { [M in RequestMethod]?: (params: ParamsOf<M>, ctx: Context) => ResultOf<M> | Promise<ResultOf<M>> };
    const handlers: Handlers = {
      "tools/call": async (params) => ({ resultType: "complete", content: [{ type: "text", text: params.name }] }),
      "tools/list": () => ({ resultType: "complete", tools: [], cacheScope: "public", ttlMs: 60_000 }),
    };
    async function dispatch<M extends RequestMethod>(method: M, params: ParamsOf<M>, ctx: Context): Promise<ResultOf<M> | undefined> {
      const handler: Handlers[M] = handlers[method];
      return handler?.(params, ctx);
    }
    expectTypeOf(dispatch("tools/call", {} as CallToolRequestParams, { signal: AbortSignal.abort() })).resolves.toEqualTypeOf<
      CallToolResult | undefined
    >();
    const wrong: Handlers = {
      // @ts-expect-error: a tools/list handler must return a ListToolsResult
      "tools/list": () => ({ resultType: "complete", content: [] }),
    };
    void wrong;
  });
});
