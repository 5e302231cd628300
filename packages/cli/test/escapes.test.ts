/**
 * A server's text is neutralized before it reaches the user's terminal:
 * control characters (ESC, BEL, C1 CSI, ...) are printed as visible escapes.
 */
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import { assertBuilt, TSX, x } from "./run.js";

const SERVER = ["--", process.execPath, "--import", TSX, fileURLToPath(new URL("./fixtures/escape-server.ts", import.meta.url))];
/** Any C0 control but newline and tab, DEL, or a C1 control. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

beforeAll(assertBuilt);

describe("a server's escape sequences", () => {
  it("are neutralized in list output", async () => {
    const run = await x(["list", "tools", ...SERVER]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(CONTROL);
    expect(run.stdout).toContain("clears \\x1b]0;pwned\\x07\\x1b[2J\\x9b31m the screen");
  });

  it("are neutralized in a tool's result, progress, elicitation and error", async () => {
    const result = await x(["call", "evil\x1b]0;pwned\x07\x1b[2J\x9b31m", ...SERVER]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("result \\x1b]0;pwned");
    const progress = await x(["call", "noisy", ...SERVER]);
    expect(progress.stderr).toContain("step \\x1b]0;pwned");
    const asked = await x(["call", "ask", ...SERVER], { input: "y\n1\n" });
    expect(asked.stderr).toContain("question \\x1b]0;pwned");
    expect(asked.stderr).toContain("title \\x1b]0;pwned");
    const failed = await x(["call", "fails", ...SERVER]);
    expect(failed.stderr).toContain("broken \\x1b]0;pwned");
    const unknown = await x(["call", "missing", ...SERVER]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("evil\\x1b]0;pwned");
    for (const run of [result, progress, asked, failed, unknown]) {
      expect(run.stdout).not.toMatch(CONTROL);
      expect(run.stderr).not.toMatch(CONTROL);
    }
  });

  it("are escaped in --json output, C1 controls included", async () => {
    const run = await x(["list", "tools", "--json", ...SERVER]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(CONTROL);
    expect(JSON.parse(run.stdout)[0].description).toBe("clears \x1b]0;pwned\x07\x1b[2J\x9b31m the screen");
  });

  it("are escaped in the file x-mcp types writes, comments and literals alike", async () => {
    const run = await x(["types", ...SERVER]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(CONTROL);
    expect(run.stdout).toContain("clears \\x1b]0;pwned");
    expect(run.stdout).toContain("d \\x1b]0;pwned");
    expect(run.stdout).toContain('"evil\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m"');
  });

  it("are not written to a terminal by read: a blob summed up there, its bytes to a pipe", async () => {
    const stream = (tty: boolean) => Object.assign(new PassThrough(), { isTTY: tty });
    const read = async (tty: boolean) => {
      const io = { stdin: new PassThrough(), stdout: stream(tty), stderr: stream(tty), env: process.env, cwd: process.cwd() };
      const chunks: Buffer[] = [];
      io.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
      const code = await main(["read", "file:///blob.bin", ...SERVER], io);
      return { code, out: Buffer.concat(chunks) };
    };
    const terminal = await read(true);
    expect(terminal.code).toBe(0);
    expect(terminal.out.toString()).toBe("[blob application/octet-stream, 19 bytes: redirect stdout to save it]\n");
    const pipe = await read(false);
    expect(pipe.out.equals(Buffer.from("\x1b]0;pwned\x07\x1b[2J\x9b31m"))).toBe(true);
  });
});
