#!/usr/bin/env node
// Micro-benchmark of @x/builders on the inputs a server meets per request: a
// tool's result (text and data, a ready block, 60 rows of data), the checks
// of an ask (`ctx.elicit` runs elicitRequest, `ctx.createMessage`
// createMessageRequest), a resource read, a list of 20 tools. With the path
// of another build's dist, both are timed in one process and compared.
//
//   node bench/micro/builders.mjs [other-dist-dir] [pairs]
//
// Each pair times a short block of calls of the other build, one of the
// current build, and the other again (CPU time, about 10 ms a block); the
// change is the median over the pairs, as bench/micro/json.mjs does.
import { pathToFileURL } from "node:url";
import * as current from "@x/builders";

const otherDir = process.argv[2] && !/^\d+$/.test(process.argv[2]) ? process.argv[2] : undefined;
const PAIRS = Number(process.argv[otherDir ? 3 : 2] ?? 100);
const other = otherDir ? await import(pathToFileURL(`${otherDir}/index.js`).href) : undefined;

const rows = Array.from({ length: 60 }, (_, i) => ({ id: i * 7919, name: `row ${i}`, price: i * 125, at: 1767225600000 + i }));
const nameSchema = { type: "object", properties: { name: { type: "string", minLength: 1 } }, required: ["name"] };
const sampling = { messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }], maxTokens: 100 };
const tools = Array.from({ length: 20 }, (_, i) => ({
  name: `tool_${i}`,
  description: "Adds two numbers",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  annotations: { readOnlyHint: true },
}));
const cases = {
  "callToolResult: text + data { rows: 3 }": (b) =>
    b.callToolResult([
      ["text", "3 rows"],
      ["data", { rows: 3 }],
    ]),
  "callToolResult: a ready text block": (b) => b.callToolResult([{ type: "text", text: "hello" }]),
  "callToolResult: _data of 60 rows": (b) => b.callToolResult([["_data", { rows }]]),
  "elicitRequest (an ask's check)": (b) => b.elicitRequest("Your name?", nameSchema),
  "createMessageRequest (an ask's check)": (b) => b.createMessageRequest(sampling),
  "readResourceResult, flat": (b) => b.readResourceResult({ uri: "file:///readme.txt", text: "# Welcome", ttlMs: 1000 }),
  "listToolsResult of 20 tools": (b) => b.listToolsResult(tools),
};

// One timing loop per function and build: a shared loop would be megamorphic.
const timer = () =>
  new Function(
    "fn",
    "b",
    "n",
    `let sink;
const start = process.cpuUsage();
for (let i = 0; i < n; i++) sink = fn(b);
const used = process.cpuUsage(start);
if (sink === undefined) throw new Error("unreachable");
return ((used.user + used.system) * 1000) / n;`,
  );
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

console.log(`node ${process.version}, ${PAIRS} pairs of blocks, median CPU time per call`);
console.log(`${"".padEnd(42)} ${(other ? "other" : "").padStart(8)} ${"current".padStart(9)} ${other ? "change".padStart(8) : ""}`);
for (const [name, run] of Object.entries(cases)) {
  const timeA = timer();
  const timeB = timer();
  for (let i = 0; i < 3; i++) {
    if (other) timeA(run, other, 2000);
    timeB(run, current, 2000);
  }
  const n = Math.max(200, Math.round(10_000_000 / timeB(run, current, 2000)));
  const a = [];
  const b = [];
  const change = [];
  for (let p = 0; p < PAIRS; p++) {
    if (!other) {
      b.push(timeB(run, current, n));
      continue;
    }
    const before = timeA(run, other, n);
    const ours = timeB(run, current, n);
    const after = timeA(run, other, n);
    const base = (before + after) / 2;
    a.push(base);
    b.push(ours);
    change.push((ours - base) / base);
  }
  const shown = other
    ? `${median(a).toFixed(0).padStart(6)} ns ${median(b).toFixed(0).padStart(6)} ns ${(median(change) * 100).toFixed(0).padStart(6)} %`
    : `${"".padStart(9)} ${median(b).toFixed(0).padStart(6)} ns`;
  console.log(`${name.padEnd(42)} ${shown}`);
}
