/**
 * `x-mcp dev` run as a user runs it: the bin (under tsx, from source) on a
 * TypeScript server file in a fresh folder, called with @x/client, edited,
 * called again, then stopped with SIGTERM.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHttpTransport } from "@x/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const cli = fileURLToPath(new URL("..", import.meta.url));
const serverPackage = fileURLToPath(new URL("../../server", import.meta.url));
const devtoolsPackage = fileURLToPath(new URL("../../devtools", import.meta.url));

const serverFile = (answer: string) => `import { McpServer } from "@x/server";

const server = new McpServer({ name: "dev-test", version: "1.0.0" });
server.registerTool("hello", { description: "Says hello." }, async () => ({
  content: [{ type: "text", text: ${JSON.stringify(answer)} }],
}));
export default server;
`;

/**
 * The lines a process writes on stdout, waited for one pattern at a time (bounded by a count of lines, not time);
 * `seen` holds every line read so far.
 */
function lines(
  child: ChildProcess,
  stream: "stdout" | "stderr" = "stdout",
): ((pattern: RegExp) => Promise<RegExpExecArray>) & { seen: string[] } {
  const seen: string[] = [];
  let waiter: (() => void) | undefined;
  let ended = false;
  createInterface({ input: child[stream]! }).on("line", (line) => {
    seen.push(line);
    waiter?.();
  });
  child.once("exit", () => {
    ended = true;
    waiter?.();
  });
  let next = 0;
  const wait = async (pattern: RegExp) => {
    for (let guard = 0; guard < 1_000; guard++) {
      while (next < seen.length) {
        const match = pattern.exec(seen[next++]!);
        if (match) return match;
      }
      if (ended) break;
      await new Promise<void>((resolve) => {
        waiter = resolve;
      });
    }
    throw new Error(`no line matching ${pattern} in:\n${seen.join("\n")}`);
  };
  return Object.assign(wait, { seen });
}

async function callHello(url: string): Promise<unknown> {
  const client = new Client({ name: "dev-test", version: "1.0.0" });
  await client.connect(new StreamableHttpTransport(url));
  try {
    return (await client.callTool("hello", {})).content;
  } finally {
    await client.close();
  }
}

/** The state and process group of `pid` (Linux: fields 3 and 5 of /proc/<pid>/stat), or undefined once it is gone. */
function stat(pid: number): { state: string; group: number } | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return { state: fields[0]!, group: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

/**
 * The processes of `group` still running. A zombie is not counted: it has
 * exited, and waits for a parent that reaps (not every container's PID 1 does).
 */
const liveIn = (group: number) =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      const s = stat(Number(name));
      return s !== undefined && s.group === group && s.state !== "Z";
    });

const gone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
};

describe("x-mcp dev", () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "x-mcp-dev-"));
    mkdirSync(join(folder, "node_modules", "@x"), { recursive: true });
    symlinkSync(serverPackage, join(folder, "node_modules", "@x", "server"), "dir");
    symlinkSync(devtoolsPackage, join(folder, "node_modules", "@x", "devtools"), "dir");
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("serves a TypeScript server file, restarts it on change, and stops its processes on SIGTERM", async () => {
    const file = join(folder, "server.ts");
    writeFileSync(file, serverFile("first"));
    const child = spawn(process.execPath, ["--import", "tsx", "src/bin.ts", "dev", file, "--port", "0"], {
      cwd: cli,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const line = lines(child);
    try {
      const [, url, first] = await line(/^x-mcp dev: serving (http:\/\/127\.0\.0\.1:\d+\/mcp) \(pid (\d+)\)$/);
      expect((await line(/open the Inspector with: (.*)$/))[1]).toBe(
        `npx @modelcontextprotocol/inspector --transport http --server-url ${url}`,
      );
      expect(await callHello(url!)).toEqual([{ type: "text", text: "first" }]);
      const group = stat(Number(first))!.group;

      writeFileSync(file, serverFile("second"));
      const [, again, second] = await line(/^x-mcp dev: restarted \(1\), serving (\S+) \(pid (\d+)\)$/);
      expect(again).toBe(url);
      expect(second).not.toBe(first);
      expect(await callHello(url!)).toEqual([{ type: "text", text: "second" }]);

      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(gone(Number(first))).toBe(true);
      expect(gone(Number(second))).toBe(true);
      expect(liveIn(group)).toEqual([]); // tsx's watcher and all under it
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });

  it("serves a factory of an ES module once a broken file is fixed, with its devtools page, and stops on SIGINT", async () => {
    const esm = join(folder, "esm");
    mkdirSync(join(esm, "node_modules", "@x"), { recursive: true });
    symlinkSync(serverPackage, join(esm, "node_modules", "@x", "server"), "dir");
    symlinkSync(devtoolsPackage, join(esm, "node_modules", "@x", "devtools"), "dir");
    writeFileSync(join(esm, "package.json"), '{ "type": "module" }\n');
    const file = join(esm, "server.ts");
    writeFileSync(file, "export default 42;\n");
    const child = spawn(process.execPath, ["--import", "tsx", "src/bin.ts", "dev", file, "--port=0", "--devtools"], {
      cwd: cli,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const line = lines(child);
    try {
      await lines(child, "stderr")(/must default-export an McpServer, or a function returning one$/);
      writeFileSync(file, serverFile("factory").replace("export default server;", "export default async () => server;"));
      const [, url, pid] = await line(/^x-mcp dev: serving (\S+) \(pid (\d+)\)$/);
      const group = stat(Number(pid))!.group;
      expect(await callHello(url!)).toEqual([{ type: "text", text: "factory" }]);
      // The page of an ES module's server: the devtools' ES module reads it.
      const [, page] = await line(/^x-mcp dev: devtools: (\S+)$/);
      const catalog = await (await fetch(`${page}api/catalog?era=2026-07-28`)).json();
      expect(catalog.tools.map((t: { name: string }) => t.name)).toEqual(["hello"]);
      child.kill("SIGINT");
      expect(await exited).toBe(0);
      expect(gone(Number(pid))).toBe(true);
      expect(liveIn(group)).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });

  it("--devtools prints the page's URL once; the page answers before and after a restart", async () => {
    const file = join(folder, "devtools.ts");
    writeFileSync(file, serverFile("first"));
    const child = spawn(process.execPath, ["--import", "tsx", "src/bin.ts", "dev", file, "--devtools", "--port", "0"], {
      cwd: cli,
      stdio: ["ignore", "pipe", "pipe"],
    });
    // "close": the process has exited and its stdout is read to the end.
    const closed = new Promise<number | null>((resolve) => child.once("close", resolve));
    const line = lines(child);
    const pageLines = () => line.seen.filter((l) => l.startsWith("x-mcp dev: devtools:"));
    // The runner's error (tsx watch then waits for an edit): the test fails with it instead of waiting.
    const failed = lines(
      child,
      "stderr",
    )(/^x-mcp dev: /).then(
      (match) => Promise.reject(new Error(match.input)),
      () => new Promise<never>(() => undefined),
    );
    try {
      const [, url, first] = await Promise.race([line(/^x-mcp dev: serving (\S+) \(pid (\d+)\)$/), failed]);
      const [, page] = await line(/^x-mcp dev: devtools: (http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{16,}\/)$/);
      const group = stat(Number(first))!.group;
      const answer = await fetch(page!);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain("app.js");
      // The page's in-process client reaches the server file's McpServer.
      const catalog = await (await fetch(`${page}api/catalog?era=2026-07-28`)).json();
      expect(catalog.tools.map((t: { name: string }) => t.name)).toEqual(["hello"]);
      // Without the token: refused.
      expect((await fetch(new URL("/", page)))?.status).toBe(403);

      writeFileSync(file, serverFile("second"));
      const [, again, second] = await line(/^x-mcp dev: restarted \(1\), serving (\S+) \(pid (\d+)\)$/);
      expect(again).toBe(url);
      expect(second).not.toBe(first);
      // The same URL, token included, answers the restarted server's page.
      expect((await fetch(page!)).status).toBe(200);
      expect(await callHello(url!)).toEqual([{ type: "text", text: "second" }]);

      child.kill("SIGTERM");
      expect(await closed).toBe(0);
      expect(pageLines()).toEqual([`x-mcp dev: devtools: ${page}`]); // once, for the whole run
      expect(gone(Number(first))).toBe(true);
      expect(gone(Number(second))).toBe(true);
      expect(liveIn(group)).toEqual([]);
      await expect(fetch(page!)).rejects.toThrow(); // the page's port is closed with its server
    } finally {
      // SIGTERM, not SIGKILL: the CLI then stops its process group (tsx's watcher and the server) too.
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await closed;
      }
    }
  });

  it("refuses a missing file with exit code 2", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/bin.ts", "dev", join(folder, "nope.ts")], {
      cwd: cli,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk) => {
      stderr += chunk;
    });
    expect(await new Promise((resolve) => child.once("exit", resolve))).toBe(2);
    expect(stderr).toContain("no such file");
  });
});
