// The generators and the oracle, without a server: valid requests are valid
// by the revision's schema, the mutations are not, and the oracle counts
// what it should.
import { validate } from "@x/mcp-v2607";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Case, renderId } from "../src/cases.js";
import { check } from "../src/check.js";
import { KNOWN_OPEN, VIOLATION_KINDS } from "../src/config.js";
import { BAD_META_MEMBERS, caseArbitrary, FAMILIES, validRequest } from "../src/generators.js";
import { canonicalNumber, ID_SLOT, parseLossless, plain, Raw, stringify } from "../src/json.js";

const DEFINITION: Record<string, Parameters<typeof validate>[0]> = {
  "tools/call": "CallToolRequest",
  "tools/list": "ListToolsRequest",
  "resources/list": "ListResourcesRequest",
  "resources/templates/list": "ListResourceTemplatesRequest",
  "resources/read": "ReadResourceRequest",
  "prompts/list": "ListPromptsRequest",
  "prompts/get": "GetPromptRequest",
  "server/discover": "DiscoverRequest",
};

describe("generators", () => {
  it("builds valid requests the schema accepts, method by method", () => {
    for (const r of fc.sample(validRequest, { seed: 1, numRuns: 300 })) {
      const message = { jsonrpc: "2.0", id: 1, method: r.method, params: plain(r.params) };
      const definition = DEFINITION[r.method];
      expect(definition, r.method).toBeDefined();
      // Numbers beyond a double (1e400) are not JSON-Schema numbers once parsed; the rest must pass.
      if (stringify(r.params).match(/e\d{3,}|E\d{3,}/)) continue;
      const checked = validate(definition!, message);
      expect(checked.ok ? [] : checked.problems, `${r.name}: ${stringify(r.params).slice(0, 200)}`).toEqual([]);
    }
  });

  it("makes _meta members of the wrong type, which the schema refuses", () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    expect(validate("RequestMetaObject", meta).ok).toBe(true);
    for (const [member, value] of BAD_META_MEMBERS) {
      const bad = { ...meta, [member]: plain(value) };
      expect(validate("RequestMetaObject", bad).ok, `${member}: ${JSON.stringify(value)}`).toBe(false);
    }
  });

  it("renders unique ids, and big integers no double holds", () => {
    const texts = new Set<string>();
    for (let k = 0; k < 200; k++) texts.add(renderId({ kind: "bigint", prefix: "9007199254740" }, k));
    expect(texts.size).toBe(200);
    for (const t of texts) expect(String(Number(t))).not.toBe(t);
    expect(renderId({ kind: "int-alt", form: "exponent" }, 7)).toBe("1000007e0");
  });

  it("generates every family for its transports, deterministically from the seed", () => {
    const one = fc.sample(caseArbitrary("http"), { seed: 42, numRuns: 50 }).map((c: Case) => c.category);
    const two = fc.sample(caseArbitrary("http"), { seed: 42, numRuns: 50 }).map((c: Case) => c.category);
    expect(one).toEqual(two);
    const stdio = fc.sample(caseArbitrary("stdio"), { seed: 1, numRuns: 500 });
    expect(stdio.every((c) => c.transports.includes("stdio"))).toBe(true);
    expect(FAMILIES.length).toBeGreaterThan(20);
  });

  it("names only known kinds in KNOWN_OPEN", () => {
    for (const k of KNOWN_OPEN) expect(VIOLATION_KINDS).toContain(k.kind);
  });
});

describe("lossless JSON", () => {
  it("keeps every digit of numbers, both ways", () => {
    const text = '{"a":9007199254740993,"b":1e400,"c":[1.0,-0,"\\ud800"],"__proto__":{"x":1}}';
    const parsed = parseLossless(text);
    expect(stringify(parsed as never)).toBe(text);
    expect(Object.keys(parsed as object)).toContain("__proto__");
    expect(stringify({ id: ID_SLOT, n: new Raw("1e400") }, "12")).toBe('{"id":12,"n":1e400}');
  });

  it("compares numbers by exact value", () => {
    expect(canonicalNumber("1.0")).toBe(canonicalNumber("1"));
    expect(canonicalNumber("1e3")).toBe(canonicalNumber("1000"));
    expect(canonicalNumber("-0")).toBe(canonicalNumber("0"));
    expect(canonicalNumber("9007199254740993")).not.toBe(canonicalNumber("9007199254740992"));
  });

  it("refuses what JSON.parse refuses", () => {
    for (const bad of ["{", "[1,]", "01", "1.", "'a'", '{"a":1}x', '"\\x"', "NaN"]) {
      expect(() => parseLossless(bad), bad).toThrow();
    }
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(() => parseLossless(deep)).not.toThrow();
  });
});

describe("oracle", () => {
  const answer = (body: string, status = 200) =>
    ({ transport: "http", method: "POST", timedOut: false, status, contentType: "application/json", body }) as const;

  it("tells a big integer id answered changed from one answered right", () => {
    const expectation = { answer: "response", id: "same", outcome: "result", status: [200] } as const;
    const wrong = check(expectation, answer('{"jsonrpc":"2.0","id":9007199254740992,"result":{}}'), "9007199254740993", "valid/x");
    expect(wrong.map((v) => v.kind)).toEqual(["id-bigint-changed"]);
    expect(check(expectation, answer('{"jsonrpc":"2.0","id":9007199254740993,"result":{}}'), "9007199254740993", "valid/x")).toEqual([]);
  });

  it("classifies numbers an echo changed by what was sent", () => {
    const args = { a: new Raw("9007199254740993"), b: new Raw("1e400"), c: new Raw("1e-400"), d: 1.5 };
    const expectation = { answer: "response", id: "same", outcome: "result", probe: { kind: "echo", args } } as const;
    const body =
      '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","structuredContent":{"a":9007199254740992,"b":null,"c":1,"d":1.25}}}';
    expect(check(expectation, answer(body), "1", "valid/echo").map((v) => v.kind)).toEqual([
      "number-bigint-changed",
      "number-nonfinite",
      "number-precision-lost",
      "number-changed",
    ]);
    // Decimals are doubles by contract: 1e-400 echoed as its nearest double (0) is no violation.
    const nearest = '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","structuredContent":{"c":0}}}';
    const decimal = { answer: "response", id: "same", outcome: "result", probe: { kind: "echo", args: { c: new Raw("1e-400") } } } as const;
    expect(check(decimal, answer(nearest), "1", "valid/echo")).toEqual([]);
  });

  it("counts an answer to a notification, a wrong code, and a text/plain 404", () => {
    const silent = { answer: "silent", silentKind: "answered-notification", status: [202] } as const;
    expect(
      check(silent, answer('{"jsonrpc":"2.0","error":{"code":-32600,"message":"x"}}', 400), undefined, "n").map((v) => v.kind),
    ).toEqual(["answered-notification"]);
    const parse = { answer: "response", id: "none", outcome: { codes: [-32700] }, wrongCode: "wrong-code-parse", status: [400] } as const;
    expect(check(parse, answer('{"jsonrpc":"2.0","error":{"code":-32600,"message":"x"}}', 400), undefined, "p").map((v) => v.kind)).toEqual(
      ["wrong-code-parse"],
    );
    const path = { answer: "response", id: "same-or-none", outcome: "any", status: [404] } as const;
    const text = { transport: "http", method: "POST", timedOut: false, status: 404, contentType: "text/plain", body: "Not found" } as const;
    expect(check(path, text, "1", "path/other").map((v) => v.kind)).toEqual(["non-json-other-path"]);
  });
});
