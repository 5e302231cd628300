// A union of alternatives each tagged by a constant member (the content
// blocks by `type`) is reduced by looking the tag up, not by scoring every
// alternative: it must choose as scoring does, for any value.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Definitions, fitsShape, reduce, type Shape } from "../src/reduce.js";

const TAGS = ["text", "image", "resource_link", "resource"] as const;

/** Block definitions shaped like a version's content blocks; `tagShape` says how each `type` constant is written. */
function blocks(tagShape: (tag: string) => Shape): Definitions {
  return {
    Annotations: { p: { audience: { i: { e: ["user", "assistant"] } }, priority: 0 } },
    TextContent: { p: { type: tagShape("text"), text: 0, annotations: "Annotations", _meta: 0 }, r: ["text", "type"] },
    ImageContent: { p: { type: tagShape("image"), data: 0, mimeType: 0, annotations: "Annotations" }, r: ["data", "mimeType", "type"] },
    ResourceLink: { p: { type: tagShape("resource_link"), uri: 0, name: 0, title: 0 }, r: ["name", "type", "uri"] },
    EmbeddedResource: { p: { type: tagShape("resource"), resource: { p: { uri: 0, text: 0 }, r: ["uri"] } }, r: ["resource", "type"] },
    ContentBlock: { u: ["TextContent", "ImageContent", "ResourceLink", "EmbeddedResource"] },
    Strict: { u: ["ImageContent", "ResourceLink"] },
    Result: { p: { content: { i: "ContentBlock" }, only: { i: "Strict" } }, r: ["content"] },
  };
}
/** The tags as constants: the union is looked up by tag. */
const TAGGED = blocks((tag) => ({ c: tag }));
/** The same constants each inside a one-alternative union: the same meaning, but no tag to look up, so every alternative is scored. */
const SCORED = blocks((tag) => ({ u: [{ c: tag }] }));

const member = fc.oneof(
  fc.constantFrom(...TAGS, "audio", 7, null),
  fc.string({ maxLength: 4 }),
  fc.record({ uri: fc.constantFrom("a://b", 3), text: fc.string({ maxLength: 3 }) }, { requiredKeys: [] }),
  fc.record({ audience: fc.array(fc.constantFrom("user", "assistant", "bot"), { maxLength: 2 }) }, { requiredKeys: [] }),
);
const block = fc.oneof(
  fc.dictionary(
    fc.constantFrom("type", "text", "data", "mimeType", "uri", "name", "title", "resource", "annotations", "_meta", "extra"),
    member,
    { maxKeys: 6 },
  ),
  member,
);
const result = fc.record({ content: fc.array(block, { maxLength: 4 }), only: fc.array(block, { maxLength: 2 }) }, { requiredKeys: [] });

describe("a tagged union", () => {
  it("chooses the alternative, keeps the members and says whether the value fits, as scoring every alternative does", () => {
    fc.assert(
      fc.property(result, (value) => {
        const looked = reduce(value, "Result", TAGGED);
        const scored = reduce(value, "Result", SCORED);
        expect(looked).toEqual(scored);
        expect(fitsShape(value, "Result", TAGGED)).toBe(fitsShape(value, "Result", SCORED));
      }),
      { numRuns: 2000 },
    );
  });

  it("turns a block of a type the version lacks into text, and leaves out one that does not fit where no text is possible", () => {
    const value = { content: [{ type: "audio", data: "AA", mimeType: "audio/wav" }], only: [{ type: "text", text: "t" }] };
    const { value: reduced, fits } = reduce<{ content: unknown[]; only: unknown[] }>(value, "Result", TAGGED);
    expect(reduced.content).toEqual([{ type: "text", text: JSON.stringify(value.content[0]) }]);
    expect(reduced.only).toEqual([]);
    expect(fits).toBe(false);
  });
});
