// The example server and @x/client on Bun and Deno, both installed from npm
// as devDependencies of this package (exact versions), never mocked:
// - the server: scripts/serve.mjs serves the example server with the
//   runtime's own HTTP server (Bun.serve, Deno.serve) and @x/server's fetch
//   handler; @x/client on Node drives it in both eras (discover, list, a
//   call, a call whose arguments the inputSchema refuses, book_table's two
//   questions);
// - the client: scripts/client.mjs runs @x/client on the runtime against the
//   example server on Node (`listen`), in both eras, and prints what it saw.
// A runtime whose binary is missing or does not run here fails every test
// with the reason; nothing is skipped.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Answer, Client, type Request, StreamableHttpTransport } from "@x/client";
import { listen } from "@x/server";
import { describe, expect, it } from "vitest";
import { createExampleServer } from "../../examples/src/tools.js";
import { type Listening, startCommandListening, stopProcess } from "../../test-support/processes.js";

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, "..");
const require = createRequire(import.meta.url);

interface Runtime {
  name: string;
  /** The binary, inside the npm package that installed it. */
  binary(): string;
  /** The arguments that run `script` with `args` (Deno: talking to 127.0.0.1 only; it reads node_modules without --allow-read). */
  run(script: string, args: string[]): string[];
  env: Record<string, string>;
}

const runtimes: Runtime[] = [
  {
    name: "Bun",
    // `bun`'s postinstall puts the platform package's binary (@oven/bun-linux-x64 here) at bin/bun.exe.
    binary: () => join(dirname(require.resolve("bun/package.json")), "bin", "bun.exe"),
    // --no-install: never fetch a package that is missing from node_modules.
    run: (script, args) => ["--no-install", script, ...args],
    env: { DO_NOT_TRACK: "1" },
  },
  {
    name: "Deno",
    // `deno`'s postinstall puts the platform package's binary (@deno/linux-x64-glibc here) beside its package.json.
    binary: () => join(dirname(require.resolve("deno/package.json")), "deno"),
    // node_modules as pnpm laid it out (manual), nothing downloaded, no prompt. Loading from node_modules,
    // ajv through createRequire included, needs no --allow-read. @x/server reads
    // MCP_REQUEST_STATE_KEYS when no requestStateKeys option is given; Deno refuses that read without --allow-env.
    run: (script, args) => [
      "run",
      "--node-modules-dir=manual",
      "--cached-only",
      "--no-prompt",
      "--allow-net=127.0.0.1",
      "--allow-env=MCP_REQUEST_STATE_KEYS",
      script,
      ...args,
    ],
    env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
  },
];

/** The binary's path once `--version` ran, or an error saying why it cannot run here. */
function usable(runtime: Runtime): string {
  let binary: string;
  try {
    binary = runtime.binary();
  } catch (error) {
    throw new Error(`${runtime.name} is not installed (pnpm install in runtimes/): ${(error as Error).message}`);
  }
  if (!existsSync(binary)) throw new Error(`${runtime.name}: no binary at ${binary} (its postinstall did not run?)`);
  const version = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 20_000 });
  if (version.error || version.status !== 0)
    throw new Error(
      `${runtime.name} cannot run here: ${binary} --version: ${version.error?.message ?? `exit ${version.status}`} ${version.stderr}`,
    );
  return binary;
}

/** Runs the client script on `runtime` to completion (within 30 s) and returns its stdout, or rejects with its stderr. */
function runClient(runtime: Runtime, binary: string, args: string[]): Promise<string> {
  const child = spawn(binary, runtime.run(join(packageDir, "scripts", "client.mjs"), args), {
    cwd: packageDir,
    env: { ...process.env, ...runtime.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stopProcess(child, "SIGKILL");
      reject(new Error(`${runtime.name} client did not finish within 30 s: ${stderr}`));
    }, 30_000);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${runtime.name} client exited with ${code}: ${stderr}`));
    });
  });
}

/** Answers book_table's questions: 5 people at 21:00. */
const answerBooking = async (request: Request): Promise<Answer> => {
  const fields = Object.keys((request.data?.schema as { properties?: object } | undefined)?.properties ?? {});
  const values: Record<string, unknown> = { people: 5, time: "21:00" };
  return { id: request.id, ok: true, data: Object.fromEntries(fields.map((f) => [f, values[f]])) };
};

describe.each(runtimes)("$name", (runtime) => {
  it("runs here", () => {
    const binary = usable(runtime);
    const version = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 20_000 });
    expect(version.stdout).toMatch(runtime.name === "Bun" ? /^1\.4\.5/ : /^deno 2\.9\.6/);
  });

  describe("the example server on it (Node client)", () => {
    for (const protocol of ["2026-07-28", "2025-11-25"] as const) {
      it(`serves the ${protocol} era: discover, list, a call, a refused argument, an elicitation round`, async () => {
        const binary = usable(runtime);
        let server: Listening | undefined;
        const client = new Client({ name: "runtime-test", version: "1" }, { waitFor: answerBooking, protocol });
        try {
          server = await startCommandListening(binary, runtime.run(join(packageDir, "scripts", "serve.mjs"), []), {
            cwd: packageDir,
            env: runtime.env,
          });
          expect(server.stderr()).toMatch(runtime.name === "Bun" ? /\(bun 1\.4\.5\)/ : /\(deno 2\.9\.6\)/);
          await client.connect(new StreamableHttpTransport(server.url));
          if (client.serverInfo === undefined) await client.discover();
          expect(client.protocolVersion).toBe(protocol);
          expect(client.serverInfo).toMatchObject({ name: "x-example", version: "0.1.0" });

          const tools = (await client.listAllTools()).map((t) => t.name);
          expect(tools).toEqual(expect.arrayContaining(["echo", "add", "book_table"]));

          const sum = await client.callTool("add", { a: 2, b: 40 });
          expect(sum.structuredContent).toEqual({ sum: 42 });
          // The inputSchema is compiled (ajv, loaded with createRequire) on the runtime and refuses this before the handler runs.
          const wrong = await client.callTool("add", { a: "two", b: 40 });
          expect(wrong.isError).toBe(true);
          expect(JSON.stringify(wrong.content)).toContain("Invalid arguments for tool add");

          const booked = await client.callTool("book_table", { restaurant: "Noma" });
          expect(booked.isError).toBeFalsy();
          expect(booked.content).toEqual([{ type: "text", text: "Booked Noma for 5 at 21:00." }]);
        } finally {
          await client.close();
          if (server) await stopProcess(server.child);
        }
      });
    }
  });

  describe("@x/client on it (example server on Node)", () => {
    for (const protocol of ["2026-07-28", "2025-11-25"] as const) {
      it(`lists, calls and answers an elicitation in the ${protocol} era`, async () => {
        const binary = usable(runtime);
        const server = await listen(createExampleServer(), { port: 0, host: "127.0.0.1" });
        try {
          const printed = JSON.parse(await runClient(runtime, binary, [server.url, protocol]));
          expect(printed).toEqual({
            runtime: expect.stringMatching(runtime.name === "Bun" ? /^bun 1\.4\.5$/ : /^deno 2\.9\.6$/),
            protocol,
            server: "x-example",
            tools: expect.arrayContaining(["add", "book_table", "echo"]),
            add: { sum: 42 },
            booked: [{ type: "text", text: "Booked Noma for 3 at 19:30." }],
          });
        } finally {
          await server.close();
        }
      });
    }
  });
});
