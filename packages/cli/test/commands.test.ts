import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, STDIO, startExampleHttp, TSX, x } from "./run.js";

let http: Awaited<ReturnType<typeof startExampleHttp>>;
beforeAll(async () => {
  assertBuilt();
  http = await startExampleHttp();
});
afterAll(() => http?.stop());

/** The commands against both targets, each in both eras. */
const targets = (): [string, (rest: string[]) => string[]][] => [
  ["stdio", (rest) => [...rest, ...STDIO]],
  ["http", ([command, ...rest]) => [command!, http.url, ...rest]],
];

describe.each(["auto", "2025-06-18"])("x-mcp with --protocol %s", (protocol) => {
  it.each(targets().map(([name]) => name))("lists, calls, reads, prompts and completes over %s", async (name) => {
    const at = targets().find(([n]) => n === name)![1];
    const p = ["--protocol", protocol];

    const listed = await x(at(["list", "--json", ...p]));
    expect(listed.code, listed.stderr).toBe(0);
    const all = JSON.parse(listed.stdout);
    expect(all.tools.map((t: { name: string }) => t.name)).toContain("add");
    expect(all.resources[0].uri).toBe("file:///readme.md");
    expect(all.templates[0].uriTemplate).toBe("units://{unit}");
    expect(all.prompts[0].name).toBe("summarize");

    const human = await x(at(["list", "tools", ...p]));
    expect(human.stdout).toMatch(/^add\s+Add$/m);

    const call = await x(at(["call", "--json", ...p, "add", "a=1", "b=2"]));
    expect(call.code, call.stderr).toBe(0);
    expect(JSON.parse(call.stdout).structuredContent).toEqual({ sum: 3 });

    const json = await x(at(["call", ...p, "echo", '{"text":"007"}']));
    expect(json.stdout).toBe("007\n");
    // A string property keeps what was typed: 007 is not read as the number 7.
    expect((await x(at(["call", ...p, "echo", "text=007"]))).stdout).toBe("007\n");

    const read = await x(at(["read", ...p, "file:///readme.md"]));
    expect(read.stdout).toMatch(/^# @x example server/);

    const prompt = await x(at(["prompt", ...p, "summarize", "text=hello"]));
    expect(prompt.stdout).toBe("user: Summarize this in one sentence:\n\nhello\n");

    const complete = await x(at(["complete", "--json", ...p, "units://{unit}", "unit", "k"]));
    expect(JSON.parse(complete.stdout).completion.values).toEqual(["km", "kg"]);
  });
});

describe("exit codes", () => {
  it("1 for a tool error, with its text on stderr", async () => {
    const run = await x(["call", http.url, "divide", "dividend=1", "divisor=0"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Cannot divide by zero");
  });

  it("1 for an error the server answers (an unknown resource)", async () => {
    const run = await x(["read", ...["file:///nope"], ...STDIO]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/x-mcp read: .*\(-32\d+\)/);
  });

  it("2 for a bad argument, before anything is sent", async () => {
    // The target refuses connections: exit code 2, not 3, shows nothing was tried.
    const port = await closedPort();
    for (const args of [
      ["call", `http://127.0.0.1:${port}/mcp`, "add", "a"],
      ["call", `http://127.0.0.1:${port}/mcp`, "add", "{not json"],
      ["list", "widgets", `http://127.0.0.1:${port}/mcp`],
      ["list", "--protocol", "2099-01-01", `http://127.0.0.1:${port}/mcp`],
      ["list", "--bogus", `http://127.0.0.1:${port}/mcp`],
      ["read", "--header", "no colon", `http://127.0.0.1:${port}/mcp`, "file:///x"],
      ["call", "add"],
    ]) {
      const run = await x(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toMatch(/^x-mcp \w+: /);
    }
    const unknown = await x(["call", http.url, "ad", "a=1"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no tool "ad"');
  });

  it("3 for a server that cannot be reached", async () => {
    const run = await x(["list", "--no-auth", `http://127.0.0.1:${await closedPort()}/mcp`]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("ECONNREFUSED");
    const spawnFails = await x(["list", "--", "/nonexistent/server"]);
    expect(spawnFails.code).toBe(3);
  });

  it("0 and the usage for --help", async () => {
    const run = await x(["call", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^usage: x-mcp call/);
  });
});

describe("elicitation from a pipe", () => {
  it("reads the answers line by line, in both eras", async () => {
    for (const protocol of ["auto", "2025-06-18"]) {
      // y: answer; 4 people; y: answer; time choice 2 (19:30).
      const run = await x(["call", "--protocol", protocol, "book_table", "restaurant=Chez", ...STDIO], { input: "y\n4\ny\n2\n" });
      expect(run.stdout, run.stderr).toBe("Booked Chez for 4 at 19:30.\n");
      expect(run.stderr).toContain("people * (Party size)");
      expect(run.stderr).toContain("  2) 19:30");
    }
  });

  it("declines with n, and cancels at the end of stdin", async () => {
    expect((await x(["call", http.url, "book_table", "restaurant=Chez"], { input: "n\n" })).stdout).toBe("No booking made.\n");
    expect((await x(["call", http.url, "book_table", "restaurant=Chez"], { input: "y\n" })).stdout).toBe("No booking made.\n");
  });

  it("asks again after an answer out of range, a bounded number of times", async () => {
    const run = await x(["call", http.url, "book_table", "restaurant=Chez"], { input: "y\n0\n21\n3\ny\n18:00\n" });
    expect(run.stderr).toContain("at least 1");
    expect(run.stderr).toContain("at most 20");
    expect(run.stdout).toBe("Booked Chez for 3 at 18:00.\n");
    const never = await x(["call", http.url, "book_table", "restaurant=Chez"], { input: `y\n${"x\n".repeat(10)}` });
    expect(never.stderr).toContain("after 5 tries: cancelled");
    expect(never.stdout).toBe("No booking made.\n");
  });
});

/** A loopback port nothing listens on (listened on, then closed). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe("progress", () => {
  const server = fileURLToPath(new URL("./fixtures/progress-server.ts", import.meta.url));
  const target = ["--", process.execPath, "--import", TSX, server];

  it("prints one line per notification on stderr when it is not a terminal, nothing with --quiet", async () => {
    for (const protocol of ["auto", "2025-11-25"]) {
      const run = await x(["call", "--protocol", protocol, "steps", "n=3", ...target]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe("done after 3 steps\n");
      expect(run.stderr).toBe("progress 1/3 step 1\nprogress 2/3 step 2\nprogress 3/3 step 3\n");
    }
    const quiet = await x(["call", "--quiet", "steps", "n=3", ...target]);
    expect(quiet.stderr).toBe("");
  });
});
