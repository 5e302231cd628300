import { META_SERVER_INFO } from "@x/mcp-v2607";
import { describe, expect, it } from "vitest";
import { capabilities, discoverResult, serverInfo } from "../src/index.js";
import { expectValid } from "./helpers.js";

describe("capabilities", () => {
  it("[A12] true becomes {}, a map is kept, false/null/other leave the key absent", () => {
    const caps = capabilities({ tools: true, resources: { subscribe: true }, prompts: false, logging: null, completions: 1 as never });
    expect(caps).toEqual({ tools: {}, resources: { subscribe: true } });
    expectValid("ServerCapabilities", caps);
  });

  it("[A13] a ready ServerCapabilities comes back unchanged (a copy)", () => {
    const ready = { tools: { listChanged: true }, prompts: {} };
    expect(capabilities(ready)).toEqual(ready);
    expect(capabilities(ready)).not.toBe(ready);
  });

  it("refuses a non-object with a TypeError", () => {
    expect(() => capabilities([] as never)).toThrow(/capabilities must be a plain object/);
  });
});

describe("serverInfo", () => {
  it("[A18] builds an Implementation and leaves title absent when not given", () => {
    const info = serverInfo({ name: "MyServer", version: "1.0.0" });
    expect(info).toEqual({ name: "MyServer", version: "1.0.0" });
    expect("title" in info).toBe(false);
    expectValid("Implementation", info);
    expect(serverInfo({ name: "a", version: "1", title: "A" }).title).toBe("A");
  });

  it("[A17] name and version are required and named in the error", () => {
    expect(() => serverInfo({ version: "1" } as never)).toThrow(/name is required/);
    expect(() => serverInfo({ name: "a" } as never)).toThrow(/version is required/);
  });
});

describe("discoverResult", () => {
  it("[A17] holds server info in _meta, supportedVersions, no capabilities by default, a no-reuse cache hint", () => {
    const result = discoverResult({ name: "MyServer", version: "1.0.0" });
    expect(result._meta?.[META_SERVER_INFO]).toEqual({ name: "MyServer", version: "1.0.0" });
    expect(result.supportedVersions).toEqual(["2026-07-28"]);
    expect(result.capabilities).toEqual({});
    expect(result.cacheScope).toBe("private");
    expect(result.ttlMs).toBe(0);
    expect(result.resultType).toBe("complete");
    expectValid("DiscoverResult", result);
  });

  it("[A17] capabilities and title pass through", () => {
    const result = discoverResult({ name: "S", version: "2", title: "The S", capabilities: { tools: true }, instructions: "be nice" });
    expect(result.capabilities.tools).toEqual({});
    expect(result._meta?.[META_SERVER_INFO]).toEqual({ name: "S", version: "2", title: "The S" });
    expect(result.instructions).toBe("be nice");
    expectValid("DiscoverResult", result);
  });

  it("[A17] a missing name throws", () => {
    expect(() => discoverResult({ version: "1" } as never)).toThrow(/name is required/);
  });
});
