#!/usr/bin/env node
// Which source files of @x/server one request runs code in: a `tools/call`
// over Streamable HTTP, and a `tools/call` whose handler awaits
// `ctx.elicit(...)` (both rounds of 2026-07-28's Multi Round-Trip), each
// after a warm-up call of the same kind, so that what is counted is the
// request's path and not the first call's set-up. The server's src/ is
// transpiled file by file (esbuild, no bundling) into a folder under
// packages/server, run with NODE_V8_COVERAGE, and a file counts when one of
// its functions ran during the request (v8.takeCoverage() resets the
// counters before it). The client (@x/client from its dist) runs in the same
// process; its files are not counted.
//
//   node bench/request-path.mjs [--root <checkout>] [--entry v2607]
//   (the root defaults to this repository; --entry v2607 serves with the
//   2026-07-28-only McpServer of @x/server/v2607 instead of the two-era one)
//
// Prints the files, one per line, and the count, for each of the two requests.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const rootAt = process.argv.indexOf("--root");
const root = resolve(rootAt > 0 ? process.argv[rootAt + 1] : join(here, ".."));
const server = join(root, "packages", "server");
const out = join(server, ".request-path");
const coverage = join(out, "coverage");
const entryAt = process.argv.indexOf("--entry");
const entry = entryAt > 0 ? process.argv[entryAt + 1] : "index";

function sources(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...sources(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) found.push(path);
  }
  return found;
}

if (process.argv.includes("--driver")) {
  const v8 = await import("node:v8");
  const { McpServer, listen, cfworkerValidator } = await import(pathToFileURL(join(out, "src", `${entry}.js`)).href);
  const { Client, StreamableHttpTransport } = await import(pathToFileURL(join(root, "packages", "client", "dist", "index.js")).href);
  // Named where the checkout has the option (the default validator is found beside the built files).
  const mcp = new McpServer({ name: "path", version: "1.0.0" }, cfworkerValidator ? { validator: cfworkerValidator } : {});
  const numbers = { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] };
  mcp.registerTool("add", { inputSchema: numbers }, async ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  const nameSchema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
  mcp.registerTool("greet", { inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = await ctx.elicit("Your name?", nameSchema);
    return { content: [{ type: "text", text: `hello ${answer.content?.name}` }] };
  });
  const listener = await listen(mcp, { port: 0 });
  const url = listener.url ?? `http://127.0.0.1:${listener.port}/mcp`;
  const client = new Client(
    { name: "path-client", version: "1.0.0" },
    { protocol: "2026-07-28", handlers: { elicitation: async () => ({ action: "accept", content: { name: "x" } }) } },
  );
  await client.connect(new StreamableHttpTransport(url));
  const taken = new Set();
  const take = () => {
    v8.takeCoverage();
    const file = readdirSync(coverage).find((name) => !taken.has(name));
    taken.add(file);
    return file;
  };
  const results = {};
  for (const [label, call] of [
    ["tools/call over HTTP", () => client.callTool("add", { a: 2, b: 40 })],
    ["tools/call with ctx.elicit (both rounds)", () => client.callTool("greet", {})],
  ]) {
    await call();
    take();
    const result = await call();
    if (result.isError) throw new Error(`${label} failed: ${JSON.stringify(result)}`);
    results[label] = take();
  }
  await client.close();
  await listener.close();
  writeFileSync(join(out, "takes.json"), JSON.stringify(results));
  process.exit(0);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(coverage, { recursive: true });
const files = sources(join(server, "src"));
const esbuild = join(here, "..", "node_modules", ".bin", "esbuild");
const built = spawnSync(
  esbuild,
  [...files, `--outdir=${join(out, "src")}`, `--outbase=${join(server, "src")}`, "--format=esm", "--platform=node", "--log-level=error"],
  { stdio: "inherit" },
);
if (built.status !== 0) process.exit(built.status ?? 1);
// The transpiled files sit in packages/server, so their imports resolve as the source's do.
// Its `imports` name the built files (./dist/X.js): here, the transpiled ./src/X.js.
const imports = JSON.stringify(JSON.parse(readFileSync(join(server, "package.json"), "utf8")).imports ?? {});
writeFileSync(join(out, "package.json"), `{"type":"module","imports":${imports.replaceAll('"./dist/', '"./src/')}}`);
const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--driver", "--root", root, "--entry", entry], {
  stdio: "inherit",
  env: { ...process.env, NODE_V8_COVERAGE: coverage },
});
if (run.status !== 0) process.exit(run.status ?? 1);
const takes = JSON.parse(readFileSync(join(out, "takes.json"), "utf8"));
const prefix = pathToFileURL(join(out, "src")).href;
for (const [label, file] of Object.entries(takes)) {
  const report = JSON.parse(readFileSync(join(coverage, file), "utf8"));
  const ran = report.result
    .filter((script) => script.url.startsWith(prefix))
    .filter((script) => script.functions.some((fn) => fn.ranges[0].count > 0))
    .map((script) => relative(fileURLToPath(prefix), fileURLToPath(script.url)).replace(/\.js$/, ".ts"))
    .sort();
  console.log(`\n${label}: ${ran.length} files of packages/server/src`);
  for (const name of ran) console.log(`  ${name}`);
}
rmSync(out, { recursive: true, force: true });
