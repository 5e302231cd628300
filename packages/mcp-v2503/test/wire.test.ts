/** The wire rules of 2025-03-26: session and resumption headers but no protocol version header, batches, session ids of visible ASCII. */
import { describe, expect, it } from "vitest";
import * as wire from "../src/wire.js";

describe("2025-03-26 wire rules", () => {
  it("has the session and resumption headers, in lower case, and no MCP-Protocol-Version", () => {
    expect(wire.Header).toEqual({ sessionId: "mcp-session-id", lastEventId: "last-event-id" });
    expect(Object.isFrozen(wire.Header)).toBe(true);
    expect(Object.values(wire.Header)).not.toContain("mcp-protocol-version");
    expect("VERSION_WITHOUT_HEADER" in wire).toBe(false);
  });

  it("has JSON-RPC batches", () => {
    expect(wire.BATCHES).toBe(true);
  });

  it("accepts session ids of visible ASCII within the length bound only", () => {
    expect(wire.isValidSessionId("a1-B2_c3")).toBe(true);
    expect(wire.isValidSessionId("x".repeat(wire.MAX_SESSION_ID_LENGTH))).toBe(true);
    expect(wire.isValidSessionId("x".repeat(wire.MAX_SESSION_ID_LENGTH + 1))).toBe(false);
    expect(wire.isValidSessionId("")).toBe(false);
    expect(wire.isValidSessionId("has space")).toBe(false);
    expect(wire.isValidSessionId(42)).toBe(false);
  });
});
