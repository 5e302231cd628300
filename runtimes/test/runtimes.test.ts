// The example server and @x/client on Bun, Deno, Node 22 and workerd, each
// installed from npm (exact versions), never mocked: Bun, Deno, workerd and
// Miniflare as devDependencies of this package, Node 22 as the `node`
// devDependency of conformance/ (found through its node_modules):
// - the server: scripts/serve.mjs serves the example server with the
//   runtime's own HTTP server (Bun.serve, Deno.serve, Node's `listen`) and
//   @x/server's fetch handler; on workerd, scripts/worker.mjs is bundled for
//   workerd (as wrangler bundles) and run by Miniflare. @x/client on Node 20
//   drives it in both eras (discover, list, a call, a call whose arguments
//   the inputSchema refuses, book_table's two questions);
// - the client: scripts/client.mjs (workerd: scripts/worker-client.mjs)
//   runs @x/client on the runtime against the example server on Node 20
//   (`listen`), in both eras, and reports what it saw.
// A runtime whose binary is missing or does not run here fails every test
// with the reason; nothing is skipped.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Answer, Client, type Request, StreamableHttpTransport } from "@x/client";
import { listen } from "@x/server";
import * as esbuild from "esbuild";
import { Miniflare } from "miniflare";
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
  /** What `--version` prints, and how the scripts name the runtime. */
  version: RegExp;
  label: RegExp;
}

const runtimes: Runtime[] = [
  {
    name: "Bun",
    // `bun`'s postinstall puts the platform package's binary (@oven/bun-linux-x64 here) at bin/bun.exe.
    binary: () => join(dirname(require.resolve("bun/package.json")), "bin", "bun.exe"),
    // --no-install: never fetch a package that is missing from node_modules.
    run: (script, args) => ["--no-install", script, ...args],
    env: { DO_NOT_TRACK: "1" },
    version: /^1\.4\.5/,
    label: /^bun 1\.4\.5$/,
  },
  {
    name: "Deno",
    // `deno`'s postinstall puts the platform package's binary (@deno/linux-x64-glibc here) beside its package.json.
    binary: () => join(dirname(require.resolve("deno/package.json")), "deno"),
    // node_modules as pnpm laid it out (manual), nothing downloaded, no prompt. Loading from node_modules,
    // ajv through createRequire included, needs no --allow-read. @x/server reads
    // MCP_REQUEST_STATE_KEYS when no requestStateKeys option is given; Deno refuses that read without --allow-env.
    // A server naming no JSON Schema validator requires its own @x/server/ajv at the first schema: inside
    // node_modules once installed, but here the workspace link puts it outside, hence its one --allow-read.
    run: (script, args) => [
      "run",
      "--node-modules-dir=manual",
      "--cached-only",
      "--no-prompt",
      "--allow-net=127.0.0.1",
      "--allow-env=MCP_REQUEST_STATE_KEYS",
      `--allow-read=${join(packageDir, "..", "packages", "server", "dist")}`,
      script,
      ...args,
    ],
    env: { DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    version: /^deno 2\.9\.6/,
    label: /^deno 2\.9\.6$/,
  },
  {
    name: "Node 22",
    // The `node` package (a devDependency of conformance/ only) puts the Node 22 binary at bin/node.
    binary: () =>
      join(dirname(createRequire(join(packageDir, "..", "conformance", "package.json")).resolve("node/package.json")), "bin", "node"),
    run: (script, args) => [script, ...args],
    env: {},
    version: /^v22\.23\.3/,
    label: /^node 22\.23\.3$/,
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

/** Runs the client script on `runtime` to completion (within 150 s: a hang guard) and returns its stdout, or rejects with its stderr. */
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
      reject(new Error(`${runtime.name} client did not finish within 150 s: ${stderr}`));
    }, 150_000);
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

/**
 * Drives the example server at `url` with `client` (built with
 * {@link answerBooking}) in the era `protocol`: discover, list, a call, a
 * call whose arguments the inputSchema refuses, book_table's two questions,
 * an action tool's call refused by its value gate and one it runs.
 */
async function driveExample(client: Client, url: string, protocol: string): Promise<void> {
  await client.connect(new StreamableHttpTransport(url));
  if (client.serverInfo === undefined) await client.discover();
  expect(client.protocolVersion).toBe(protocol);
  expect(client.serverInfo).toMatchObject({ name: "x-example", version: "0.1.0" });

  const tools = (await client.listAllTools()).map((t) => t.name);
  expect(tools).toEqual(expect.arrayContaining(["echo", "add", "book_table"]));

  const sum = await client.callTool("add", { a: 2, b: 40 });
  expect(sum.structuredContent).toEqual({ sum: 42 });
  // The inputSchema is compiled on the runtime (ajv; on workerd the cfworker validator) and refuses this before the handler runs.
  const wrong = await client.callTool("add", { a: "two", b: 40 });
  expect(wrong.isError).toBe(true);
  expect(JSON.stringify(wrong.content)).toContain("Invalid arguments for tool add");

  const booked = await client.callTool("book_table", { restaurant: "Noma" });
  expect(booked.isError).toBeFalsy();
  expect(booked.content).toEqual([{ type: "text", text: "Booked Noma for 5 at 21:00." }]);

  // An action tool: its value gate (ajv, or on workerd the cfworker validator) names the allowed units.
  const refused = JSON.stringify(await client.callTool("units", { action: "convert", data: { value: 5, from: "km", to: "miles" } }));
  expect(refused).toContain("invalid_values");
  expect(refused).toContain('\\"mi\\"');
  expect(JSON.stringify(await client.callTool("units", { action: "convert", data: { value: 5, from: "km", to: "mi" } }))).toContain("3.11");
}

/** What scripts/drive.mjs reports on a runtime named like `label` in the era `protocol`. */
function driven(protocol: string, label: RegExp) {
  return {
    runtime: expect.stringMatching(label),
    protocol,
    server: "x-example",
    tools: expect.arrayContaining(["add", "book_table", "echo"]),
    add: { sum: 42 },
    booked: [{ type: "text", text: "Booked Noma for 3 at 19:30." }],
  };
}

describe.each(runtimes)("$name", (runtime) => {
  it("runs here", () => {
    const binary = usable(runtime);
    const version = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 20_000 });
    expect(version.stdout).toMatch(runtime.version);
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
          expect(server.stderr()).toMatch(new RegExp(`\\(${runtime.label.source.slice(1, -1)}\\)`));
          await driveExample(client, server.url, protocol);
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
          expect(printed).toEqual(driven(protocol, runtime.label));
        } finally {
          await server.close();
        }
      });
    }
  });
});

// ---------------------------------------------------------------------------
// workerd, through Miniflare

/** What the two bundles of a script share: one ES module in memory, for es2022. */
async function bundle(script: string, options: esbuild.BuildOptions): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [join(packageDir, "scripts", script)],
    absWorkingDir: packageDir,
    bundle: true,
    format: "esm",
    target: "es2022",
    write: false,
    ...options,
  });
  return result.outputFiles![0]!.text;
}

/**
 * Bundles `script` (in scripts/) for workerd as wrangler does: the workerd,
 * worker and browser conditions (so @x/json-schema's default validator is
 * the cfworker one, which needs no code generation: workerd forbids it), a
 * platform-neutral ES module, `node:*` left to the runtime (nodejs_compat).
 */
function bundleForWorkerd(script: string): Promise<string> {
  return bundle(script, {
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    external: ["node:*"],
    logLevel: "error",
  });
}

/**
 * Bundles `script` as a browser app's bundler would: esbuild's browser
 * platform (the browser condition) with nothing left out, so an `import` of
 * any `node:*` module anywhere in what it reaches fails the build.
 */
function bundleForBrowser(script: string): Promise<string> {
  return bundle(script, { platform: "browser", logLevel: "silent" });
}

/** 32 bytes, base64: the request-state key the server Worker gets as its MCP_REQUEST_STATE_KEYS binding. */
const WORKER_KEY = Buffer.alloc(32, 7).toString("base64");

/**
 * Runs `script` bundled in workerd on 127.0.0.1 (a free port), with
 * nodejs_compat (Buffer, node:crypto; string bindings appear in
 * process.env, where the server reads MCP_REQUEST_STATE_KEYS); with `web`,
 * bundled for browsers and run with the web platform's APIs only.
 */
async function startWorker(script: string, web = false): Promise<{ url: URL; stop: () => Promise<void> }> {
  const miniflare = new Miniflare({
    modules: true,
    script: web ? await bundleForBrowser(script) : await bundleForWorkerd(script),
    compatibilityDate: "2025-09-01",
    // web: no nodejs_compat, so no Buffer, no process and no node:* module, as in a browser.
    compatibilityFlags: web ? [] : ["nodejs_compat"],
    bindings: { MCP_REQUEST_STATE_KEYS: WORKER_KEY },
    host: "127.0.0.1",
    port: 0,
  });
  try {
    return { url: await miniflare.ready, stop: () => miniflare.dispose() };
  } catch (error) {
    await miniflare.dispose().catch(() => {});
    throw new Error(`workerd could not start the ${script} Worker: ${(error as Error).message}`);
  }
}

describe("workerd (Miniflare)", () => {
  it("runs here", () => {
    const binary = join(dirname(require.resolve("workerd/package.json")), "bin", "workerd");
    if (!existsSync(binary)) throw new Error(`workerd: no binary at ${binary} (its postinstall did not run?)`);
    const version = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 20_000 });
    if (version.error || version.status !== 0) throw new Error(`workerd cannot run here: ${version.error?.message ?? version.stderr}`);
    expect(version.stdout).toMatch(/^workerd 2026-04-26/);
  });

  it("the bundle of the example server carries the cfworker validator", async () => {
    expect(await bundleForWorkerd("worker.mjs")).toContain("@cfworker/json-schema");
  });

  describe("the example server on it (Node client)", () => {
    for (const protocol of ["2026-07-28", "2025-11-25"] as const) {
      it(`serves the ${protocol} era: discover, list, a call, a refused argument, an elicitation round`, async () => {
        const worker = await startWorker("worker.mjs");
        const client = new Client({ name: "runtime-test", version: "1" }, { waitFor: answerBooking, protocol });
        try {
          await driveExample(client, new URL("/mcp", worker.url).href, protocol);
        } finally {
          await client.close();
          await worker.stop();
        }
      });
    }
  });

  it("a browser bundle of @x/client builds with no node:* module left out, and carries no import of one", async () => {
    const code = await bundleForBrowser("worker-client.mjs");
    expect(code).not.toMatch(/\bfrom\s*["']node:|\bimport\s*\(\s*["']node:/);
    expect(code).toContain("runtime-client");
  });

  for (const web of [false, true]) {
    describe(`@x/client on it (example server on Node)${web ? ", bundled for browsers, without nodejs_compat" : ""}`, () => {
      for (const protocol of ["2026-07-28", "2025-11-25"] as const) {
        it(`lists, calls and answers an elicitation in the ${protocol} era`, async () => {
          const server = await listen(createExampleServer(), { port: 0, host: "127.0.0.1" });
          const worker = await startWorker("worker-client.mjs", web).catch(async (error) => {
            await server.close();
            throw error;
          });
          try {
            const query = new URLSearchParams({ url: server.url, protocol });
            const response = await fetch(new URL(`/?${query}`, worker.url), { signal: AbortSignal.timeout(30_000) });
            const text = await response.text();
            if (response.status !== 200) throw new Error(`@x/client on workerd failed (${response.status}): ${text}`);
            expect(JSON.parse(text)).toEqual(driven(protocol, /^workerd \(Cloudflare-Workers\)$/));
          } finally {
            await worker.stop();
            await server.close();
          }
        });
      }
    });
  }
});
