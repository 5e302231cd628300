#!/usr/bin/env node
// The ruler of large results (issue 43): `tools/call` of a tool answering
// about K KB of text (text-K) or of structuredContent checked against an
// outputSchema (struct-K, servers/large-tools.mjs), in process through the
// node:http path of paths.mjs (Node's own request and response over a socket
// stand-in), for a build of @x/server or for the bare responder writing the
// very bytes @x answered (captured first, the request's id put in).
//
//   node bench/micro/large-path.mjs --instructions NAME text|struct [KB=1000] [count count ...]
//       instructions per call, counted by valgrind in runs of each count of calls (default 8 24 40)
//   node bench/micro/large-path.mjs --run NAME text|struct KB N
//       N calls after a check of the answer, nothing printed (what --instructions counts)
//   node --expose-gc bench/micro/large-path.mjs --memory NAME text|struct [KB=1000] [width=16]
//       heap and external memory per call in flight: `width` calls answered at once, against one
//
// NAME is as in ab-builds.mjs: a snapshot, `current` or `bare`. Calls go 4 at a
// time, as growth.mjs's 4 connections. The count of instructions repeats
// within a few % on a busy machine, where the CPU time of one call at 1 MB
// moves by tens of % (bench/README.md, "Large results on a steady ruler").
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { registerLargeTools } from "../servers/large-tools.mjs";
import { SERVER_INFO } from "../servers/tools.mjs";
import { headersOf, PROTOCOL_VERSION } from "../workloads.mjs";
import { countScript } from "./ab-builds.mjs";
import { answerOf, bareHttpListener, httpDriver, httpRequestOf, xHttpListener } from "./paths.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const builds = join(here, "..", "results", "builds");
const WIDTH = 4;

/** The call of `kind`-`kb` (id 1) as an HTTP request. */
function callOf(kind, kb) {
  const workload = {
    message: {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: `${kind}-${kb}`,
        arguments: {},
        _meta: { "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION, "io.modelcontextprotocol/clientCapabilities": {} },
      },
    },
    toolName: `${kind}-${kb}`,
  };
  return httpRequestOf(workload.message, headersOf(workload));
}

/** An @x/server build by name: `current` or a snapshot of ab-builds.mjs. */
async function serverModule(name) {
  if (name === "current") return import("@x/server");
  const entry = join(builds, name, "dist", "index.js");
  if (!existsSync(entry)) throw new Error(`no snapshot ${name}: run ab-builds.mjs --snapshot ${name} first`);
  return import(pathToFileURL(entry).href);
}

/**
 * The listener of build `name` for `kind`-`kb`, its answer checked: @x's
 * (its server holding only that tool), or the bare responder's writing the
 * answer of the current @x build split around the id.
 */
async function listenerOf(name, kind, kb) {
  const request = callOf(kind, kb);
  const mod = await serverModule(name === "bare" ? "current" : name);
  const server = new mod.McpServer(SERVER_INFO);
  registerLargeTools(server, [kb]);
  const x = xHttpListener(mod, server);
  const { status, body } = await answerOf(x, request);
  const expect = kind === "text" ? '"text":"xxx' : '"structuredContent":{"items":[';
  if (status !== 200 || !body.includes(expect) || body.length < kb * 1024) throw new Error(`@x answered ${status}: ${body.slice(0, 300)}`);
  if (name !== "bare") return { listener: x, request };
  const at = body.indexOf('"id":1,') + 5;
  return { listener: bareHttpListener([body.slice(0, at), body.slice(at + 1)]), request };
}

/** The instructions valgrind counts for a whole process of `n` calls (countScript of ab-builds.mjs). */
function countInstructions(name, kind, kb, n) {
  return countScript(fileURLToPath(import.meta.url), ["--run", name, kind, String(kb), String(n)], `${name} ${kind}-${kb}`);
}

const [mode, name, kind, ...rest] = process.argv.slice(2);
if (!name || (kind !== "text" && kind !== "struct")) {
  throw new Error("usage: large-path.mjs --instructions|--run|--memory NAME text|struct [KB] ...");
}
if (mode === "--run") {
  const [kb = "1000", n = "10"] = rest;
  const { listener, request } = await listenerOf(name, kind, Number(kb));
  const run = await httpDriver(listener, WIDTH, request);
  await run(Number(n));
  process.exit(0);
} else if (mode === "--instructions") {
  const [kb = "1000", ...given] = rest;
  const counts = (given.length >= 2 ? given : ["8", "24", "40"]).map(Number);
  const totals = [];
  // Two runs at a time (2 cores); each neighbouring pair of counts is one figure.
  for (let i = 0; i < counts.length; i += 2)
    totals.push(...(await Promise.all(counts.slice(i, i + 2).map((n) => countInstructions(name, kind, kb, n)))));
  const per = totals.slice(1).map((total, i) => (total - totals[i]) / (counts[i + 1] - counts[i]));
  const all = (totals.at(-1) - totals[0]) / (counts.at(-1) - counts[0]);
  const shown = (v) => Math.round(v).toLocaleString("en");
  console.log(
    `${name} ${kind}-${kb}: ${shown(all)} instructions/call over ${counts[0]}..${counts.at(-1)} calls (per step: ${per.map(shown).join(", ")})`,
  );
  process.exit(0);
} else if (mode === "--memory") {
  const [kb = "1000", widthText = "16"] = rest;
  const width = Number(widthText);
  const { listener, request } = await listenerOf(name, kind, Number(kb));
  // Heap + external over the level at rest, read as each answer is handed to res.end: all
  // the round's answers are written together at the end of the turn, so the first read sees them all.
  let peak = 0;
  let base = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.heapUsed + m.external - base);
  };
  const sampled = (req, res) => {
    const end = res.end;
    res.end = (...args) => {
      sample();
      return end.apply(res, args);
    };
    listener(req, res);
  };
  const peakOf = async (w) => {
    const run = await httpDriver(sampled, w, request);
    await run(w);
    globalThis.gc();
    globalThis.gc();
    const m = process.memoryUsage();
    base = m.heapUsed + m.external;
    peak = 0;
    await run(w);
    return peak;
  };
  const one = await peakOf(1);
  const many = await peakOf(width);
  const MiB = 1024 * 1024;
  console.log(
    `${name} ${kind}-${kb}: ${((many - one) / (width - 1) / MiB).toFixed(2)} MiB per call in flight (peak over the level at rest: ${(one / MiB).toFixed(2)} MiB with 1, ${(many / MiB).toFixed(2)} MiB with ${width})`,
  );
  process.exit(0);
} else throw new Error(`unknown mode ${mode}`);
