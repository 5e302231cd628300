#!/usr/bin/env node
// Cold import of a package over an empty Node start: wall time of
// `node --input-type=module -e "await import(X)"` minus that of an empty
// `node -e ""`, the two interleaved, median of many fresh processes.
//
//   node bench/micro/import-ms.mjs [specifier=@x/server] [runs=40]
import { execFileSync } from "node:child_process";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const specifier = process.argv[2] ?? "@x/server";
const runs = Number(process.argv[3] ?? 40);
const time = (args) => {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, args, { cwd: here, stdio: "ignore" });
  return Number(process.hrtime.bigint() - start) / 1e6;
};
const empty = [];
const loaded = [];
for (let i = 0; i < runs; i++) {
  empty.push(time(["-e", ""]));
  loaded.push(time(["--input-type=module", "-e", `await import(${JSON.stringify(specifier)})`]));
}
const median = (a) => [...a].sort((p, q) => p - q)[a.length >> 1];
console.log(
  `${specifier}: ${(median(loaded) - median(empty)).toFixed(1)} ms over empty node (median of ${runs}: ${median(loaded).toFixed(1)} - ${median(empty).toFixed(1)} ms)`,
);
