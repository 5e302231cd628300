import { describe, expect, it } from "vitest";
import { unknownKeyword } from "../src/index.js";

describe("unknownKeyword", () => {
  it("finds a misspelt keyword at the root and names where it is", () => {
    expect(unknownKeyword({ type: "object", properies: { city: { type: "string" } } })).toEqual({ keyword: "properies", path: "" });
    expect(unknownKeyword({ type: "object", require: ["city"] })).toEqual({ keyword: "require", path: "" });
  });

  it("walks subschemas: properties, items, combinators, $defs, conditionals", () => {
    expect(unknownKeyword({ type: "object", properties: { "a/b": { type: "string", minLenght: 1 } } })).toEqual({
      keyword: "minLenght",
      path: "/properties/a~1b",
    });
    expect(unknownKeyword({ type: "array", items: { type: "object", propertys: {} } })).toEqual({ keyword: "propertys", path: "/items" });
    expect(unknownKeyword({ anyOf: [{ type: "string" }, { type: "number", maximun: 3 }] })).toEqual({
      keyword: "maximun",
      path: "/anyOf/1",
    });
    expect(unknownKeyword({ $defs: { a: { enumm: [1] } } })).toEqual({ keyword: "enumm", path: "/$defs/a" });
    expect(unknownKeyword({ if: { type: "string" }, else: { formt: "email" } })).toEqual({ keyword: "formt", path: "/else" });
    expect(unknownKeyword({ type: "object", additionalProperties: { tpye: "string" } })).toEqual({
      keyword: "tpye",
      path: "/additionalProperties",
    });
  });

  it("accepts every keyword of 2020-12 in use, meta-data and core included", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: "https://example.com/s",
      $comment: "c",
      title: "t",
      description: "d",
      type: "object",
      properties: {
        a: { type: "string", default: "x", examples: ["y"], deprecated: true, readOnly: true, format: "email", minLength: 1 },
        b: { type: "array", prefixItems: [{ type: "integer" }], items: false, contains: { const: 1 }, minContains: 1 },
        c: { $ref: "#/$defs/c" },
        d: { type: "string", contentMediaType: "application/json", contentEncoding: "base64" },
      },
      required: ["a"],
      dependentRequired: { a: ["b"] },
      unevaluatedProperties: false,
      $defs: { c: { enum: [1, 2] }, e: { $anchor: "e", type: "string" } },
    };
    expect(unknownKeyword(schema)).toBeUndefined();
  });

  it("lets extension keywords starting with x- pass, and does not read data (const, enum, default, examples) as schemas", () => {
    expect(unknownKeyword({ type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } })).toBeUndefined();
    expect(
      unknownKeyword({ const: { notAKeyword: 1 }, enum: [{ alsoNot: 2 }], default: { nope: 3 }, examples: [{ no: 4 }] }),
    ).toBeUndefined();
  });

  it("reads keywords by the declared dialect", () => {
    // `definitions` and `dependencies` are draft-07's; `prefixItems` is not.
    expect(
      unknownKeyword({
        $schema: "http://json-schema.org/draft-07/schema#",
        definitions: { a: { type: "string" } },
        dependencies: { a: ["b"] },
      }),
    ).toBeUndefined();
    expect(unknownKeyword({ $schema: "http://json-schema.org/draft-07/schema#", prefixItems: [] })).toEqual({
      keyword: "prefixItems",
      path: "",
    });
    expect(unknownKeyword({ $schema: "http://json-schema.org/draft-04/schema#", id: "x", type: "string" })).toBeUndefined();
    expect(
      unknownKeyword({ $schema: "https://json-schema.org/draft/2019-09/schema", $anchor: "a", $recursiveAnchor: true }),
    ).toBeUndefined();
    expect(unknownKeyword({ $schema: "http://json-schema.org/draft-07/schema#", $anchor: "a" })).toEqual({ keyword: "$anchor", path: "" });
  });
});
