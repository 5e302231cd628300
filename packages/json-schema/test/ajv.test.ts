import { describe, expect, it } from "vitest";
import { ajvValidator, newAjv, trustedAjv } from "../src/ajv.js";
import { compileSchema, DIALECT_KEYWORDS, SUPPORTED_DIALECTS } from "../src/index.js";

describe("trustedAjv", () => {
  it("is one instance per dialect, the one compileSchema uses, with formats asserted and ajv's error objects", () => {
    expect(trustedAjv("2020-12")).toBe(trustedAjv("2020-12"));
    expect(trustedAjv("draft-07")).not.toBe(trustedAjv("2020-12"));
    const check = trustedAjv("2020-12").compile({ type: "object", properties: { url: { type: "string", format: "uri" } } });
    expect(check({ url: "https://a.example" })).toBe(true);
    expect(check({ url: "not a uri" })).toBe(false);
    expect(check.errors?.[0]).toMatchObject({ instancePath: "/url", keyword: "format", params: { format: "uri" } });
    // compileSchema compiles on the same instance: a format added to it is asserted there too.
    trustedAjv("2020-12").addFormat("x-even-length", /^(?:..)*$/);
    const even = compileSchema({ type: "string", format: "x-even-length" }, { validator: ajvValidator });
    expect(even("ab")).toEqual([]);
    expect(even("abc")).toHaveLength(1);
  });
});

describe("DIALECT_KEYWORDS", () => {
  it("are the keywords ajv's instance of each dialect knows, and $anchor from 2019-09 on", () => {
    for (const dialect of SUPPORTED_DIALECTS) {
      const ajv = Object.keys(newAjv(dialect).RULES.keywords);
      if (dialect === "2020-12" || dialect === "2019-09") ajv.push("$anchor");
      expect([...DIALECT_KEYWORDS[dialect]].sort(), dialect).toEqual(ajv.sort());
    }
  });
});
