#!/usr/bin/env node
// Bytes V8 allocates per request, in-process (the request paths of
// paths.mjs, through ab-builds.mjs --run): what drives the scavenges, whose
// pauses land on every request in flight at 256 connections (tail.mjs).
// Counted from V8's own GC trace (--trace-gc-nvp: each collection prints the
// bytes allocated since the one before), as the difference of two runs of
// different lengths, so start-up and warm-up cancel out. The count repeats
// within about 1% from run to run, however busy the machine is.
//
//   node bench/micro/tail-alloc.mjs NAME [NAME ...] [--path=http|stdio|session] [--counts=20000,60000]
//
// NAME as for ab-builds.mjs (a snapshot, `current`, `bare`). Exports
// `allocPerRequest(name, path, counts)`.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));

/** Bytes allocated, scavenges and mark-compacts over a whole run of `n` requests through build `name` on `path`. */
function traced(name, path, n) {
  return new Promise((resolve, reject) => {
    const args = ["--trace-gc-nvp", "--single-threaded", join(here, "ab-builds.mjs"), "--run", name, path, String(n)];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let allocated = 0;
    let scavenges = 0;
    let marks = 0;
    let rest = "";
    child.stdout.on("data", (chunk) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop();
      for (const line of lines) {
        const a = / allocated=(\d+)/.exec(line);
        if (!a) continue;
        allocated += Number(a[1]);
        if (/ gc=s /.test(line)) scavenges++;
        else marks++;
      }
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve({ allocated, scavenges, marks }) : reject(new Error(`${name} ${path} ${n}: exit ${code}`)),
    );
  });
}

/**
 * Bytes allocated per request and scavenges per 10,000 requests of build
 * `name` on `path`: the difference of runs of `counts[1]` and `counts[0]`
 * requests. The bytes are those counted at the collections (the tail after
 * the last one is not), so a run should hold dozens of collections.
 */
export async function allocPerRequest(name, path = "http", counts = [20_000, 60_000]) {
  const [a, b] = await Promise.all(counts.map((n) => traced(name, path, n)));
  const n = counts[1] - counts[0];
  return { name, path, bytesPerRequest: (b.allocated - a.allocated) / n, scavengesPer10k: ((b.scavenges - a.scavenges) * 10_000) / n };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const names = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  const path = process.argv.find((a) => a.startsWith("--path="))?.slice(7) ?? "http";
  const counts = process.argv
    .find((a) => a.startsWith("--counts="))
    ?.slice(9)
    .split(",")
    .map(Number);
  for (const name of names.length ? names : ["current", "bare"]) {
    const r = await allocPerRequest(name, path, counts);
    process.stdout.write(
      `${name} ${path}: ${Math.round(r.bytesPerRequest)} B allocated/request, ${r.scavengesPer10k.toFixed(1)} scavenges/10k requests\n`,
    );
  }
}
