/**
 * The envelope check compiles its schema documents with ajv on the first
 * call: without ajv installed (a bundle with nothing beside it) that call
 * throws MissingDependencyError naming the package, and importing the wire
 * entry still costs nothing.
 */
import { MissingDependencyError } from "@x/json-schema";
import { describe, expect, it, vi } from "vitest";

vi.mock("node:module", async (original) => ({
  ...(await original<typeof import("node:module")>()),
  createRequire: () => () => {
    const error = new Error("Cannot find module 'ajv'") as Error & { code: string };
    error.code = "MODULE_NOT_FOUND";
    throw error;
  },
}));

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

describe("readEnvelope without ajv installed", () => {
  it("imports, refuses a missing _meta without ajv, and throws MissingDependencyError on the first schema check", async () => {
    const { readEnvelope } = await import("../src/wire.js");
    expect(readEnvelope({})).toMatchObject({ ok: false, code: -32602 });
    expect(() => readEnvelope({ _meta: META })).toThrow(MissingDependencyError);
  });
});
