#!/usr/bin/env node
// Micro-benchmark behind a rule of the request path (bench/README.md, "What
// made the request path fast"): on Node 20's V8, an object spread followed by
// more keys, or a property added to a spread's result, takes a slow path.
//
//   node bench/micro/objects.mjs
//
// Prints nanoseconds per shallow copy of a one-key result plus one new key.
const N = 1_000_000;
const extra = { k: 1 };
const ways = {
  "{ ...r }                 (no new key)": (r) => ({ ...r }),
  "{ ...r, k: 1 }": (r) => ({ ...r, k: 1 }),
  "{ ...r, ...extra }": (r) => ({ ...r, ...extra }),
  "const c = { ...r }; c.k = 1": (r) => {
    const c = { ...r };
    c.k = 1;
    return c;
  },
  "{ k: 1, ...r }           (key first)": (r) => ({ k: 1, ...r }),
  "Object.assign({}, r, extra)": (r) => Object.assign({}, r, extra),
  "for-in copy, then c.k = 1 (copyOwn)": (r) => {
    const c = {};
    for (const key in r) if (Object.hasOwn(r, key)) c[key] = r[key];
    c.k = 1;
    return c;
  },
};
let sink;
console.log(`node ${process.version}, ${N.toLocaleString("en")} copies each`);
for (const [name, copy] of Object.entries(ways)) {
  for (let i = 0; i < 100_000; i++) sink = copy({ content: [i] });
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) sink = copy({ content: [i] });
  const ns = Number(process.hrtime.bigint() - start) / N;
  console.log(`${ns.toFixed(1).padStart(8)} ns  ${name}`);
}
if (sink === undefined) throw new Error("unreachable");
