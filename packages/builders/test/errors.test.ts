import { ErrorCode } from "@x/mcp-v2607";
import { describe, expect, it } from "vitest";
import {
  headerMismatch,
  internalError,
  invalidParams,
  invalidRequest,
  jsonRpcError,
  methodNotFound,
  missingRequiredClientCapability,
  parseError,
  unsupportedProtocolVersion,
} from "../src/index.js";
import { expectValid } from "./helpers.js";

describe("JSON-RPC error builders", () => {
  it("each spec code builds a valid error response of its own definition", () => {
    expectValid("JSONRPCErrorResponse", parseError());
    expect(parseError().error.code).toBe(-32700);
    expect("id" in parseError()).toBe(false);
    expect(invalidRequest(1).error.code).toBe(-32600);
    expect(methodNotFound(2, "initialize")).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32601, message: "Method not found: initialize", data: { method: "initialize" } },
    });
    expect(invalidParams("a", "Unknown tool: x", { name: "x" }).error).toEqual({
      code: -32602,
      message: "Unknown tool: x",
      data: { name: "x" },
    });
    expect(internalError(3).error.code).toBe(-32603);
    const mismatch = headerMismatch(4, "Mcp-Name header does not match");
    expect(mismatch.error.code).toBe(ErrorCode.HeaderMismatch);
    expectValid("HeaderMismatchError", mismatch);
    const missing = missingRequiredClientCapability(5, { elicitation: {} });
    expect(missing.error.data).toEqual({ requiredCapabilities: { elicitation: {} } });
    expectValid("MissingRequiredClientCapabilityError", missing);
    const unsupported = unsupportedProtocolVersion(6, "1999-01-01", ["2026-07-28"]);
    expect(unsupported.error.data).toEqual({ supported: ["2026-07-28"], requested: "1999-01-01" });
    expectValid("UnsupportedProtocolVersionError", unsupported);
  });

  it("refuses a non-integer code, a non-string message and a bad id", () => {
    expect(() => jsonRpcError(1, 1.5, "x")).toThrow(/code must be an integer/);
    expect(() => jsonRpcError(1, -32000, 5 as never)).toThrow(/message must be a string/);
    expect(() => jsonRpcError(null as never, -32000, "x")).toThrow(/id must be/);
  });
});
