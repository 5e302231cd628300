/**
 * The envelope check when ajv-formats cannot be loaded (a bundle without it
 * beside): a `uri` format is then not checkable, which is the server's
 * fault, not the client's, and readEnvelope still does not throw.
 */
import { describe, expect, it, vi } from "vitest";
import { readEnvelope } from "../src/wire.js";

vi.mock("node:module", async (original) => ({
  ...(await original<typeof import("node:module")>()),
  createRequire: () => () => {
    throw new Error("Cannot find module 'ajv-formats/dist/formats.js'");
  },
}));

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

describe("readEnvelope without ajv-formats", () => {
  it("answers -32603 for a member that needs a format check, and checks the others as usual", () => {
    const info = { name: "c", version: "1", websiteUrl: "https://c.example" };
    expect(readEnvelope({ _meta: { ...META, "io.modelcontextprotocol/clientInfo": info } })).toEqual({
      ok: false,
      code: -32603,
      message: 'Internal error: _meta["io.modelcontextprotocol/clientInfo"] could not be checked',
    });
    expect(readEnvelope({ _meta: { ...META, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } } }).ok).toBe(true);
    expect(readEnvelope({ _meta: { ...META, "io.modelcontextprotocol/logLevel": "loud" } })).toMatchObject({ ok: false, code: -32602 });
  });
});
