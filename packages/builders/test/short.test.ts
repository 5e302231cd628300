// The short forms of tool results: callToolResult("hi"), strings and helper-built blocks among its entries,
// and the resourceLink / embeddedResource helpers beside text, json, image and audio.
import { describe, expect, it } from "vitest";
import { audio, callToolResult, embeddedResource, image, json, resourceLink, text } from "../src/index.js";
import { expectValid } from "./helpers.js";

describe("short tool results", () => {
  it("callToolResult of a string is one text block", () => {
    const result = callToolResult("hi");
    expect(result).toEqual({ resultType: "complete", content: [{ type: "text", text: "hi" }] });
    expectValid("CallToolResult", result);
  });

  it("takes strings and helper-built blocks among the entries, in order", () => {
    const result = callToolResult([
      "Here:",
      image("aGk=", "image/png"),
      audio("aGk=", "audio/wav"),
      text("and"),
      json({ n: 1 }),
      resourceLink({ uri: "notes://todo", name: "todo", mimeType: "text/plain" }),
      embeddedResource({ uri: "notes://todo", text: "buy milk" }),
      ["data", { n: 1 }],
    ]);
    expect(result.content).toEqual([
      { type: "text", text: "Here:" },
      { type: "image", data: "aGk=", mimeType: "image/png" },
      { type: "audio", data: "aGk=", mimeType: "audio/wav" },
      { type: "text", text: "and" },
      { type: "text", text: '{"n":1}' },
      { type: "resource_link", uri: "notes://todo", name: "todo", mimeType: "text/plain" },
      { type: "resource", resource: { uri: "notes://todo", text: "buy milk" } },
      { type: "text", text: '{"n":1}' },
    ]);
    expect(result.structuredContent).toEqual({ n: 1 });
    expectValid("CallToolResult", result);
    expect(callToolResult(["a", "b"]).content).toEqual([
      { type: "text", text: "a" },
      { type: "text", text: "b" },
    ]);
  });

  it("checks each block of a list entry and names it", () => {
    expect(() => callToolResult([[{ type: "text", text: 1 }] as never])).toThrow(/entries\[0\]\[0\]/);
    expect(() => callToolResult([[{ type: "txt", text: "hi" }] as never])).toThrow(TypeError);
    expect(() => callToolResult([3 as never])).toThrow(/must be a string, a tuple/);
  });

  it("resourceLink and embeddedResource build valid blocks and refuse bad shapes", () => {
    expectValid("CallToolResult", { resultType: "complete", content: resourceLink({ uri: "file:///a", name: "a", size: 3 }) });
    expectValid("CallToolResult", { resultType: "complete", content: embeddedResource({ uri: "file:///a", blob: "aGk=" }) });
    expect(() => resourceLink({ uri: "file:///a" } as never)).toThrow(/link must be an object with string name and uri/);
    expect(() => embeddedResource({ uri: "file:///a", text: "x", blob: "eA==" } as never)).toThrow(/exactly one of text or blob/);
    expect(() => resourceLink({ uri: "file:///a", name: "a", size: 1.5 })).toThrow(TypeError);
  });
});
