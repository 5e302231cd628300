// @x/client on Bun, Deno or Node 22: runs drive.mjs against the endpoint
// given as the first argument (in the era given as the second) and prints
// what it saw as one JSON line on stdout.
import { drive } from "./drive.mjs";

const args = globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2);
const [url, protocol] = args;
const runtime = globalThis.Bun
  ? `bun ${globalThis.Bun.version}`
  : globalThis.Deno
    ? `deno ${globalThis.Deno.version.deno}`
    : `node ${process.versions.node}`;

console.log(JSON.stringify(await drive(url, protocol, runtime)));
