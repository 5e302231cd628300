/** isCompleteResult / isInputRequiredResult read `resultType` and refuse kinds this revision does not define. */
import { describe, expect, it } from "vitest";
import { isCompleteResult, isInputRequiredResult } from "../src/index.js";

describe("result guards", () => {
  it('a "complete" result is complete, not input_required', () => {
    const result = { resultType: "complete", content: [] };
    expect(isCompleteResult(result)).toBe(true);
    expect(isInputRequiredResult(result)).toBe(false);
  });

  it('an "input_required" result is input_required, not complete', () => {
    const result = { resultType: "input_required", requestState: "abc" };
    expect(isInputRequiredResult(result)).toBe(true);
    expect(isCompleteResult(result)).toBe(false);
  });

  it("an absent resultType counts as complete (results of servers of earlier revisions)", () => {
    expect(isCompleteResult({ content: [] })).toBe(true);
    expect(isCompleteResult({})).toBe(true);
    expect(isInputRequiredResult({ content: [] })).toBe(false);
  });

  it.each([["task"], ["Complete"], ["INPUT_REQUIRED"], [""], [" complete"], ["incomplete"]])(
    "an unknown resultType %j is neither",
    (resultType) => {
      expect(isCompleteResult({ resultType })).toBe(false);
      expect(isInputRequiredResult({ resultType })).toBe(false);
    },
  );

  it.each([[null], [undefined], [1], [true], [["complete"]], [{ kind: "complete" }]])(
    "a non-string resultType %j is neither",
    (resultType) => {
      expect(isCompleteResult({ resultType })).toBe(false);
      expect(isInputRequiredResult({ resultType })).toBe(false);
    },
  );

  it.each([[null], [undefined], ["complete"], [42], [[]], [[{ resultType: "complete" }]]])("a non-object %j is neither", (value) => {
    expect(isCompleteResult(value)).toBe(false);
    expect(isInputRequiredResult(value)).toBe(false);
  });

  it("reads only own properties", () => {
    const inherited = Object.create({ resultType: "input_required" }) as object;
    expect(isInputRequiredResult(inherited)).toBe(false);
    expect(isCompleteResult(inherited)).toBe(true);
  });
});
