import { describe, expect, it } from "vitest";
import { ClientErrorCode, compileOutputSchema } from "../src/index.js";

describe("an outputSchema is read in the dialect its $schema declares", () => {
  it("accepts every spelling of a supported dialect: http or https, with or without #", () => {
    for (const $schema of [
      "https://json-schema.org/draft-07/schema",
      "http://json-schema.org/draft/2020-12/schema#",
      "https://json-schema.org/draft/2019-09/schema",
      "http://json-schema.org/draft-06/schema",
      "http://json-schema.org/draft-04/schema#",
    ]) {
      expect(compileOutputSchema({ $schema, type: "object", required: ["n"] })({}), $schema).toEqual([
        { path: "", message: 'is missing required property "n"' },
      ]);
    }
  });

  it("ignores a $ref's siblings in draft-07, as that dialect says", () => {
    const check = compileOutputSchema({
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: { code: { type: "string" } },
      properties: { code: { $ref: "#/definitions/code", maxLength: 2 } },
    });
    expect(check({ code: "ABCD" })).toEqual([]);
  });

  it("names the supported dialects when refusing another", () => {
    expect(() => compileOutputSchema({ $schema: "http://json-schema.org/draft-03/schema#" })).toThrowError(
      expect.objectContaining({
        code: ClientErrorCode.OutputSchemaUnusable,
        message:
          'The outputSchema\'s dialect "http://json-schema.org/draft-03/schema#" is not supported (supported: 2020-12, 2019-09, draft-07, draft-06, draft-04)',
      }),
    );
  });
});
