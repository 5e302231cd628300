/**
 * OAuth as a user meets it: the project's own authorization-server example
 * (oidc-provider) and an @x/server that requires its tokens; `x-mcp` prints
 * the sign-in URL, the test plays the browser (followAsBrowser, then the
 * redirect to x-mcp's loopback receiver), and the tokens land in the config
 * folder, mode 0600, where the next run finds them.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthorizationServer,
  followAsBrowser,
  type ProtectedMcpServer,
  startAuthorizationServer,
  startMcpServer,
} from "../../../examples/src/auth-parts.js";
import { assertBuilt, BIN, finished, stderrMatch, x } from "./run.js";

let as: AuthorizationServer;
let mcp: ProtectedMcpServer;
let config: string;

beforeAll(async () => {
  assertBuilt();
  as = await startAuthorizationServer();
  mcp = await startMcpServer(as.issuer);
  as.resources.add(mcp.url);
  config = mkdtempSync(join(tmpdir(), "x-mcp-config-"));
});
afterAll(async () => {
  await mcp?.close();
  await as?.close();
  rmSync(config, { recursive: true, force: true });
});

describe("x-mcp and OAuth", () => {
  it("signs in through the loopback flow, keeps the tokens (0600) and reuses them", async () => {
    const env = { XDG_CONFIG_HOME: config };
    const child = spawn(process.execPath, [BIN, "call", mcp.url, "whoami"], {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    const done = finished(child);
    const [, href] = await stderrMatch(child, /Sign in: open (\S+)/);
    const url = new URL(href!);
    const redirectUri = url.searchParams.get("redirect_uri")!;
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    // The browser: sign in at the authorization server, then follow the redirect back to x-mcp.
    const back = await followAsBrowser(url, redirectUri);
    expect((await fetch(back)).status).toBe(200);
    const first = await done;
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^alice via \S+, scopes: .*mcp/);

    const file = join(config, "x-mcp", "tokens.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // The next run signs in no more: the stored token is sent.
    const again = await x(["call", mcp.url, "whoami"], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain("Sign in");
    expect(again.stdout).toMatch(/^alice via/);
  });

  it("fails with exit code 3 and no sign-in under --no-auth", async () => {
    const run = await x(["list", "--no-auth", mcp.url], { env: { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "x-mcp-none-")) } });
    expect(run.code).toBe(3);
    expect(run.stderr).not.toContain("Sign in");
  });
});
