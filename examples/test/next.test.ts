// The example server as a Next.js App Router route handler (examples/next,
// `app/mcp/route.ts`: the README's few lines), in a real Next.js (the `next`
// devDependency, 16.4.6): `next build` (Turbopack, telemetry off), then
// `next start` on 127.0.0.1 with a free port, stopped by its PID at the end.
// @x/client and the official client drive it in both eras as they drive the
// other frameworks (frameworks.test.ts). The build and start times are printed.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type Listening, startCommandListening, stopProcess } from "../../test-support/processes.js";
import { driveInitialize, driveModern, driveOfficial } from "./drive.js";

const app = join(dirname(fileURLToPath(import.meta.url)), "..", "next");
const nextBin = join(dirname(createRequire(import.meta.url).resolve("next/package.json")), "dist", "bin", "next");
// Next sends anonymous telemetry unless told not to; nothing here may reach the network.
const env = { NEXT_TELEMETRY_DISABLED: "1" };
const BUILD_LIMIT_MS = 180_000;

/** Runs `next build` in the app's folder; resolves with what it printed, rejects with it on failure or after the limit. */
function build(): Promise<string> {
  const child = spawn(process.execPath, [nextBin, "build"], {
    cwd: app,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stopProcess(child, "SIGKILL");
      reject(new Error(`next build did not finish within ${BUILD_LIMIT_MS} ms: ${output}`));
    }, BUILD_LIMIT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`next build exited with ${code}: ${output}`));
    });
  });
}

let server: Listening | undefined;
let url = "";
let built = "";

beforeAll(async () => {
  // A build from nothing, as on a fresh clone: no cache of an earlier build.
  rmSync(join(app, ".next"), { recursive: true, force: true });
  const started = Date.now();
  built = await build();
  const buildMs = Date.now() - started;
  const port = await freePort();
  server = await startCommandListening(process.execPath, [nextBin, "start", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: app,
    env,
    // `next start` announces itself on stdout: its local URL, then "Ready in".
    ready: /Local:\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Ready in/,
    timeoutMs: 30_000,
  });
  url = `${server.url}/mcp`;
  console.log(`next build: ${buildMs} ms; next start ready: ${Date.now() - started - buildMs} ms`);
}, BUILD_LIMIT_MS + 40_000);

afterAll(async () => {
  if (server) await stopProcess(server.child);
});

describe("Next.js 16 (App Router route handler at app/mcp/route.ts)", () => {
  it("builds with the route as a dynamic handler at /mcp, installing nothing", () => {
    expect(built).toContain("Next.js 16.4.6");
    expect(built).toMatch(/ƒ \/mcp/);
    // Next installs missing TypeScript packages itself; every one it needs is a devDependency, so it never does.
    expect(built).not.toMatch(/Installing (dev)?dependencies/i);
  });

  it("@x/client, 2026-07-28: discover, list, call with an argument check, an elicitation round, a task", () => driveModern(url));

  it("@x/client, initialize era: a session, elicitation/create on the session", () => driveInitialize(url));

  it("official client 2.4.0, 2026-07-28 pinned: discover, list, calls, the argument check, a two-question elicitation", () =>
    driveOfficial(url, "2026-07-28"));

  it("official client 2.4.0, its defaults (initialize era): the same on a session", () => driveOfficial(url, "initialize"));
});
