#!/usr/bin/env node
// Does an idle Node process give back memory its garbage holds? Allocates
// about 200 MiB of small objects that stay reachable (so they reach the old
// generation), drops them, then does nothing but read its RSS and heap
// every 3 s for 30 s. No MCP code: the answer is Node's (V8's) alone.
//
//   node bench/micro/idle-rss.mjs [seconds=30]
import { readFileSync } from "node:fs";

const seconds = Number(process.argv[2] ?? 30);
const rssMiB = () => (Number(readFileSync("/proc/self/statm", "utf8").split(" ")[1]) * 4096) / 2 ** 20;
const heapMiB = () => process.memoryUsage().heapUsed / 2 ** 20;
const show = (label) => console.log(`${label.padEnd(16)} RSS ${rssMiB().toFixed(1)} MiB, heap used ${heapMiB().toFixed(1)} MiB`);

show("start");
let held = [];
for (let i = 0; i < 1_500_000; i++) held.push({ a: i, b: `x${i}`, c: [i] });
show("allocated");
held = null;
const t0 = Date.now();
const timer = setInterval(() => {
  const s = (Date.now() - t0) / 1000;
  show(`idle ${s.toFixed(0)} s`);
  if (s >= seconds) clearInterval(timer);
}, 3000);
