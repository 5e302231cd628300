// The generators and the oracle, without a server: valid requests are valid
// by the revision's schema, the mutations are not, and the oracle counts
// what it should.
import { validate as validate2511 } from "@x/mcp-v2511";
import { isValidSessionId } from "@x/mcp-v2511/wire";
import { validate } from "@x/mcp-v2607";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Case, renderId } from "../src/cases.js";
import { check } from "../src/check.js";
import { KNOWN_OPEN, VIOLATION_KINDS } from "../src/config.js";
import { BAD_META_MEMBERS, caseArbitrary, FAMILIES, validRequest } from "../src/generators.js";
import {
  BAD_INITIALIZE_PARAMS,
  checkInitializeAnswer,
  initializeParams,
  laterEraFields,
  MALFORMED_SESSION_IDS,
  SCENARIO_FAMILIES,
  type Scenario,
  scenarioArbitrary,
  UNKNOWN_SESSION_ID,
} from "../src/initialize-era.js";
import { canonicalNumber, ID_SLOT, parseLossless, plain, Raw, stringify } from "../src/json.js";
import { askAnswers, ERA_KINDS, sessionHeader, versionHeader } from "../src/session-drivers.js";

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

describe("initialize era", () => {
  const REQUEST: Record<string, Parameters<typeof validate2511>[0]> = {
    "tools/list": "ListToolsRequest",
    "tools/call": "CallToolRequest",
    ping: "PingRequest",
    "logging/setLevel": "SetLevelRequest",
    "resources/subscribe": "SubscribeRequest",
    "resources/unsubscribe": "UnsubscribeRequest",
    "resources/read": "ReadResourceRequest",
    "resources/list": "ListResourcesRequest",
    "resources/templates/list": "ListResourceTemplatesRequest",
    "prompts/list": "ListPromptsRequest",
    "prompts/get": "GetPromptRequest",
  };
  const scenarios = (transport: "http" | "stdio", numRuns = 400): Scenario[] =>
    fc.sample(scenarioArbitrary(transport), { seed: 3, numRuns });

  it("opens with initialize params the era's schema accepts, and refuses the bad ones", () => {
    for (const s of scenarios("http")) {
      if (s.open.params) {
        expect(validate2511("InitializeRequestParams", plain(s.open.params)).ok, s.category).toBe(false);
        continue;
      }
      const message = {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: plain(initializeParams(s.open.protocolVersion, s.open.elicitation)),
      };
      const checked = validate2511("InitializeRequest", message);
      expect(checked.ok ? [] : checked.problems, s.category).toEqual([]);
    }
    for (const [label, params] of BAD_INITIALIZE_PARAMS)
      expect(validate2511("InitializeRequestParams", plain(params)).ok, label).toBe(false);
  });

  it("sends valid requests on a session the era's schema accepts, and bounded scenarios", () => {
    let checkedCount = 0;
    for (const s of [...scenarios("http"), ...scenarios("stdio")]) {
      expect(s.steps.length).toBeGreaterThan(0);
      expect(s.steps.length).toBeLessThanOrEqual(5);
      if (!s.category.startsWith("2511/valid")) continue;
      for (const step of s.steps) {
        if (step.kind !== "post" || !("tree" in step.body)) continue;
        const message = plain(step.body.tree) as { method: string };
        const definition = REQUEST[message.method];
        expect(definition, message.method).toBeDefined();
        const checked = validate2511(definition!, { ...message, id: 1 });
        expect(checked.ok ? [] : checked.problems, `${s.category}: ${stringify(step.body.tree).slice(0, 200)}`).toEqual([]);
        checkedCount++;
      }
    }
    expect(checkedCount).toBeGreaterThan(100);
  });

  it("generates stdio scenarios with only the steps a pinned connection has, deterministically", () => {
    const stdio = scenarios("stdio");
    for (const s of stdio) {
      expect(s.transports).toContain("stdio");
      expect(s.initialized, s.category).toBe(true);
      for (const step of s.steps) expect(["post", "ask"], s.category).toContain(step.kind);
    }
    expect(scenarios("stdio", 50).map((s) => s.category)).toEqual(stdio.slice(0, 50).map((s) => s.category));
    const families = new Set(scenarios("http").map((s) => s.category.split("/")[1]));
    for (const f of SCENARIO_FAMILIES) {
      const own = fc.sample(f.arbitrary, { seed: 5, numRuns: 30 }).map((s) => s.category.split("/")[1]);
      expect(
        own.some((name) => families.has(name)),
        f.name,
      ).toBe(true);
    }
  });

  it("answers elicitation/create with results the era's schema accepts, or refuses on purpose", () => {
    const result = (text: string) => (JSON.parse(text) as { result?: unknown }).result;
    expect(validate2511("ElicitResult", result(askAnswers("accept", "x-mcp-1", "n")[0]!)).ok).toBe(true);
    expect(validate2511("ElicitResult", result(askAnswers("decline", "x-mcp-1", "n")[0]!)).ok).toBe(true);
    expect(validate2511("ElicitResult", result(askAnswers("malformed", "x-mcp-1", "n")[0]!)).ok).toBe(false);
    expect(askAnswers("twice", "x-mcp-1", "n")).toHaveLength(2);
    expect(askAnswers("none", "x-mcp-1", "n")).toEqual([]);
    const [wrong, right] = askAnswers("wrong-id", "x-mcp-1", "n");
    expect(JSON.parse(wrong!).id).not.toBe("x-mcp-1");
    expect(JSON.parse(right!).id).toBe("x-mcp-1");
  });

  it("sends session ids that are malformed by the era's rule, and unknown ones that are well formed", () => {
    for (const id of MALFORMED_SESSION_IDS) expect(isValidSessionId(id), JSON.stringify(id)).toBe(false);
    expect(isValidSessionId(UNKNOWN_SESSION_ID)).toBe(true);
    expect(versionHeader("later", "2025-11-25")).toBe("2026-07-28");
    expect(sessionHeader("none", "abc")).toBeUndefined();
  });

  it("checks version negotiation, the session header and 2026-only result members", () => {
    const ok = parseLossless('{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}');
    expect(checkInitializeAnswer("2099-01-01", ok, "abc")).toEqual([]);
    expect(checkInitializeAnswer("2025-06-18", ok, "abc").map((v) => v.kind)).toEqual(["version-negotiation"]);
    expect(checkInitializeAnswer("2025-11-25", ok, undefined).map((v) => v.kind)).toEqual(["session-id-missing"]);
    expect(checkInitializeAnswer("2025-11-25", ok, "has space").map((v) => v.kind)).toEqual(["session-id-missing"]);
    expect(checkInitializeAnswer("2025-11-25", ok, null)).toEqual([]);
    expect(laterEraFields(parseLossless('{"tools":[]}'))).toEqual([]);
    const later = laterEraFields(parseLossless('{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{},"x":1}}'));
    expect(later.map((v) => v.detail)).toEqual([
      "an earlier-era result carries resultType",
      "an earlier-era result carries _meta.io.modelcontextprotocol/serverInfo",
    ]);
    for (const kind of ERA_KINDS) expect(VIOLATION_KINDS).toContain(kind);
  });
});
