// The token stores: in memory (copies, not shared objects) and in a file
// (mode 0600, atomic rename, a bad file read as empty).
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_MAX_TOKEN_FILE_BYTES } from "../../src/auth/options.js";
import { FileTokenStore, InMemoryTokenStore, type StoredAuthorization } from "../../src/index.js";

const entry: StoredAuthorization = {
  issuer: "https://as.example.com",
  client: { client_id: "c1" },
  tokens: { access_token: "a", token_type: "Bearer", refresh_token: "r", expires_at: 1 },
  scopes: ["mcp:read"],
};

describe("InMemoryTokenStore", () => {
  it("keeps copies: changing a loaded value does not change the stored one; clear removes it", () => {
    const store = new InMemoryTokenStore();
    store.save("k", entry);
    const loaded = store.load("k") as StoredAuthorization;
    (loaded.tokens as { access_token: string }).access_token = "changed";
    expect(store.load("k")?.tokens?.access_token).toBe("a");
    store.clear("k");
    expect(store.load("k")).toBeUndefined();
  });
});

describe("FileTokenStore", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("writes one JSON file readable by the owner only, keyed by endpoint, and clears one key", async () => {
    dir = mkdtempSync(join(tmpdir(), "x-store-"));
    const path = join(dir, "tokens.json");
    const store = new FileTokenStore(path);
    await store.save("https://a/mcp", entry);
    await store.save("https://b/mcp", { issuer: "https://other" });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Object.keys(JSON.parse(readFileSync(path, "utf8")))).toEqual(["https://a/mcp", "https://b/mcp"]);
    expect(await new FileTokenStore(path).load("https://a/mcp")).toEqual(entry);
    await store.clear("https://a/mcp");
    expect(await store.load("https://a/mcp")).toBeUndefined();
    expect(await store.load("https://b/mcp")).toEqual({ issuer: "https://other" });
  });

  it("a missing, malformed, non-object or oversized file reads as empty, and the next save replaces it", async () => {
    dir = mkdtempSync(join(tmpdir(), "x-store-"));
    const path = join(dir, "tokens.json");
    const store = new FileTokenStore(path);
    expect(await store.load("k")).toBeUndefined();
    for (const content of ["{not json", "[1,2]", "null", `{"k":"${"x".repeat(DEFAULT_MAX_TOKEN_FILE_BYTES)}"}`]) {
      writeFileSync(path, content);
      expect(await store.load("k")).toBeUndefined();
    }
    await store.save("k", entry);
    expect(await store.load("k")).toEqual(entry);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
