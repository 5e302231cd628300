/**
 * The envelope check needs no CommonJS module at run time: its `uri` format
 * check is generated inline, so a bundle without ajv-formats beside it still
 * checks client info URLs (nothing is required; a require would throw here).
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

describe("readEnvelope without ajv-formats installed", () => {
  it("checks a member with a uri format all the same", () => {
    const info = { name: "c", version: "1", websiteUrl: "https://c.example" };
    expect(readEnvelope({ _meta: { ...META, "io.modelcontextprotocol/clientInfo": info } }).ok).toBe(true);
    const bad = { name: "c", version: "1", websiteUrl: "not a uri" };
    expect(readEnvelope({ _meta: { ...META, "io.modelcontextprotocol/clientInfo": bad } })).toMatchObject({ ok: false, code: -32602 });
    expect(readEnvelope({ _meta: { ...META, "io.modelcontextprotocol/logLevel": "loud" } })).toMatchObject({ ok: false, code: -32602 });
  });
});
