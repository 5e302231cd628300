import { describe, expect, it } from "vitest";
import { audio, image, json, text } from "../src/index.js";
import { expectValid } from "./helpers.js";

describe("one-line content builders", () => {
  it("[A39] text, json, image and audio are pure and return non-empty content arrays", () => {
    const cases = [
      [text("hi"), [{ type: "text", text: "hi" }]],
      [json({ rows: 3, ok: true }), [{ type: "text", text: '{"rows":3,"ok":true}' }]],
      [image("aGk=", "image/png"), [{ type: "image", data: "aGk=", mimeType: "image/png" }]],
      [audio("aGk=", "audio/wav"), [{ type: "audio", data: "aGk=", mimeType: "audio/wav" }]],
    ] as const;
    for (const [made, expected] of cases) {
      expect(made).toEqual(expected);
      expect(made.length).toBeGreaterThan(0);
      expectValid("CallToolResult", { resultType: "complete", content: made });
    }
    // Pure: equal inputs give equal, independent outputs.
    const input = { a: [1] };
    const first = json(input);
    expect(json(input)).toEqual(first);
    expect(json(input)).not.toBe(first);
    expect(input).toEqual({ a: [1] });
  });

  it("writes a bigint with every digit", () => {
    expect(json({ id: 2n ** 64n, n: 1 })).toEqual([{ type: "text", text: '{"id":18446744073709551616,"n":1}' }]);
  });

  it("refuses what it cannot build with a TypeError", () => {
    expect(() => text(3 as never)).toThrow(TypeError);
    expect(() => json(undefined)).toThrow(/cannot be written as JSON/);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => json(cycle)).toThrow(TypeError);
    expect(() => image("aGk=", undefined as never)).toThrow(/two strings/);
    expect(() => audio(1 as never, "audio/wav")).toThrow(TypeError);
  });
});
