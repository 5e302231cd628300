// Type-level tests of the short result forms (checked by tsc in the vitest run).
import type { EmbeddedResource, ResourceLink } from "@x/mcp-v2607";
import { describe, expectTypeOf, it } from "vitest";
import { callToolResult, embeddedResource, image, resourceLink, text } from "../src/index.js";

describe("short tool results", () => {
  it("accepts a string, and strings and helper-built blocks among the entries", () => {
    callToolResult("hi");
    callToolResult(["hi"]);
    callToolResult(["hi", image("aGk=", "image/png"), text("x"), ["data", { n: 1 }]]);
    expectTypeOf(resourceLink({ uri: "a://b", name: "b" })).toEqualTypeOf<[ResourceLink]>();
    expectTypeOf(embeddedResource({ uri: "a://b", text: "t" })).toEqualTypeOf<[EmbeddedResource]>();
  });

  it("refuses misuse", () => {
    // @ts-expect-error: a number is no entry
    callToolResult([3]);
    // @ts-expect-error: image takes (base64Data, mimeType)
    image("aGk=");
    // @ts-expect-error: a link needs a name
    resourceLink({ uri: "a://b" });
    // @ts-expect-error: an embedded resource needs text or blob
    embeddedResource({ uri: "a://b" });
    // @ts-expect-error: a block with a wrong member type
    callToolResult([[{ type: "text", text: 1 }]]);
  });
});
