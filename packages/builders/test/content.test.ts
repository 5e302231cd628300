import { describe, expect, it } from "vitest";
import { callToolResult, contentBlock, createMessageRequest, getPromptResult } from "../src/index.js";
import { expectValid } from "./helpers.js";

describe("contentBlock", () => {
  it("[A14] text gives TextContent", () => {
    const block = contentBlock(["text", "hello"]);
    expect(block).toEqual({ type: "text", text: "hello" });
    expectValid("TextContent", block);
  });

  it("[A14] image and audio give ImageContent / AudioContent with mimeType and data", () => {
    const image = contentBlock(["image", ["image/png", "aGVsbG8="]]);
    expect(image).toEqual({ type: "image", mimeType: "image/png", data: "aGVsbG8=" });
    expectValid("ImageContent", image);
    const audio = contentBlock(["audio", ["audio/wav", "UklGRg=="]]);
    expect(audio).toEqual({ type: "audio", mimeType: "audio/wav", data: "UklGRg==" });
    expectValid("AudioContent", audio);
  });

  it("[A14] resource {uri,text} or {uri,blob} gives an EmbeddedResource", () => {
    const text = contentBlock(["resource", { uri: "file:///a.txt", text: "hi" }]);
    expect(text).toEqual({ type: "resource", resource: { uri: "file:///a.txt", text: "hi" } });
    expectValid("EmbeddedResource", text);
    const blob = contentBlock(["resource", { uri: "file:///a.bin", blob: "AAE=", mimeType: "application/octet-stream" }]);
    expectValid("EmbeddedResource", blob);
    expect(() => contentBlock(["resource", { uri: "file:///x" } as never])).toThrow(/exactly one of text or blob/);
    expect(() => contentBlock(["resource", { uri: "file:///x", text: "a", blob: "AA==" } as never])).toThrow(TypeError);
  });

  it("[A14] link gives a ResourceLink and keeps extra keys", () => {
    const link = contentBlock(["link", { name: "readme", uri: "file:///readme.md", mimeType: "text/markdown", description: "The readme" }]);
    expect(link).toEqual({
      type: "resource_link",
      name: "readme",
      uri: "file:///readme.md",
      mimeType: "text/markdown",
      description: "The readme",
    });
    expectValid("ResourceLink", link);
  });

  it("[A14] anything else throws a TypeError naming the problem", () => {
    expect(() => contentBlock(["video", "x"] as never)).toThrow(/shorthand tag/);
    expect(() => contentBlock("text" as never)).toThrow(TypeError);
    expect(() => contentBlock(["text", 42] as never)).toThrow(/text must be a string/);
    expect(() => contentBlock(["image", "image/png"] as never)).toThrow(/image must be \[mimeType, base64Data\]/);
  });
});

describe("callToolResult", () => {
  it("mirrors structured content holding a bigint with every digit", () => {
    expect(callToolResult([["data", { n: 9007199254740993n }]])).toEqual({
      resultType: "complete",
      structuredContent: { n: 9007199254740993n },
      content: [{ type: "text", text: '{"n":9007199254740993}' }],
    });
  });

  it("[A1] shorthands become content blocks in the order given", () => {
    const result = callToolResult([
      ["text", "one"],
      ["image", ["image/png", "aGk="]],
      ["audio", ["audio/wav", "aGk="]],
      ["resource", { uri: "file:///r", text: "r" }],
      ["link", { name: "l", uri: "file:///l" }],
    ]);
    expect(result.content.map((c) => c.type)).toEqual(["text", "image", "audio", "resource", "resource_link"]);
    expectValid("CallToolResult", result);
  });

  it("[A2] literal content blocks are appended unchanged (copies) and mix with shorthands", () => {
    const literal = { type: "text" as const, text: "literal", annotations: { priority: 1 } };
    const result = callToolResult([["text", "a"], literal, ["text", "b"]]);
    expect(result.content).toEqual([{ type: "text", text: "a" }, literal, { type: "text", text: "b" }]);
    expect(result.content[1]).not.toBe(literal);
    expectValid("CallToolResult", result);
  });

  it("[A3] data sets structuredContent and appends its JSON text", () => {
    const result = callToolResult([["data", { rows: 3, ok: true }]]);
    expect(result.structuredContent).toEqual({ rows: 3, ok: true });
    expect(result.content).toEqual([{ type: "text", text: '{"rows":3,"ok":true}' }]);
    expectValid("CallToolResult", result);
  });

  it("[A4] _data sets structuredContent with no text mirror", () => {
    const result = callToolResult([["_data", { rows: 3 }]]);
    expect(result.structuredContent).toEqual({ rows: 3 });
    expect(result.content).toEqual([]);
    expectValid("CallToolResult", result);
  });

  it("[A5] a bare map behaves like data; blocks are told apart by type", () => {
    const result = callToolResult([{ rows: 3 }]);
    expect(result.structuredContent).toEqual({ rows: 3 });
    expect(result.content).toEqual([{ type: "text", text: '{"rows":3}' }]);
    const withBlock = callToolResult([{ type: "text", text: "block" }]);
    expect(withBlock.structuredContent).toBeUndefined();
    expect(withBlock.content).toEqual([{ type: "text", text: "block" }]);
  });

  it("[A6] error:true sets isError and a later error:false does not clear it", () => {
    const result = callToolResult([
      ["error", true],
      ["error", false],
      ["text", "x"],
    ]);
    expect(result.isError).toBe(true);
    expectValid("CallToolResult", result);
  });

  it("[A7] error:false or null alone leave isError absent", () => {
    expect("isError" in callToolResult([["error", false]])).toBe(false);
    expect("isError" in callToolResult([["error", null]])).toBe(false);
    const plain = callToolResult([["text", "42"]]);
    expect("isError" in plain).toBe(false);
    expect(plain).toEqual({ resultType: "complete", content: [{ type: "text", text: "42" }] });
  });

  it("[A8] error:'msg' appends the message and sets isError", () => {
    const result = callToolResult([["error", "boom"]]);
    expect(result).toEqual({ resultType: "complete", content: [{ type: "text", text: "boom" }], isError: true });
    expectValid("CallToolResult", result);
  });

  it("[A9] a second data, _data or bare map throws", () => {
    expect(() =>
      callToolResult([
        ["data", { a: 1 }],
        ["_data", { b: 2 }],
      ]),
    ).toThrow(/already set/);
    expect(() => callToolResult([{ a: 1 }, ["data", { b: 2 }]])).toThrow(TypeError);
    expect(() => callToolResult([["_data", { a: 1 }], { b: 2 }])).toThrow(TypeError);
  });

  it("[A10] resultType is always complete", () => {
    for (const entries of [[], [["text", "a"]], [["error", "e"]], [["data", { a: 1 }]]] as const) {
      expect(callToolResult(entries as never).resultType).toBe("complete");
    }
  });

  it("[A11] text plus data gives structuredContent and two blocks", () => {
    const result = callToolResult([
      ["text", "3 rows"],
      ["data", { rows: 3 }],
    ]);
    expect(result.structuredContent).toEqual({ rows: 3 });
    expect(result.content).toHaveLength(2);
    expectValid("CallToolResult", result);
  });

  it("wrong input throws a TypeError naming the entry", () => {
    expect(() => callToolResult({} as never)).toThrow(/entries must be an array/);
    expect(() => callToolResult([["nope", 1]] as never)).toThrow(/entries\[0\] has an unknown tag/);
    expect(() => callToolResult([42] as never)).toThrow(/entries\[0\]/);
    expect(() => callToolResult([["error", 3]] as never)).toThrow(/error must be/);
    expect(() => callToolResult([["data", [1, 2]]] as never)).toThrow(/data must be a plain object/);
  });
});

describe("an object whose type is no content block's", () => {
  it("is data (structuredContent and its JSON text), as a domain object passed to the builder is", () => {
    const result = callToolResult([{ type: "invoice", total: 3 }]);
    expect(result).toEqual({
      resultType: "complete",
      structuredContent: { type: "invoice", total: 3 },
      content: [{ type: "text", text: '{"type":"invoice","total":3}' }],
    });
    expectValid("CallToolResult", result);
    expectValid("CallToolResult", callToolResult([["text", "1 invoice"], { type: 7, lines: [] }]));
  });

  it("throws when it has only members content blocks have: a misspelt block, not data", () => {
    for (const block of [
      { type: "txt", text: "hi" },
      { type: "Text", text: "hi" },
      { type: "link", name: "a", uri: "file:///a" },
      { type: "img", data: "aGk=", mimeType: "image/png" },
      { type: "invoice" },
    ]) {
      expect(() => callToolResult([block as never])).toThrow(
        /entries\[0\] looks like a content block, but its type .* is none of text, image, audio, resource, resource_link; to send it as data, pass \["data", value\]/,
      );
    }
    // Wrapped, the same object is data.
    expect(callToolResult([["data", { type: "txt", text: "hi" }]]).structuredContent).toEqual({ type: "txt", text: "hi" });
  });

  it("a block of a known type is checked as that block, member by member", () => {
    const cases: [unknown, RegExp][] = [
      [{ type: "text", text: 5 }, /entries\[0\]\.text must be a string/],
      [{ type: "image", data: "aGk=" }, /entries\[0\]\.mimeType must be a string/],
      [{ type: "resource", resource: { uri: "file:///a" } }, /entries\[0\]\.resource must have exactly one of text or blob/],
      [{ type: "resource_link", name: "a", uri: "file:///a", size: 1.5 }, /entries\[0\]\.size must be an integer/],
      [{ type: "text", text: "a", annotations: { priority: 2 } }, /entries\[0\]\.annotations\.priority must be a number from 0 to 1/],
      [{ type: "text", text: "a", annotations: { priority: Number.NaN } }, /entries\[0\]\.annotations\.priority is NaN/],
      [{ type: "text", text: "a", _meta: [] }, /entries\[0\]\._meta must be a plain object/],
    ];
    for (const [block, message] of cases) expect(() => callToolResult([block as never])).toThrow(message);
    expect(() => contentBlock(["link", { name: "a", uri: "file:///a", icons: [{ sizes: ["1x1"] }] }] as never)).toThrow(
      /link\.icons\[0\]\.src must be a string/,
    );
  });

  it("data JSON cannot carry (a number that is not finite, a cycle) throws instead of turning into null", () => {
    expect(() => callToolResult([["data", { ratio: Number.NaN }]])).toThrow(/entries\[0\]\[1\]\.ratio is NaN, which JSON cannot carry/);
    expect(() => callToolResult([{ total: Number.POSITIVE_INFINITY }])).toThrow(/entries\[0\]\.total is Infinity/);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => callToolResult([["_data", cycle]])).toThrow(/entries\[0\]\[1\]\.self holds itself \(a cycle\)/);
  });

  it("where only a content block fits (a prompt message, a sampling message), it throws", () => {
    expect(() => getPromptResult([{ role: "user", content: { type: "invoice", total: 3 } } as never])).toThrow(
      /entries\[0\]\.content\.type must be one of text, image, audio, resource, resource_link/,
    );
    expect(() =>
      createMessageRequest({ messages: [{ role: "user", content: { type: "invoice", total: 3 } as never }], maxTokens: 10 }),
    ).toThrow(/messages\[0\]\.content\.type must be one of text, image, audio, tool_use, tool_result/);
  });
});
