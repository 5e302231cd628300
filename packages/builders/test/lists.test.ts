import { describe, expect, it } from "vitest";
import { cacheHints, defaultCacheControl, listToolsResult } from "../src/index.js";
import { expectValid } from "./helpers.js";

const add = { name: "add", inputSchema: { type: "object" as const } };

describe("cache hints", () => {
  it("[A15] defaultCacheControl is private with ttlMs 0", () => {
    expect(defaultCacheControl()).toEqual({ cacheScope: "private", ttlMs: 0 });
  });

  it("[A16] list builders default both hints and fill a missing one", () => {
    expect(listToolsResult([add])).toMatchObject({ cacheScope: "private", ttlMs: 0 });
    expect(listToolsResult([add], { ttlMs: 5000 })).toMatchObject({ cacheScope: "private", ttlMs: 5000 });
    expect(listToolsResult([add], { cacheScope: "public" })).toMatchObject({ cacheScope: "public", ttlMs: 0 });
  });

  it("invalid hints throw a RangeError naming the argument", () => {
    expect(() => cacheHints({ ttlMs: -1 })).toThrow(RangeError);
    expect(() => cacheHints({ ttlMs: 1.5 })).toThrow(/ttlMs/);
    expect(() => cacheHints({ ttlMs: Number.NaN })).toThrow(/ttlMs/);
    expect(() => cacheHints({ cacheScope: "shared" as never })).toThrow(/cacheScope/);
    expect(() => listToolsResult([add], { ttlMs: -5 })).toThrow(RangeError);
  });
});

describe("listToolsResult", () => {
  it("[A19] keeps a ready Tool and converts a definition by describe()", () => {
    const described = { describe: () => ({ name: "echo", inputSchema: { type: "object" as const } }) };
    const result = listToolsResult([add, described]);
    expect(result.tools[0]).toBe(add);
    expect(result.tools[1]).toEqual({ name: "echo", inputSchema: { type: "object" } });
    expect(result.resultType).toBe("complete");
    expectValid("ListToolsResult", result);
  });

  it("passes nextCursor through, keeps an empty-string cursor, and leaves the key out on the last page", () => {
    expect(listToolsResult([add], { nextCursor: "abc" }).nextCursor).toBe("abc");
    expect(listToolsResult([add], { nextCursor: "" }).nextCursor).toBe("");
    expect("nextCursor" in listToolsResult([add], { nextCursor: null })).toBe(false);
    expect("nextCursor" in listToolsResult([add])).toBe(false);
  });

  it("refuses an element that is not a tool", () => {
    expect(() => listToolsResult([{ nope: 1 }] as never)).toThrow(/tools\[0\]/);
    expect(() => listToolsResult("x" as never)).toThrow(/tools must be an array/);
  });
});
