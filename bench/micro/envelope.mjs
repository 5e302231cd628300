#!/usr/bin/env node
// Micro-benchmark of the request `_meta` envelope check (readEnvelope of
// @x/mcp-v2607/wire), which every request passes before its handler:
//
//   node bench/micro/envelope.mjs        (after `pnpm build`)
//
// Prints nanoseconds per call for the envelopes clients send, and for a
// refused one. The params come from JSON.parse, as a request's do (1000
// copies, so that no single object stays hot).
import { readEnvelope } from "../../packages/mcp-v2607/dist/wire.js";

const N = 2_000_000;
const version = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
const envelopes = {
  "no capabilities, no client info": { ...version, "io.modelcontextprotocol/clientCapabilities": {} },
  "typical client (capabilities, info, log level)": {
    ...version,
    "io.modelcontextprotocol/clientCapabilities": { roots: {}, sampling: { tools: {} }, elicitation: { form: {}, url: {} } },
    "io.modelcontextprotocol/clientInfo": { name: "client", version: "1.0.0" },
    "io.modelcontextprotocol/logLevel": "info",
  },
  "client info with websiteUrl and an icon (uri format)": {
    ...version,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {
      name: "client",
      version: "1.0.0",
      websiteUrl: "https://client.example/about",
      icons: [{ src: "https://client.example/icon.png" }],
    },
  },
  "refused (clientCapabilities.sampling: 5)": { ...version, "io.modelcontextprotocol/clientCapabilities": { sampling: 5 } },
};
let sink;
console.log(`node ${process.version}, ${N.toLocaleString("en")} calls each`);
for (const [name, meta] of Object.entries(envelopes)) {
  const text = JSON.stringify({ name: "echo", arguments: { text: "hi" }, _meta: meta });
  const params = Array.from({ length: 1000 }, () => JSON.parse(text));
  for (let i = 0; i < 200_000; i++) sink = readEnvelope(params[i % 1000]);
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) sink = readEnvelope(params[i % 1000]);
  const ns = Number(process.hrtime.bigint() - start) / N;
  console.log(`${ns.toFixed(1).padStart(8)} ns  ${name}${sink.ok ? "" : " -> refused"}`);
}
