#!/usr/bin/env node
// Heap kept by compiled user schemas: compiles N schemas, then 2N more, and
// prints the heap used (after two forced GCs) that the 2N kept, per compile,
// for trusted and untrusted schemas on ajv. ajv keeps everything it ever
// compiled on an instance, so @x/json-schema renews its instances every
// AJV_COMPILES_PER_INSTANCE compiles; without that, about 4 KB a compile
// stayed for good. The test of the mechanism is a count (the renewed
// instance is collected); this is where its memory is measured.
//
//   pnpm --filter @x/json-schema build && node bench/micro/schema-memory.mjs [N=1000]
import { execFileSync } from "node:child_process";

const count = Number(process.argv[2] ?? 1000);
const dist = new URL("../../packages/json-schema/dist/", import.meta.url);

function heapKeptBy(untrusted) {
  const program = `
    const m = await import(${JSON.stringify(new URL("index.js", dist).href)});
    const { ajvValidator } = await import(${JSON.stringify(new URL("ajv.js", dist).href)});
    const round = (from) => { for (let i = from; i < from + ${count}; i++) m.compileSchema({ type: "object", properties: { ["p" + i]: { type: "string", minLength: i % 7 } }, required: ["p" + i] }, { validator: ajvValidator${untrusted ? ", untrusted: m.untrustedSchemas()" : ""} }); };
    const used = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
    round(0); const before = used(); round(${count}); round(${2 * count}); console.log(used() - before);`;
  return Number(execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", program], { encoding: "utf8" }).trim());
}

for (const untrusted of [false, true]) {
  const kept = heapKeptBy(untrusted);
  console.log(
    `${untrusted ? "untrusted" : "trusted  "} schemas: ${2 * count} more compiles kept ${(kept / 1024).toFixed(0)} KiB of heap after GC (${(kept / (2 * count)).toFixed(0)} bytes a compile)`,
  );
}
