#!/usr/bin/env node
// Micro-benchmark of parseJson/stringifyJson (@x/jsonrpc) against the
// built-ins: what reading a typical request and writing its answer cost over
// JSON.parse/JSON.stringify, and what the rare message with an integer beyond
// 2^53 costs (the second, digit-keeping read).
//
//   node bench/micro/json.mjs [pairs]
//
// Each pair times a short block of built-in calls, one of ours, and the
// built-in again (CPU time, about 10 ms a block); the overhead is the median
// over the pairs of ours against the mean of the two built-in blocks around
// it. Short paired blocks keep a busy machine's swings out of the difference.
import { parseJson, stringifyJson } from "@x/jsonrpc";

const PAIRS = Number(process.argv[2] ?? 200);

// What @x/client sends for tools/call echo (its own _meta, a small argument),
// decoded from bytes as a transport gets it.
const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  "io.modelcontextprotocol/clientInfo": { name: "x-mcp-client", version: "0.1.0" },
};
const bytes = (text) => new TextDecoder().decode(new TextEncoder().encode(text));
const call = (id, args) =>
  bytes(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: args, _meta: meta } }));
const typical = call(17, { text: "hello" });
const numbers = call(18, { a: 2, b: 40.5, at: 1767225600000, list: [1, 2, 3] });
// Number-heavy: 60 rows with ids, prices and 13-digit millisecond timestamps.
const rows = call(19, {
  rows: Array.from({ length: 60 }, (_, i) => ({ id: i * 7919, name: `row ${i}`, price: i * 1.25, at: 1767225600000 + i })),
});
const big = bytes(typical.replace('"id":17', '"id":9007199254740993'));
const answer = JSON.parse(
  '{"jsonrpc":"2.0","id":17,"result":{"resultType":"complete","content":[{"type":"text","text":"hello"}],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"x","version":"1.0.0"}}}}',
);

// One timing loop per function measured: a loop shared by several functions
// would call them through a megamorphic site and time that instead. CPU time,
// not wall time: on a shared machine the wall clock also counts other programs.
const timer = () =>
  new Function(
    "fn",
    "input",
    "n",
    `let sink;
const start = process.cpuUsage();
for (let i = 0; i < n; i++) sink = fn(input);
const used = process.cpuUsage(start);
if (sink === undefined) throw new Error("unreachable");
return ((used.user + used.system) * 1000) / n;`,
  );

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Times `ours(oursInput)` against `builtin(input)` in paired blocks of `n` calls. */
function compare(name, builtin, ours, input, oursInput = input) {
  const timeA = timer();
  const timeB = timer();
  // Blocks of about 10 ms, sized from a first measure.
  for (let i = 0; i < 3; i++) {
    timeA(builtin, input, 2000);
    timeB(ours, oursInput, 2000);
  }
  const n = Math.max(200, Math.round(10_000_000 / timeB(ours, oursInput, 2000)));
  const a = [];
  const b = [];
  const overhead = [];
  for (let p = 0; p < PAIRS; p++) {
    const before = timeA(builtin, input, n);
    const ourTime = timeB(ours, oursInput, n);
    const after = timeA(builtin, input, n);
    const base = (before + after) / 2;
    a.push(base);
    b.push(ourTime);
    overhead.push((ourTime - base) / base);
  }
  const x = median(a);
  const y = median(b);
  console.log(
    `${name.padEnd(48)} ${x.toFixed(0).padStart(6)} ns ${y.toFixed(0).padStart(7)} ns ${(median(overhead) * 100).toFixed(1).padStart(7)} %`,
  );
}

console.log(`node ${process.version}, ${PAIRS} pairs of blocks, median CPU time per call`);
console.log(`${"".padEnd(48)} ${"built-in".padStart(9)} ${"@x/jsonrpc".padStart(10)} ${"overhead".padStart(9)}`);
compare(`parse tools/call echo (${typical.length} B)`, JSON.parse, parseJson, typical);
compare(`parse tools/call, numbers (${numbers.length} B)`, JSON.parse, parseJson, numbers);
compare(`parse tools/call, 60 rows (${rows.length} B)`, JSON.parse, parseJson, rows);
compare("stringify its result", JSON.stringify, stringifyJson, answer);
// The rare path, against the built-in on the same message with a small id.
compare("parse, id beyond 2^53 (vs JSON.parse, id 17)", JSON.parse, parseJson, typical, big);
compare("stringify, bigint id (vs JSON.stringify, id 17)", JSON.stringify, stringifyJson, answer, { ...answer, id: 9007199254740993n });
// The check alone: the regular expression as parseJson writes it against \d{16}, which V8 scans position by position.
const quantified = /\d{16}/;
const written = /\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d/;
const test = (re) => (text) => re.test(text) || "";
console.log(`${"".padEnd(48)} ${"\\d{16}".padStart(9)} ${"written".padStart(10)} ${"".padStart(9)}`);
compare("check, tools/call echo", test(quantified), test(written), typical);
compare("check, 60 rows", test(quantified), test(written), rows);
