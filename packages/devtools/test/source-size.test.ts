import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_SOURCE_LINES, sourceSizes } from "../../../test-support/source-size.js";

describe("the devtools' source files", () => {
  it(`are each at most ${MAX_SOURCE_LINES} lines`, () => {
    const { count, over } = sourceSizes(resolve("src"));
    expect(count).toBeGreaterThan(0);
    expect(over).toEqual([]);
  });
});
