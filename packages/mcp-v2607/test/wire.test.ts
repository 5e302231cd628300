import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { NON_FINITE_MESSAGE } from "@x/json-schema";
import { describe, expect, it } from "vitest";
import * as root from "../src/index.js";
import {
  RESOURCE_METADATA_WELL_KNOWN,
  resourceMetadataPaths,
  checkRequestHeaders,
  decodeHeaderValue,
  encodeHeaderValue,
  type HeaderParam,
  MCP_NAME_FIELDS,
  mcpNameField,
  mcpParamHeaders,
  paramHeaderText,
  readEnvelope,
  requestHeaders,
  requestMeta,
  standardHeaders,
  toolHeaderParams,
} from "../src/wire.js";
import { validate } from "../src/generated/validate.js";
import { loadExamples, packageDir } from "./helpers.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

describe("the wire entry", () => {
  it("imports of the generated code only the envelope schema group (and types), so that it stays cheap", () => {
    const source = readFileSync(join(packageDir, "src/wire.ts"), "utf8");
    const imports = [...source.matchAll(/^import\s+(type\s+)?[^;]*?from\s+"([^"]+)"/gms)].map((m) => [Boolean(m[1]), m[2]]);
    expect(imports).toEqual([
      [false, "@x/json-schema"],
      [false, "./constants-entry.js"],
      [true, "./generated/types.js"],
      [false, "./generated/schemas-envelope.js"],
    ]);
  });

  it("is exported from the root entry and the ./wire subpath", () => {
    expect(root.readEnvelope).toBe(readEnvelope);
    expect(root.toolHeaderParams).toBe(toolHeaderParams);
    const pkg = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
    expect(pkg.exports["./wire"]).toEqual({
      import: { types: "./dist/wire.d.ts", default: "./dist/wire.js" },
      require: { types: "./dist/wire.d.cts", default: "./dist/wire.cjs" },
    });
  });
});

describe("header values", () => {
  it.each([
    ["us-west1", "us-west1"],
    ["Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    [" padded ", "=?base64?IHBhZGRlZCA=?="],
    ["=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="],
    // A leading U+FEFF is part of the value, not a byte-order mark to drop.
    ["\uFEFFbom", "=?base64?77u/Ym9t?="],
  ])("%j is sent as %j and read back", (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
    expect(decodeHeaderValue(encoded)).toBe(value);
  });

  it("reads plain values with tabs as they are, and refuses what a header cannot carry", () => {
    expect(decodeHeaderValue("a\tb")).toBe("a\tb");
    expect(decodeHeaderValue("=?base64??=")).toBe("");
    expect(decodeHeaderValue("=?base64?abc")).toBe("=?base64?abc");
    for (const bad of ["é", "a\nb", "=?base64?abc?=", "=?base64?ab$=?=", "=?base64?/w==?=" /* 0xff: not UTF-8 */]) {
      expect(decodeHeaderValue(bad)).toBeUndefined();
    }
  });

  it("decodes whatever it encodes", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (value) => {
        const encoded = encodeHeaderValue(value);
        expect(encoded).toMatch(/^[\x20-\x7e]*$/);
        // Lone surrogates are replaced by U+FFFD on the way to UTF-8.
        expect(decodeHeaderValue(encoded)).toBe(new TextDecoder().decode(new TextEncoder().encode(value)));
      }),
    );
  });
});

describe("Mcp-Name", () => {
  it("is carried by tools/call, prompts/get (name), resources/read (uri) and the tasks extension's tasks/* (taskId) only", () => {
    expect(MCP_NAME_FIELDS).toEqual({
      "tools/call": "name",
      "prompts/get": "name",
      "resources/read": "uri",
      "tasks/get": "taskId",
      "tasks/update": "taskId",
      "tasks/cancel": "taskId",
    });
    expect(mcpNameField("tasks/update")).toBe("taskId");
    expect(mcpNameField("resources/read")).toBe("uri");
    expect(mcpNameField("tools/list")).toBeUndefined();
    expect(mcpNameField("toString")).toBeUndefined();
  });
});

describe("toolHeaderParams", () => {
  it("finds valid annotations and names the first broken rule", () => {
    const inputSchema = {
      type: "object",
      properties: { r: { type: "string", "x-mcp-header": "Region" }, o: { properties: { n: { type: "integer", "x-mcp-header": "N" } } } },
    };
    expect(toolHeaderParams({ inputSchema })).toEqual({
      ok: true,
      params: [
        { header: "Region", path: ["r"], type: "string" },
        { header: "N", path: ["o", "n"], type: "integer" },
      ],
    });
    expect(toolHeaderParams({ inputSchema: { properties: { a: { type: "number", "x-mcp-header": "A" } } } })).toEqual({
      ok: false,
      reason: 'x-mcp-header "A" at /properties/a is on a property of type "number"; only string, integer and boolean are allowed',
    });
    expect(toolHeaderParams({ inputSchema: { properties: { "a/b": { items: { type: "string", "x-mcp-header": "A" } } } } })).toEqual({
      ok: false,
      reason: 'x-mcp-header at /properties/a~1b/items is not on a property reachable from the root through "properties" only',
    });
  });

  it("bounds the search depth", () => {
    let inputSchema: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 10; i++) inputSchema = { properties: { p: inputSchema } };
    expect(toolHeaderParams({ inputSchema }, 20).ok).toBe(true);
    expect(toolHeaderParams({ inputSchema }, 5)).toEqual({ ok: false, reason: "inputSchema is nested deeper than 5 levels" });
  });

  it("never throws on any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (inputSchema) => {
        expect(typeof toolHeaderParams({ inputSchema }).ok).toBe("boolean");
      }),
    );
  });
});

const PARAMS: HeaderParam[] = [
  { header: "Region", path: ["region"], type: "string" },
  { header: "N", path: ["o", "n"], type: "integer" },
  { header: "Dry", path: ["dry"], type: "boolean" },
];

describe("request headers (sending)", () => {
  it("mirrors strings, booleans, safe integers and bigints only", () => {
    expect([paramHeaderText("x"), paramHeaderText(true), paramHeaderText(-3), paramHeaderText(-(2n ** 64n))]).toEqual([
      "x",
      "true",
      "-3",
      "-18446744073709551616",
    ]);
    for (const bad of [1.5, 2 ** 53, {}, [], Number.NaN]) expect(paramHeaderText(bad)).toBeUndefined();
  });

  it("builds the Mcp-Param headers, leaving out absent, null and inherited arguments", () => {
    expect(mcpParamHeaders(PARAMS, { region: "Zürich", o: { n: 4 }, dry: null })).toEqual({
      ok: true,
      headers: { "Mcp-Param-Region": "=?base64?WsO8cmljaA==?=", "Mcp-Param-N": "4" },
    });
    expect(mcpParamHeaders([{ header: "C", path: ["constructor"], type: "string" }], {})).toEqual({ ok: true, headers: {} });
    expect(mcpParamHeaders(PARAMS, { region: ["eu"] })).toEqual({ ok: false, param: PARAMS[0], value: ["eu"] });
  });

  it("builds the standard headers from the message", () => {
    expect(standardHeaders({ method: "tools/call", params: { name: "add", _meta: META } })).toEqual({
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/call",
      "Mcp-Name": "add",
    });
    expect(standardHeaders({ method: "resources/read", params: { uri: "file:///é" } })).toEqual({
      "Mcp-Method": "resources/read",
      "Mcp-Name": encodeHeaderValue("file:///é"),
    });
    expect(standardHeaders({ method: "tools/list" })).toEqual({ "Mcp-Method": "tools/list" });
  });

  it("puts both together for a tools/call", () => {
    const message = { method: "tools/call", params: { name: "t", arguments: { region: "eu", dry: false }, _meta: META } };
    expect(requestHeaders(message, PARAMS)).toEqual({
      ok: true,
      headers: {
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "t",
        "Mcp-Param-Region": "eu",
        "Mcp-Param-Dry": "false",
      },
    });
    expect(requestHeaders({ method: "prompts/get", params: { name: "p", arguments: { region: "eu" } } }, PARAMS)).toEqual({
      ok: true,
      headers: { "Mcp-Method": "prompts/get", "Mcp-Name": "p" },
    });
    expect(requestHeaders({ method: "tools/call", params: { name: "t", arguments: { dry: 1.5 } } }, PARAMS)).toMatchObject({
      ok: false,
      value: 1.5,
    });
  });
});

describe("checkRequestHeaders (receiving)", () => {
  const check = (headers: Record<string, string>, method: string, params: Record<string, unknown>) =>
    checkRequestHeaders(
      (name) => headers[name],
      method,
      params,
      "2026-07-28",
      (tool) => (tool === "t" ? PARAMS : undefined),
    );

  it("accepts what requestHeaders sends, for any mirrored arguments", () => {
    const args = fc.record(
      { region: fc.string(), o: fc.record({ n: fc.oneof(fc.maxSafeInteger(), fc.bigInt()) }), dry: fc.option(fc.boolean()) },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(args, fc.oneof(fc.constant("t"), fc.string()), (a, name) => {
        const params = { name, arguments: a, _meta: META };
        const sent = requestHeaders({ method: "tools/call", params }, name === "t" ? PARAMS : []);
        if (!sent.ok) throw new Error("not mirrored");
        const lower = Object.fromEntries(Object.entries(sent.headers).map(([k, v]) => [k.toLowerCase(), v]));
        expect(check(lower, "tools/call", params)).toBeUndefined();
      }),
    );
  });

  it("names what is missing or different", () => {
    const base = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "t" };
    const params = { name: "t", arguments: { region: "eu", o: { n: 42 } } };
    expect(check({}, "tools/list", {})).toBe("Missing MCP-Protocol-Version header");
    expect(check({ ...base, "mcp-protocol-version": "2025-11-25" }, "tools/call", params)).toBe(
      "Header mismatch: MCP-Protocol-Version header value '2025-11-25' does not match body value '2026-07-28'",
    );
    expect(check({ ...base, "mcp-method": undefined } as never, "tools/call", params)).toBe("Missing Mcp-Method header");
    expect(check({ ...base, "mcp-name": "=?base64?%%?=" }, "tools/call", params)).toBe(
      "Mcp-Name header holds invalid characters or an invalid Base64 value",
    );
    expect(check({ ...base, "mcp-name": "u" }, "tools/call", params)).toBe(
      "Header mismatch: Mcp-Name header value 'u' does not match body value 't'",
    );
    expect(check(base, "tools/call", params)).toBe("Missing Mcp-Param-Region header for argument region");
    const full = { ...base, "mcp-param-region": "eu", "mcp-param-n": "42.0" };
    expect(check(full, "tools/call", params)).toBeUndefined();
    expect(check({ ...full, "mcp-param-n": "0x2a" }, "tools/call", params)).toBe(
      "Header mismatch: Mcp-Param-N header value '0x2a' does not match the argument o.n",
    );
    // Beyond 2^53 the body holds a bigint: the header must carry the same digits, not a neighbour's.
    const big = { name: "t", arguments: { region: "eu", o: { n: 9007199254740993n } } };
    expect(check({ ...full, "mcp-param-n": "9007199254740993" }, "tools/call", big)).toBeUndefined();
    expect(check({ ...full, "mcp-param-n": "9007199254740993.00" }, "tools/call", big)).toBeUndefined();
    expect(check({ ...full, "mcp-param-n": "9007199254740992" }, "tools/call", big)).toBe(
      "Header mismatch: Mcp-Param-N header value '9007199254740992' does not match the argument o.n",
    );
    expect(check({ ...full, "mcp-param-dry": "true" }, "tools/call", params)).toBe(
      "Header mismatch: Mcp-Param-Dry header is present but the argument dry is absent",
    );
    expect(check({ ...base, "mcp-name": "x".repeat(100) }, "tools/call", params)).toBe(
      `Header mismatch: Mcp-Name header value '${"x".repeat(61)}...' does not match body value 't'`,
    );
  });
});

describe("the request _meta envelope", () => {
  it("reads a valid envelope", () => {
    const clientInfo = { name: "c", version: "1" };
    const meta = { ...META, "io.modelcontextprotocol/clientInfo": clientInfo, progressToken: 3, other: true };
    expect(readEnvelope({ _meta: meta })).toEqual({
      ok: true,
      envelope: { meta, protocolVersion: "2026-07-28", clientCapabilities: {}, clientInfo },
    });
    expect(readEnvelope({ _meta: META })).toMatchObject({ ok: true, envelope: { clientInfo: undefined } });
  });

  it.each([
    [{}, "Missing or invalid params._meta (an object): every request must carry its protocol version and client capabilities"],
    [{ _meta: [] }, "Missing or invalid params._meta (an object): every request must carry its protocol version and client capabilities"],
    [
      { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "" } },
      'Missing or invalid _meta["io.modelcontextprotocol/protocolVersion"]',
    ],
    [
      { _meta: { ...META, "io.modelcontextprotocol/clientCapabilities": undefined } },
      'Missing or invalid _meta["io.modelcontextprotocol/clientCapabilities"]',
    ],
    [
      { _meta: { ...META, "io.modelcontextprotocol/clientCapabilities": null } },
      'Invalid params: _meta["io.modelcontextprotocol/clientCapabilities"] must be an object',
    ],
    [{ _meta: { ...META, progressToken: 1.5 } }, "Invalid _meta.progressToken: must be a string or an integer"],
    [
      { _meta: { ...META, "io.modelcontextprotocol/clientInfo": { name: "c" } } },
      'Invalid params: _meta["io.modelcontextprotocol/clientInfo"] is missing required property "version"',
    ],
  ])("refuses %j with -32602", (params, message) => {
    expect(readEnvelope(params)).toEqual({ ok: false, code: -32602, message });
  });

  it("builds a _meta that it accepts, the protocol's keys winning over extra entries", () => {
    const meta = requestMeta({
      protocolVersion: "2026-07-28",
      clientCapabilities: { roots: {} },
      clientInfo: { name: "c", version: "1" },
      logLevel: "info",
      progressToken: "p",
      extra: { trace: 1, "io.modelcontextprotocol/protocolVersion": "1999-01-01" },
    });
    expect(meta).toEqual({
      trace: 1,
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { roots: {} },
      "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
      "io.modelcontextprotocol/logLevel": "info",
      progressToken: "p",
    });
    expect(readEnvelope({ _meta: meta }).ok).toBe(true);
    const bare = requestMeta({ protocolVersion: "v", clientCapabilities: {}, clientInfo: { name: "c", version: "1" } });
    expect(Object.keys(bare)).toEqual([
      "io.modelcontextprotocol/protocolVersion",
      "io.modelcontextprotocol/clientCapabilities",
      "io.modelcontextprotocol/clientInfo",
    ]);
  });
});

describe("the request _meta envelope: every member checked against the schema's validators", () => {
  const CAPS = "io.modelcontextprotocol/clientCapabilities";
  const INFO = "io.modelcontextprotocol/clientInfo";
  const LEVEL = "io.modelcontextprotocol/logLevel";
  const refusal = (message: string) => ({ ok: false, code: -32602, message: `Invalid params: ${message}` });

  it.each([
    [{ sampling: 5 }, `_meta["${CAPS}"].sampling must be an object`],
    [{ roots: [] }, `_meta["${CAPS}"].roots must be an object`],
    [{ elicitation: "yes" }, `_meta["${CAPS}"].elicitation must be an object`],
    [{ elicitation: { form: true } }, `_meta["${CAPS}"].elicitation.form must be an object`],
    [{ sampling: { tools: [] } }, `_meta["${CAPS}"].sampling.tools must be an object`],
    [{ experimental: { "my feature": 1 } }, `_meta["${CAPS}"].experimental["my feature"] must be an object`],
    [{ extensions: [] }, `_meta["${CAPS}"].extensions must be an object`],
    // 1e400 in the JSON text parses to Infinity, which the schema's integer type would pass.
    [{ experimental: { f: { n: Number.POSITIVE_INFINITY } } }, `_meta["${CAPS}"].experimental.f.n ${NON_FINITE_MESSAGE}`],
  ])("refuses clientCapabilities %j, naming the member", (capabilities, message) => {
    expect(readEnvelope({ _meta: { ...META, [CAPS]: capabilities } })).toEqual(refusal(message));
  });

  it.each([
    ["", 'must be one of "alert", "critical", "debug", "emergency", "error", "info", "notice", "warning"'],
    ["DEBUG", 'must be one of "alert", "critical", "debug", "emergency", "error", "info", "notice", "warning"'],
    [5, "must be a string"],
    [null, "must be a string"],
    [["info"], "must be a string"],
  ])("refuses logLevel %j, naming the member", (level, problem) => {
    expect(readEnvelope({ _meta: { ...META, [LEVEL]: level } })).toEqual(refusal(`_meta["${LEVEL}"] ${problem}`));
  });

  it.each([
    [{ name: "c" }, 'is missing required property "version"'],
    [{ name: 5, version: "1" }, ".name must be a string"],
    [{ name: "c", version: "1", websiteUrl: "not a url" }, '.websiteUrl must match format "uri"'],
    [{ name: "c", version: "1", icons: [{ src: 5 }] }, ".icons[0].src must be a string"],
    ["c", "must be an object"],
  ])("refuses clientInfo %j, naming the member", (info, problem) => {
    const at = problem.startsWith(".") ? problem : ` ${problem}`;
    expect(readEnvelope({ _meta: { ...META, [INFO]: info } })).toEqual(refusal(`_meta["${INFO}"]${at}`));
  });

  it("accepts every log level, the schema's ClientCapabilities examples and a full clientInfo", () => {
    for (const level of ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]) {
      expect(readEnvelope({ _meta: { ...META, [LEVEL]: level } }).ok).toBe(true);
    }
    const examples = loadExamples().filter((e) => e.type === "ClientCapabilities");
    expect(examples.length).toBeGreaterThan(3);
    for (const { value } of examples) expect(readEnvelope({ _meta: { ...META, [CAPS]: value } }).ok).toBe(true);
    const info = {
      name: "c",
      title: "C",
      version: "1",
      websiteUrl: "https://c.example",
      icons: [{ src: "https://c.example/i.png", theme: "dark" }],
    };
    expect(readEnvelope({ _meta: { ...META, [INFO]: info } })).toMatchObject({ ok: true, envelope: { clientInfo: info } });
  });

  it("agrees with the generated validators on any value of each member", () => {
    const members: [string, (v: unknown) => boolean][] = [
      [CAPS, (v) => validate("ClientCapabilities", v).ok],
      [INFO, (v) => validate("Implementation", v).ok],
      [LEVEL, (v) => validate("LoggingLevel", v).ok],
    ];
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record({ sampling: fc.jsonValue({ maxDepth: 2 }), roots: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }),
      fc.record({ name: fc.jsonValue({ maxDepth: 1 }), version: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }),
      fc.constantFrom("debug", "emergency", "INFO"),
    );
    fc.assert(
      fc.property(fc.constantFrom(...members), value, ([key, valid], v) => {
        expect(readEnvelope({ _meta: { ...META, [key]: v } }).ok).toBe(valid(v));
      }),
    );
  });
});

describe("the request _meta envelope where code generation is forbidden (the cfworker validator)", () => {
  const CAPS = "io.modelcontextprotocol/clientCapabilities";
  const INFO = "io.modelcontextprotocol/clientInfo";
  const LEVEL = "io.modelcontextprotocol/logLevel";

  it("refuses and accepts what ajv does, with the same messages", () => {
    const samples: unknown[] = [
      { sampling: 5 },
      { elicitation: { form: true } },
      { experimental: { "my feature": 1 } },
      { name: "c" },
      { name: "c", version: "1", websiteUrl: "not a url" },
      { name: "c", version: "1", icons: [{ src: 5 }] },
      "DEBUG",
      ["info"],
      ...fc.sample(fc.jsonValue({ maxDepth: 3 }), { numRuns: 150, seed: 7 }),
      ...fc.sample(fc.record({ name: fc.jsonValue({ maxDepth: 1 }), version: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }), {
        numRuns: 50,
        seed: 7,
      }),
    ];
    const cases = samples.flatMap((v) => [CAPS, INFO, LEVEL].map((key) => ({ _meta: { ...META, [key]: v } })));
    const wire = pathToFileURL(join(packageDir, "dist", "wire.js")).href;
    const out = execFileSync(
      process.execPath,
      [
        "--disallow-code-generation-from-strings",
        "--input-type=module",
        "-e",
        `import { readEnvelope } from ${JSON.stringify(wire)}; import { defaultValidator } from "@x/json-schema";
let text = ""; for await (const chunk of process.stdin) text += chunk;
console.log(JSON.stringify({ validator: defaultValidator().name, results: JSON.parse(text).map((c) => readEnvelope(c)) }));`,
      ],
      { cwd: packageDir, input: JSON.stringify(cases), encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
    );
    const { validator, results } = JSON.parse(out) as { validator: string; results: unknown[] };
    expect(validator).toBe("cfworker");
    expect(results).toEqual(cases.map((c) => JSON.parse(JSON.stringify(readEnvelope(c)))));
  });
});

describe("resourceMetadataPaths (protected resource metadata discovery)", () => {
  it.each([
    ["https://a.example/mcp", ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]],
    ["https://a.example/api/mcp/", ["/.well-known/oauth-protected-resource/api/mcp", "/.well-known/oauth-protected-resource"]],
    ["https://a.example/", ["/.well-known/oauth-protected-resource"]],
    ["http://127.0.0.1:8080", ["/.well-known/oauth-protected-resource"]],
  ])("%s -> %j", (url, paths) => {
    expect(resourceMetadataPaths(new URL(url))).toEqual(paths);
    expect(paths.every((p) => p.startsWith(RESOURCE_METADATA_WELL_KNOWN))).toBe(true);
  });
});
