/** The hand-written constants agree with the schema they describe. */
import { describe, expect, it } from "vitest";
import {
  ErrorCode,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  META_SUBSCRIPTION_ID,
  Method,
  PROTOCOL_VERSION,
  ResultType,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "../src/index.js";
import { revision, type Schema, schema } from "./helpers.js";

const defs = Object.entries(schema.$defs);

describe("constants", () => {
  it("PROTOCOL_VERSION is this package's revision", () => {
    expect(PROTOCOL_VERSION).toBe(revision);
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual([revision]);
    expect(Object.isFrozen(SUPPORTED_PROTOCOL_VERSIONS)).toBe(true);
  });

  it("Method lists exactly the method constants of the schema", () => {
    const fromSchema = new Set<string>();
    for (const [, def] of defs) {
      const method = (def.properties as Record<string, Schema> | undefined)?.method;
      if (typeof method?.const === "string") fromSchema.add(method.const);
    }
    const ours = Object.values(Method);
    expect(new Set(ours).size).toBe(ours.length);
    expect([...ours].sort()).toEqual([...fromSchema].sort());
  });

  it("Method keys are the PascalCase form of their method strings", () => {
    for (const [key, value] of Object.entries(Method)) {
      const pascal = value
        .split(/[/_]/)
        .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
        .join("");
      expect(key).toBe(pascal);
    }
    expect(Method.ToolsCall).toBe("tools/call");
    expect(Method.ServerDiscover).toBe("server/discover");
  });

  it("the _meta keys are property names of the schema's *MetaObject definitions", () => {
    const metaKeys = new Set<string>();
    for (const [name, def] of defs) {
      if (name.endsWith("MetaObject")) for (const key of Object.keys(def.properties ?? {})) metaKeys.add(key);
    }
    const ours = [
      META_PROTOCOL_VERSION,
      META_CLIENT_CAPABILITIES,
      META_CLIENT_INFO,
      META_SERVER_INFO,
      META_LOG_LEVEL,
      META_SUBSCRIPTION_ID,
    ];
    for (const key of ours) expect(metaKeys).toContain(key);
    // Every reserved io.modelcontextprotocol/ key the schema declares has a constant.
    expect([...metaKeys].filter((k) => k.startsWith("io.modelcontextprotocol/")).sort()).toEqual([...ours].sort());
    expect(META_PROTOCOL_VERSION).toBe("io.modelcontextprotocol/protocolVersion");
    expect(META_CLIENT_CAPABILITIES).toBe("io.modelcontextprotocol/clientCapabilities");
    expect(META_CLIENT_INFO).toBe("io.modelcontextprotocol/clientInfo");
    expect(META_SERVER_INFO).toBe("io.modelcontextprotocol/serverInfo");
    expect(META_LOG_LEVEL).toBe("io.modelcontextprotocol/logLevel");
    expect(META_SUBSCRIPTION_ID).toBe("io.modelcontextprotocol/subscriptionId");
  });

  it("ErrorCode matches the codes of the schema's error definitions, by name", () => {
    const fromSchema: Record<string, number> = {};
    for (const [name, def] of defs) {
      // Either the error object itself (`ParseError`) or a response whose
      // `error` narrows `Error` with an allOf (`HeaderMismatchError`).
      const direct = def.properties?.code?.const;
      const nested = (def.properties?.error?.allOf as Schema[] | undefined)?.find((p) => p.properties?.code?.const !== undefined)
        ?.properties.code.const;
      const code = direct ?? nested;
      if (typeof code === "number") fromSchema[name] = code;
    }
    const ours: Record<string, number> = {};
    for (const name of Object.keys(fromSchema)) {
      const key = Object.hasOwn(ErrorCode, name) ? name : name.replace(/Error$/, "");
      ours[name] = (ErrorCode as Record<string, number>)[key]!;
    }
    expect(ours).toEqual(fromSchema);
    expect(Object.keys(fromSchema).length).toBe(Object.keys(ErrorCode).length);
    expect(ErrorCode).toEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
      HeaderMismatch: -32020,
      MissingRequiredClientCapability: -32021,
      UnsupportedProtocolVersion: -32022,
    });
  });

  it("ResultType names the kinds the schema describes", () => {
    expect(Object.values(ResultType)).toEqual(["complete", "input_required"]);
    const description = schema.$defs.ResultType?.description as string;
    for (const kind of Object.values(ResultType)) expect(description).toContain(kind);
  });

  it("the constant objects are frozen", () => {
    for (const object of [Method, ErrorCode, ResultType]) expect(Object.isFrozen(object)).toBe(true);
  });
});
