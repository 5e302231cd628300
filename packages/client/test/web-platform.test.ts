// What lets @x/client run where there is no Node: its byte counting and
// concatenation without Buffer, and Node built-ins looked up only when a
// Node-only feature runs. The client itself on a web-only runtime is in
// runtimes/test/runtimes.test.ts (workerd without nodejs_compat).
import { nodeBuiltin } from "@x/jsonrpc";
import { decodeHeaderValue, encodeHeaderValue } from "@x/mcp-v2607/wire";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { concatBytes, countUtf8Bytes, utf8Length } from "../src/transports/jsonrpc.js";

describe("countUtf8Bytes (utf8Length where there is no Buffer)", () => {
  it("gives what TextEncoder writes, lone surrogates included", () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 64 }), (text) => {
        expect(countUtf8Bytes(text)).toBe(encoder.encode(text).byteLength);
        expect(countUtf8Bytes(text)).toBe(utf8Length(text));
      }),
      { numRuns: 2000 },
    );
    for (const text of ["", "a", "\u00e9", "\u20ac", "\u{1f600}", "\ud800", "\udc00x", "\ud800\ud800\udc00"]) {
      expect(countUtf8Bytes(text)).toBe(encoder.encode(text).byteLength);
    }
  });
});

describe("concatBytes", () => {
  it("joins chunks in order, as Buffer.concat does", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 16 }), { maxLength: 8 }), (chunks) => {
        expect([...concatBytes(chunks)]).toEqual([...Buffer.concat(chunks)]);
      }),
    );
  });
});

describe("nodeBuiltin", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("gives Node's module here, and names the module where the runtime has none", () => {
    expect(nodeBuiltin<typeof import("node:path")>("node:path").basename("/a/b.txt")).toBe("b.txt");
    vi.stubGlobal("process", undefined);
    expect(() => nodeBuiltin("node:fs/promises")).toThrow(/node:fs\/promises, which this runtime does not have/);
  });
});

describe("the header value sentinel, decoded without Buffer", () => {
  it("round-trips any string, and refuses a sentinel that is not UTF-8", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 32 }), (text) => {
        expect(decodeHeaderValue(encodeHeaderValue(text))).toBe(text);
      }),
    );
    expect(decodeHeaderValue(`=?base64?${btoa("\xff\xfe")}?=`)).toBeUndefined();
  });
});
