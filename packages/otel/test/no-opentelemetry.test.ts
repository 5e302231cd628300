import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { bundle } from "../../../test-support/bundle.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const packageDir = join(here, "..");

describe("a server that does not import @x/otel has no OpenTelemetry in it", () => {
  it("running: a server program that serves and answers a tool call resolves no @opentelemetry module", () => {
    const dir = mkdtempSync(join(tmpdir(), "x-mcp-otel-"));
    try {
      const loads = join(dir, "loads.txt");
      const hook = pathToFileURL(join(here, "fixtures", "record-loads.mjs")).href;
      const register = `data:text/javascript,${encodeURIComponent(`import { register } from "node:module"; register(${JSON.stringify(hook)});`)}`;
      const printed = execFileSync(process.execPath, ["--import", register, join(here, "fixtures", "plain-server.mjs")], {
        cwd: packageDir,
        encoding: "utf8",
        env: { ...process.env, X_MCP_LOADS: loads },
        timeout: 30_000,
      }).trim();
      // The call was answered, and the program's own subscriber saw its tool:stop.
      expect(printed).toBe("42 1");
      const urls = readFileSync(loads, "utf8").trim().split("\n");
      // The hook did record the program's modules: @x/server's own files among them.
      expect(urls.some((url) => url.includes("/packages/server/dist/"))).toBe(true);
      // @opentelemetry/api is installed beside this program (this package's devDependency), yet nothing resolved it.
      expect(urls.filter((url) => url.includes("opentelemetry"))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // A child Node process: its start-up alone takes seconds on a loaded machine.
  });

  it("bundled: every entry of @x/server carries no OpenTelemetry code, while @x/otel does", async () => {
    const server = await bundle(
      [
        'export * from "@x/server";',
        'export * as telemetry from "@x/server/telemetry";',
        'export * as actions from "@x/server/actions";',
        'export * as express from "@x/server/express";',
        'export * as testing from "@x/server/testing";',
      ].join("\n"),
      packageDir,
      // What the server loads only on first need (a validator, jose) does not matter here.
      { external: ["ajv", "ajv-formats", "jose", "@cfworker/json-schema"] },
    );
    expect(server).toContain("x-mcp:tool:start");
    expect(server.match(/opentelemetry/gi)).toBeNull();
    const otel = await bundle('export * from "./src/index.ts";', packageDir, {});
    expect(otel).toMatch(/opentelemetry/i);
  });
});
