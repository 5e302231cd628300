/** The wire rules of 2025-06-18: the three Streamable HTTP headers, no batches, session ids of visible ASCII. */
import { describe, expect, it } from "vitest";
import { BATCHES, Header, isValidSessionId, MAX_SESSION_ID_LENGTH, VERSION_WITHOUT_HEADER } from "../src/wire.js";

describe("2025-06-18 wire rules", () => {
  it("has the session, protocol version and resumption headers, in lower case", () => {
    expect(Header).toEqual({ sessionId: "mcp-session-id", protocolVersion: "mcp-protocol-version", lastEventId: "last-event-id" });
    expect(Object.isFrozen(Header)).toBe(true);
    expect(VERSION_WITHOUT_HEADER).toBe("2025-03-26");
  });

  it("has no JSON-RPC batches", () => {
    expect(BATCHES).toBe(false);
  });

  it("accepts session ids of visible ASCII within the length bound only", () => {
    expect(isValidSessionId("a1-B2_c3")).toBe(true);
    expect(isValidSessionId("x".repeat(MAX_SESSION_ID_LENGTH))).toBe(true);
    expect(isValidSessionId("x".repeat(MAX_SESSION_ID_LENGTH + 1))).toBe(false);
    expect(isValidSessionId("")).toBe(false);
    expect(isValidSessionId("has space")).toBe(false);
    expect(isValidSessionId("é")).toBe(false);
    expect(isValidSessionId(42)).toBe(false);
  });
});
