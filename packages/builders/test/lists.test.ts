import { describe, expect, it } from "vitest";
import {
  cacheHints,
  defaultCacheControl,
  listPromptsResult,
  listResourcesResult,
  listResourceTemplatesResult,
  type ListResultOptions,
  listToolsResult,
  readResourceResult,
} from "../src/index.js";
import { expectValid } from "./helpers.js";

const add = { name: "add", inputSchema: { type: "object" as const } };
const readme = { name: "readme", uri: "file:///readme.md", mimeType: "text/markdown" };
const greet = { name: "greet", description: "Say hello", arguments: [{ name: "who", required: true }] };
const fileTemplate = { name: "file", uriTemplate: "file:///{path}", mimeType: "text/plain" };

describe("cache hints", () => {
  it("[A15] defaultCacheControl is private with ttlMs 0", () => {
    expect(defaultCacheControl()).toEqual({ cacheScope: "private", ttlMs: 0 });
  });

  it("[A16] list builders default both hints and fill a missing one", () => {
    expect(listToolsResult([add])).toMatchObject({ cacheScope: "private", ttlMs: 0 });
    expect(listToolsResult([add], { ttlMs: 5000 })).toMatchObject({ cacheScope: "private", ttlMs: 5000 });
    expect(listToolsResult([add], { cacheScope: "public" })).toMatchObject({ cacheScope: "public", ttlMs: 0 });
  });

  it("[A16] every list and read builder defaults to private/0 and fills the missing hint", () => {
    const build = [
      (o?: object) => listToolsResult([add], o),
      (o?: object) => listResourcesResult([readme], null, o),
      (o?: object) => listPromptsResult([greet], null, o),
      (o?: object) => listResourceTemplatesResult([fileTemplate], o),
      (o?: object) => readResourceResult({ uri: "file:///a.txt", text: "a", ...o }),
    ];
    for (const builder of build) {
      expect(builder()).toMatchObject({ cacheScope: "private", ttlMs: 0 });
      expect(builder({ ttlMs: 60_000 })).toMatchObject({ cacheScope: "private", ttlMs: 60_000 });
      expect(builder({ cacheScope: "public" })).toMatchObject({ cacheScope: "public", ttlMs: 0 });
      expect(builder({ cacheScope: "public", ttlMs: 5 })).toMatchObject({ cacheScope: "public", ttlMs: 5 });
      expect(() => builder({ ttlMs: -1 })).toThrow(/ttlMs/);
      expect(() => builder({ ttlMs: 2.5 })).toThrow(RangeError);
      expect(() => builder({ cacheScope: "everyone" })).toThrow(/cacheScope/);
    }
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
  it("[A19] keeps a ready Tool (a copy) and converts a definition by describe()", () => {
    const described = { describe: () => ({ name: "echo", inputSchema: { type: "object" as const } }) };
    const result = listToolsResult([add, described]);
    expect(result.tools[0]).toEqual(add);
    expect(result.tools[0]).not.toBe(add);
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

describe("listResourcesResult / listPromptsResult / listResourceTemplatesResult", () => {
  it("[A20] listResourcesResult passes nextCursor through and keeps the resources as given", () => {
    const result = listResourcesResult([readme], "page-2");
    expect(result).toEqual({ resultType: "complete", resources: [readme], nextCursor: "page-2", cacheScope: "private", ttlMs: 0 });
    expect(result.resources[0]).not.toBe(readme);
    expectValid("ListResourcesResult", result);
  });

  it("[A20] listPromptsResult passes nextCursor through and keeps the prompts as given", () => {
    const result = listPromptsResult([greet], "p2", { cacheScope: "public", ttlMs: 1000 });
    expect(result).toEqual({ resultType: "complete", prompts: [greet], nextCursor: "p2", cacheScope: "public", ttlMs: 1000 });
    expect(result.prompts[0]).not.toBe(greet);
    expectValid("ListPromptsResult", result);
  });

  it("[A20] null or undefined means the last page: no nextCursor key; an empty string is a valid cursor", () => {
    for (const build of [(c?: string | null) => listResourcesResult([], c), (c?: string | null) => listPromptsResult([], c)]) {
      expect("nextCursor" in build(null)).toBe(false);
      expect("nextCursor" in build(undefined)).toBe(false);
      expect("nextCursor" in build()).toBe(false);
      expect(build("").nextCursor).toBe("");
    }
    expectValid("ListResourcesResult", listResourcesResult([], null));
    expectValid("ListPromptsResult", listPromptsResult([], ""));
  });

  it("[A20] the cursor may come from the shared options type; both given and different throws", () => {
    expect(listResourcesResult([], undefined, { nextCursor: "opt" }).nextCursor).toBe("opt");
    expect(listPromptsResult([], "same", { nextCursor: "same" }).nextCursor).toBe("same");
    expect(() => listResourcesResult([], "a", { nextCursor: "b" })).toThrow(/nextCursor is given twice/);
    expect(() => listPromptsResult([], null, { nextCursor: "b" })).toThrow(TypeError);
    expect(() => listResourcesResult([], 5 as never)).toThrow(/nextCursor must be a string/);
  });

  it("[A20] listResourceTemplatesResult takes no cursor", () => {
    const result = listResourceTemplatesResult([fileTemplate], { ttlMs: 10 });
    expect(result).toEqual({ resultType: "complete", resourceTemplates: [fileTemplate], cacheScope: "private", ttlMs: 10 });
    expect("nextCursor" in result).toBe(false);
    expectValid("ListResourceTemplatesResult", result);
    expect(() => listResourceTemplatesResult([fileTemplate], { nextCursor: "x" } as never)).toThrow(/takes no cursor/);
    const shared: ListResultOptions = { ttlMs: 5, nextCursor: null };
    expect(listResourceTemplatesResult([], shared)).toEqual({
      resultType: "complete",
      resourceTemplates: [],
      cacheScope: "private",
      ttlMs: 5,
    });
  });

  it("refuses non-arrays and malformed items with a TypeError naming the argument", () => {
    expect(() => listResourcesResult("x" as never)).toThrow(/resources must be an array/);
    expect(() => listResourcesResult([{ name: "n" }] as never)).toThrow(/resources\[0\]/);
    expect(() => listPromptsResult([{ title: "t" }] as never)).toThrow(/prompts\[0\]/);
    expect(() => listResourceTemplatesResult([readme] as never)).toThrow(/templates\[0\]/);
    expect(() => listPromptsResult([], null, "fast" as never)).toThrow(/options must be a plain object/);
  });
});
