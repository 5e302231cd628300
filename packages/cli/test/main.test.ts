import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { ExitCode, type Io, main } from "../src/index.js";

/** An Io on in-memory streams, and what was written to them. */
function memoryIo(): { io: Io; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk) => {
    out += chunk;
  });
  stderr.on("data", (chunk) => {
    err += chunk;
  });
  return { io: { stdin: new PassThrough(), stdout, stderr, env: {}, cwd: process.cwd() }, out: () => out, err: () => err };
}

describe("x-mcp", () => {
  it("prints its usage and exits 2 without a command", async () => {
    const { io, out } = memoryIo();
    expect(await main([], io)).toBe(ExitCode.Usage);
    expect(out()).toMatch(/^usage: x-mcp <command>/);
  });

  it("refuses an unknown command with exit code 2, naming it", async () => {
    const { io, err } = memoryIo();
    expect(await main(["lsit"], io)).toBe(ExitCode.Usage);
    expect(err()).toContain('unknown command "lsit"');
  });
});
