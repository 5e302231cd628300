import { describe, expect, it } from "vitest";
import { readResourceResult, resourceContents } from "../src/index.js";
import { expectValid } from "./helpers.js";

describe("readResourceResult", () => {
  it("[A21] flat form: uri plus text builds exactly one text entry", () => {
    const result = readResourceResult({ uri: "file:///readme.txt", text: "# Welcome" });
    expect(result).toEqual({
      resultType: "complete",
      contents: [{ uri: "file:///readme.txt", text: "# Welcome" }],
      cacheScope: "private",
      ttlMs: 0,
    });
    expectValid("ReadResourceResult", result);
  });

  it("[A21] flat form: uri plus blob and a mime type builds exactly one blob entry", () => {
    const result = readResourceResult({ uri: "file:///logo.png", blob: "iVBORw0KGgo=", mimeType: "image/png" });
    expect(result.contents).toEqual([{ uri: "file:///logo.png", mimeType: "image/png", blob: "iVBORw0KGgo=" }]);
    expectValid("ReadResourceResult", result);
  });

  it("[A22] flat form: a missing uri throws a TypeError naming uri", () => {
    expect(() => readResourceResult({ text: "x" } as never)).toThrow(TypeError);
    expect(() => readResourceResult({ text: "x" } as never)).toThrow(/uri is required/);
    expect(() => readResourceResult({ uri: 42, text: "x" } as never)).toThrow(/uri/);
  });

  it("[A22] flat form: neither text nor blob throws; both throws too", () => {
    expect(() => readResourceResult({ uri: "file:///a" } as never)).toThrow(/text or blob is required/);
    expect(() => readResourceResult({ uri: "file:///a", text: null, blob: null })).toThrow(TypeError);
    expect(() => readResourceResult({ uri: "file:///a", text: "t", blob: "AA==" } as never)).toThrow(/exactly one of text or blob/);
  });

  it("[A23] contents form: the flat options are ignored", () => {
    const entry = resourceContents({ uri: "file:///a.txt", text: "first" });
    const result = readResourceResult({ contents: [entry], uri: "file:///ignored", text: "ignored", blob: 7, mimeType: "x/y" });
    expect(result.contents).toEqual([{ uri: "file:///a.txt", text: "first" }]);
    expect(result.contents[0]).not.toBe(entry); // a copy: see plain-data.test.ts
    expectValid("ReadResourceResult", result);
  });

  it("[A23] contents form: several entries are kept in order and an empty list is allowed", () => {
    const result = readResourceResult({
      contents: [
        resourceContents({ uri: "file:///a.txt", text: "first" }),
        resourceContents({ uri: "file:///b.png", blob: "aGk=", mimeType: "image/png" }),
        { uri: "file:///c.txt", text: "hand-written" },
      ],
    });
    expect(result.contents.map((c) => c.uri)).toEqual(["file:///a.txt", "file:///b.png", "file:///c.txt"]);
    expectValid("ReadResourceResult", result);
    const empty = readResourceResult({ contents: [] });
    expect(empty.contents).toEqual([]);
    expectValid("ReadResourceResult", empty);
  });

  it("[A23] contents form: a non-object item throws a TypeError naming its index", () => {
    expect(() => readResourceResult({ contents: ["file:///a.txt"] as never })).toThrow(/contents\[0\]/);
    expect(() => readResourceResult({ contents: [resourceContents({ uri: "file:///a", text: "a" }), null] as never })).toThrow(
      /contents\[1\]/,
    );
    expect(() => readResourceResult({ contents: [{ uri: "file:///a" }] as never })).toThrow(/contents\[0\]/);
    expect(() => readResourceResult({ contents: "nope" as never })).toThrow(/contents must be an array/);
  });

  it("[A24] the result-level _meta is separate from each entry's _meta", () => {
    const entry = resourceContents({ uri: "file:///a.txt", text: "a", _meta: { "com.example/etag": "v1" } });
    const result = readResourceResult({ contents: [entry], _meta: { "com.example/source": "disk" } });
    expect(result._meta).toEqual({ "com.example/source": "disk" });
    expect(result.contents[0]?._meta).toEqual({ "com.example/etag": "v1" });
    expectValid("ReadResourceResult", result);
    const flat = readResourceResult({ uri: "file:///b.txt", text: "b", _meta: { "com.example/source": "cache" } });
    expect(flat._meta).toEqual({ "com.example/source": "cache" });
    expect("_meta" in (flat.contents[0] as object)).toBe(false);
    expectValid("ReadResourceResult", flat);
    expect(() => readResourceResult({ uri: "file:///b", text: "b", _meta: "x" as never })).toThrow(/_meta must be/);
  });
});

describe("resourceContents", () => {
  it("[A25] uri is required", () => {
    expect(() => resourceContents({ text: "x" } as never)).toThrow(/uri is required/);
    expect(() => resourceContents({ uri: "", text: "x" })).toThrow(TypeError);
    expect(() => resourceContents("file:///a" as never)).toThrow(/plain object/);
  });

  it("[A25] text gives TextResourceContents, blob gives BlobResourceContents", () => {
    const text = resourceContents({ uri: "file:///a.txt", text: "hi", mimeType: "text/plain" });
    expect(text).toEqual({ uri: "file:///a.txt", mimeType: "text/plain", text: "hi" });
    expectValid("TextResourceContents", text);
    const blob = resourceContents({ uri: "file:///a.bin", blob: "AAE=", _meta: { "com.example/k": 1 } });
    expect(blob).toEqual({ uri: "file:///a.bin", blob: "AAE=", _meta: { "com.example/k": 1 } });
    expectValid("BlobResourceContents", blob);
    expect("text" in blob).toBe(false);
  });

  it("[A25] decided rule: exactly one of text and blob; both or neither throws", () => {
    expect(() => resourceContents({ uri: "file:///a", text: "t", blob: "AA==" } as never)).toThrow(/exactly one of text or blob.*both/);
    expect(() => resourceContents({ uri: "file:///a" } as never)).toThrow(/exactly one of text or blob.*neither/);
    // The empty string is a body; null counts as absent.
    expect(resourceContents({ uri: "file:///a", text: "" })).toEqual({ uri: "file:///a", text: "" });
    expect(resourceContents({ uri: "file:///a", text: null, blob: "AA==" } as never)).toEqual({ uri: "file:///a", blob: "AA==" });
  });

  it("[A25] wrong types name the argument", () => {
    expect(() => resourceContents({ uri: "file:///a", text: 5 } as never)).toThrow(/text must be a string/);
    expect(() => resourceContents({ uri: "file:///a", blob: [] } as never)).toThrow(/blob must be a string/);
    expect(() => resourceContents({ uri: "file:///a", text: "t", mimeType: 1 } as never)).toThrow(/mimeType/);
    expect(() => resourceContents({ uri: "file:///a", text: "t", _meta: [] } as never)).toThrow(/_meta/);
  });
});
