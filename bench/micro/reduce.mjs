#!/usr/bin/env node
// The reduction of a result to an earlier version (`@x/json-schema/reduce`,
// what a 2025-11-25 session's answers go through), counted, not timed: the
// instructions valgrind counts for N reductions of an echo `CallToolResult`
// (one text block), or of a `tools/list` page of 20 tools, as the server's
// version table does them (`fitsShape`, then `reduce`), less those of a
// smaller N. One count repeats to within a few hundred instructions.
//
//   node bench/micro/reduce.mjs --snapshot NAME          copy packages/json-schema/dist to bench/results/builds/reduce-NAME
//   node bench/micro/reduce.mjs --instructions NAME...   instructions per reduction of each build (current, or a snapshot)
//   node bench/micro/reduce.mjs --run NAME METHOD N      N reductions of METHOD's result, nothing printed (what is counted)
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { countScript } from "./ab-builds.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const builds = join(here, "..", "results", "builds");
const script = fileURLToPath(import.meta.url);

/** The messages reduced: an echo call's result, and a page of 20 tools as an earlier version lists them. */
const MESSAGES = {
  "tools/call": { content: [{ type: "text", text: "hello" }] },
  "tools/list": {
    tools: Array.from({ length: 20 }, (_, i) => ({
      name: `tool-${i}`,
      description: "a tool",
      inputSchema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      annotations: { readOnlyHint: true },
    })),
  },
};

const distOf = (name) => (name === "current" ? join(root, "packages", "json-schema", "dist") : join(builds, `reduce-${name}`));

async function runReductions(name, method, n) {
  const dist = distOf(name);
  if (!existsSync(dist)) throw new Error(`no snapshot ${name}: run --snapshot ${name} first`);
  const { fitsShape, reduce } = await import(pathToFileURL(join(dist, "reduce.js")).href);
  const members = await import(pathToFileURL(join(root, "packages", "mcp-v2511", "dist", "generated", "members.js")).href);
  const defs = members.serverDefinitions;
  const message = MESSAGES[method];
  const shape = members.clientRequestResults[method];
  let kept = 0;
  for (let i = 0; i < n; i++) if (fitsShape(message, shape, defs)) kept += reduce(message, shape, defs).fits ? 1 : 0;
  if (kept !== n) throw new Error(`${kept} reductions of ${method} fitted, not ${n}`);
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === "--snapshot") {
  const to = join(builds, `reduce-${rest[0]}`);
  rmSync(to, { recursive: true, force: true });
  mkdirSync(builds, { recursive: true });
  cpSync(distOf("current"), to, { recursive: true });
  console.log(`snapshot of packages/json-schema/dist in ${to}`);
} else if (mode === "--run") {
  await runReductions(rest[0], rest[1], Number(rest[2]));
} else if (mode === "--instructions") {
  const [low, high] = [1000, 6000];
  for (const name of rest.length > 0 ? rest : ["current"])
    for (const method of Object.keys(MESSAGES)) {
      const [a, b] = await Promise.all(
        [low, high].map((n) => countScript(script, ["--run", name, method, String(n)], `reduce ${name} ${n}`)),
      );
      console.log(`${name} ${method}: ${Math.round((b - a) / (high - low)).toLocaleString("en")} instructions per reduction`);
    }
} else {
  throw new Error("usage: reduce.mjs --snapshot NAME | --instructions NAME... | --run NAME N");
}
