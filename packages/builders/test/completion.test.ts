import { describe, expect, it } from "vitest";
import { completeResult, MAX_COMPLETION_VALUES } from "../src/index.js";
import { expectValid } from "./helpers.js";

describe("completeResult", () => {
  it("builds a CompleteResult with values, total and hasMore", () => {
    const result = completeResult(["python", "pytorch", "pyside"], { total: 10, hasMore: true });
    expect(result).toEqual({ resultType: "complete", completion: { values: ["python", "pytorch", "pyside"], total: 10, hasMore: true } });
    expectValid("CompleteResult", result);
  });

  it("leaves total and hasMore out unless given, and copies the values", () => {
    const values = ["flask"];
    const result = completeResult(values);
    expect(result).toEqual({ resultType: "complete", completion: { values: ["flask"] } });
    expect(result.completion.values).not.toBe(values);
    expect(completeResult([], { total: null, hasMore: null }).completion).toEqual({ values: [] });
    expect(completeResult([], { hasMore: false }).completion).toEqual({ values: [], hasMore: false });
    expectValid("CompleteResult", completeResult([]));
  });

  it("accepts exactly 100 values and refuses 101 with a RangeError naming values", () => {
    const hundred = Array.from({ length: MAX_COMPLETION_VALUES }, (_, i) => `v${i}`);
    expectValid("CompleteResult", completeResult(hundred));
    expect(() => completeResult([...hundred, "one more"])).toThrow(RangeError);
    expect(() => completeResult([...hundred, "one more"])).toThrow(/values must hold at most 100/);
  });

  it("refuses wrong input with a TypeError or RangeError naming the argument", () => {
    expect(() => completeResult("a" as never)).toThrow(/values must be an array/);
    expect(() => completeResult(["a", 1] as never)).toThrow(/values\[1\] must be a string/);
    expect(() => completeResult(["a", "b"], { total: 1 })).toThrow(RangeError);
    expect(() => completeResult(["a"], { total: 1.5 })).toThrow(/total must be an integer/);
    expect(() => completeResult(["a"], { total: -1 })).toThrow(/total/);
    expect(() => completeResult(["a"], { hasMore: "yes" as never })).toThrow(/hasMore must be a boolean/);
  });
});
