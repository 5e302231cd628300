// Type-level tests of what a handler's context declares: every value it can receive at run time,
// a bigint included (parseJson reads an integer beyond 2^53 as one).
import type { RequestId } from "@x/jsonrpc";
import type { ProgressToken as ProgressToken2511 } from "@x/mcp-v2511";
import type { ProgressToken, RequestId as RequestId2607 } from "@x/mcp-v2607";
import { describe, expectTypeOf, it } from "vitest";
import { McpServer, type RequestContext } from "../src/index.js";

const server = new McpServer({ name: "typed", version: "1.0.0" });

describe("the request context", () => {
  it("types a progress token as a string, a number or a bigint, in both revisions", () => {
    expectTypeOf<RequestContext["meta"]["progressToken"]>().toEqualTypeOf<string | number | bigint | undefined>();
    expectTypeOf<ProgressToken>().toEqualTypeOf<ProgressToken2511>();
    server.registerTool("progress", {}, (_args, ctx) => {
      const token = ctx.meta.progressToken;
      if (typeof token === "bigint") expectTypeOf(token).toEqualTypeOf<bigint>();
      return "ok";
    });
  });

  it("types a request id as @x/jsonrpc's RequestId, the same type as the revision's", () => {
    expectTypeOf<RequestContext["requestId"]>().toEqualTypeOf<RequestId>();
    expectTypeOf<RequestId2607>().toEqualTypeOf<RequestId>();
  });
});
