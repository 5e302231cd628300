import type { PromptMessage } from "@x/mcp-v2607";
import { describe, expect, it } from "vitest";
import { contentBlock, getPromptResult } from "../src/index.js";
import { expectValid } from "./helpers.js";

describe("getPromptResult", () => {
  it("[A26] text gives a user text message; assistant gives an assistant text message", () => {
    const result = getPromptResult([
      ["text", "hello"],
      ["assistant", "hi there"],
    ]);
    expect(result).toEqual({
      resultType: "complete",
      messages: [
        { role: "user", content: { type: "text", text: "hello" } },
        { role: "assistant", content: { type: "text", text: "hi there" } },
      ],
    });
    expect("description" in result).toBe(false);
    expectValid("GetPromptResult", result);
  });

  it("[A26] image, audio and resource give user messages", () => {
    const result = getPromptResult([
      ["image", ["image/png", "aGk="]],
      ["audio", ["audio/wav", "UklGRg=="]],
      ["resource", { uri: "file:///main.rs", text: "fn main() {}", mimeType: "text/x-rust" }],
    ]);
    expect(result.messages.map((m) => [m.role, m.content.type])).toEqual([
      ["user", "image"],
      ["user", "audio"],
      ["user", "resource"],
    ]);
    expect(result.messages[0]?.content).toEqual({ type: "image", mimeType: "image/png", data: "aGk=" });
    expectValid("GetPromptResult", result);
  });

  it("[A26] link is accepted (revision 2026-07-28 allows it): a user message with a ResourceLink", () => {
    const result = getPromptResult([["link", { name: "main.rs", uri: "file:///project/src/main.rs", mimeType: "text/x-rust" }]]);
    expect(result.messages).toEqual([
      {
        role: "user",
        content: { type: "resource_link", name: "main.rs", uri: "file:///project/src/main.rs", mimeType: "text/x-rust" },
      },
    ]);
    expectValid("GetPromptResult", result);
    expectValid("PromptMessage", result.messages[0]);
  });

  it("[A26] a ready {role, content} is kept as given (a copy)", () => {
    const ready: PromptMessage = { role: "assistant", content: contentBlock(["audio", ["audio/mp3", "aGk="]]) };
    const result = getPromptResult([["text", "describe this sound"], ready]);
    expect(result.messages[1]).toEqual(ready);
    expect(result.messages[1]).not.toBe(ready);
    expect(result.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expectValid("GetPromptResult", result);
  });

  it("[A26] description is set from the option", () => {
    const result = getPromptResult([["text", "hello"]], { description: "greeting" });
    expect(result.description).toBe("greeting");
    expectValid("GetPromptResult", result);
    expect("description" in getPromptResult([], { description: null })).toBe(false);
    expect(() => getPromptResult([], { description: 3 as never })).toThrow(/description must be a string/);
  });

  it("[A26] roles come out in input order", () => {
    const result = getPromptResult([
      ["assistant", "a1"],
      ["text", "u1"],
      { role: "user", content: { type: "text", text: "u2" } },
      ["assistant", "a2"],
      ["image", ["image/png", "aGk="]],
    ]);
    expect(result.messages.map((m) => m.role)).toEqual(["assistant", "user", "user", "assistant", "user"]);
    expect(result.messages.map((m) => (m.content.type === "text" ? m.content.text : m.content.type))).toEqual([
      "a1",
      "u1",
      "u2",
      "a2",
      "image",
    ]);
    expectValid("GetPromptResult", result);
  });

  it("wrong entries throw a TypeError naming the entry", () => {
    expect(() => getPromptResult("x" as never)).toThrow(/entries must be an array/);
    expect(() => getPromptResult([["video", "x"]] as never)).toThrow(/entries\[0\] has an unknown tag/);
    expect(() =>
      getPromptResult([
        ["text", "ok"],
        ["assistant", 5],
      ] as never),
    ).toThrow(/entries\[1\]: assistant takes a text string/);
    expect(() => getPromptResult([["image", "nope"]] as never)).toThrow(/entries\[0\]: image must be/);
    expect(() => getPromptResult([["description", "d"]] as never)).toThrow(/pass description as an option/);
    expect(() => getPromptResult([{ role: "system", content: { type: "text", text: "x" } }] as never)).toThrow(/entries\[0\]\.role/);
    expect(() => getPromptResult([{ role: "user", content: "x" }] as never)).toThrow(/entries\[0\]\.content/);
    expect(() => getPromptResult([42] as never)).toThrow(/entries\[0\]/);
  });
});
