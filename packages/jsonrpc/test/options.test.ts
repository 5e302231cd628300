// Options checked by name (src/options.ts): the rule the server and the client share.
import { describe, expect, it } from "vitest";
import { rejectMisspelt, rejectUnknown } from "../src/index.js";

const known = ["inputSchema", "outputSchema", "path"];

describe("rejectUnknown", () => {
  it("passes known names and no options at all", () => {
    expect(() => rejectUnknown("tool t", { inputSchema: {}, path: "/" }, known)).not.toThrow();
    expect(() => rejectUnknown("tool t", undefined, known)).not.toThrow();
  });

  it("names the key and the option within two edits, or another case", () => {
    expect(() => rejectUnknown("tool t", { inputschema: {} }, known)).toThrow(
      new TypeError('tool t has no option "inputschema"; did you mean "inputSchema"?'),
    );
    expect(() => rejectUnknown("tool t", { PATH: "/" }, known)).toThrow(/did you mean "path"\?/);
  });

  it("lists the options when none is near (a short name must match but for case)", () => {
    expect(() => rejectUnknown("tool t", { schema: {} }, known)).toThrow(
      new TypeError('tool t has no option "schema" (options: inputSchema, outputSchema, path)'),
    );
    expect(() => rejectUnknown("tool t", { pat: "/" }, known)).toThrow(/\(options: /);
  });
});

describe("rejectMisspelt", () => {
  it("refuses a near miss only, and lets a member of the object's own through", () => {
    expect(() => rejectMisspelt("provider", { outputschema: {}, mine: 1 }, known)).toThrow(/did you mean "outputSchema"/);
    expect(() => rejectMisspelt("provider", { somethingElse: 1 }, known)).not.toThrow();
  });
});
