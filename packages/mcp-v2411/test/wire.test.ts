/** The wire rules of 2024-11-05: HTTP with SSE (its event names), no MCP headers, no batches. */
import { describe, expect, it } from "vitest";
import * as wire from "../src/wire.js";

describe("2024-11-05 wire rules", () => {
  it("names the two SSE events of HTTP with SSE", () => {
    expect(wire.SseEvent).toEqual({ endpoint: "endpoint", message: "message" });
    expect(Object.isFrozen(wire.SseEvent)).toBe(true);
  });

  it("has no MCP headers and no JSON-RPC batches", () => {
    expect(Object.keys(wire).sort()).toEqual(["BATCHES", "SseEvent"]);
    expect(wire.BATCHES).toBe(false);
  });
});
