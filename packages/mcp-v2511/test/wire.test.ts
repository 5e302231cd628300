import { describe, expect, it } from "vitest";
import { PROTOCOL_VERSION } from "../src/constants.js";
import {
  Header,
  INITIALIZE_ERA_VERSIONS,
  isInitializeEraVersion,
  isValidSessionId,
  MAX_SESSION_ID_LENGTH,
  negotiateProtocolVersion,
} from "../src/wire.js";

describe("initialize-era wire rules", () => {
  it("lists the era's versions newest first, starting with this package's revision", () => {
    expect(INITIALIZE_ERA_VERSIONS[0]).toBe(PROTOCOL_VERSION);
    expect([...INITIALIZE_ERA_VERSIONS].sort().reverse()).toEqual([...INITIALIZE_ERA_VERSIONS]);
    expect(isInitializeEraVersion("2024-11-05")).toBe(true);
    expect(isInitializeEraVersion("2026-07-28")).toBe(false);
    expect(isInitializeEraVersion(20241105)).toBe(false);
  });

  it("keeps a supported requested version and answers the newest otherwise", () => {
    expect(negotiateProtocolVersion("2025-03-26")).toBe("2025-03-26");
    expect(negotiateProtocolVersion("1999-01-01")).toBe("2025-11-25");
    expect(negotiateProtocolVersion(undefined)).toBe("2025-11-25");
    expect(negotiateProtocolVersion("2025-06-18", ["2025-03-26"])).toBe("2025-03-26");
    expect(() => negotiateProtocolVersion("x", [])).toThrow(RangeError);
  });

  it("accepts session ids of visible ASCII within the length bound only", () => {
    expect(isValidSessionId("a1-B2_c3")).toBe(true);
    expect(isValidSessionId("x".repeat(MAX_SESSION_ID_LENGTH))).toBe(true);
    expect(isValidSessionId("x".repeat(MAX_SESSION_ID_LENGTH + 1))).toBe(false);
    expect(isValidSessionId("")).toBe(false);
    expect(isValidSessionId("has space")).toBe(false);
    expect(isValidSessionId("é")).toBe(false);
    expect(isValidSessionId(42)).toBe(false);
  });

  it("names headers in lower case", () => {
    for (const name of Object.values(Header)) expect(name).toBe(name.toLowerCase());
  });
});
