// What client.mjs and growth.mjs share: starting a server script and reading
// the URL it prints, asking a process over its IPC channel, reading its RSS,
// capturing @x/server's answers for the bare responder, and the statistics
// (median, min–max) and table printing of their rows.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { firstLine, started } from "./lifecycle.mjs";

export const here = dirname(fileURLToPath(import.meta.url));
export const MiB = 1048576;
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The median of the finite values (NaN when none). */
export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median, min and max of a list of repetitions. */
export function spread(values) {
  const finite = values.filter((v) => Number.isFinite(v));
  return { median: median(finite), min: Math.min(...finite), max: Math.max(...finite), n: finite.length };
}

/**
 * Starts `servers/<script>` with `args` on 127.0.0.1 and resolves with the
 * child and the first line it printed, parsed ({url, ...}). `ipc` gives it an
 * IPC channel, `nodeFlags` go before the script (e.g. --expose-gc). Bounded: 20 s.
 */
export function startServer(script, args = [], { ipc = false, nodeFlags = [], label = script } = {}) {
  const child = spawn(process.execPath, [...nodeFlags, join(here, "servers", script), ...args], {
    cwd: here,
    stdio: ipc ? ["ignore", "pipe", "inherit", "ipc"] : ["ignore", "pipe", "inherit"],
  });
  started.add(child);
  child.on("exit", () => started.delete(child));
  return firstLine(child, label, 20_000).then((line) => ({ child, ...line }));
}

let nextSeq = 1;

/** Sends `{type, seq, ...fields}` on a child's IPC channel; resolves with the answer of the same type and seq (bounded: `ms`). */
export function ask(child, type, fields = {}, ms = 30_000) {
  const seq = nextSeq++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off("message", onMessage);
      reject(new Error(`no ${type} answer from PID ${child.pid} within ${ms} ms`));
    }, ms);
    const onMessage = (message) => {
      if (message?.type !== type || message.seq !== seq) return;
      clearTimeout(timer);
      child.off("message", onMessage);
      if (message.error) reject(new Error(message.error));
      else resolve(message);
    };
    child.on("message", onMessage);
    child.send({ type, seq, ...fields });
  });
}

/** VmRSS of a process, MiB. */
export function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

/**
 * The process's CPU time so far, µs: the sum over its threads of the time
 * on a CPU from /proc/PID/task/TID/schedstat (nanoseconds; user and system
 * together, the GC and libuv threads included). Threads that already ended
 * are not counted.
 */
export function cpuUs(pid) {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return ns / 1000;
}

/** A 2026-07-28 request's _meta. */
export const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A 2026-07-28 JSON-RPC request and its Streamable HTTP headers. */
export function request(method, params = {}, { id = 1, capabilities } = {}) {
  const meta = capabilities ? { ...META, "io.modelcontextprotocol/clientCapabilities": capabilities } : META;
  const message = { jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } };
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  if (typeof params.name === "string" && method === "tools/call") headers["mcp-name"] = params.name;
  return { message, headers, body: JSON.stringify(message) };
}

/** POSTs a request; answers status, text and content type. */
export async function post(url, req) {
  const response = await fetch(url, { method: "POST", headers: req.headers, body: req.body });
  return { status: response.status, text: await response.text(), type: response.headers.get("content-type") };
}

/**
 * Asks @x/server each request of `requests` ({key, req, expect}) and writes
 * its answers for bare-client.mjs to `file`: the bytes around the id and the
 * content type. Throws when an answer lacks `expect`.
 */
export async function captureAnswers(url, requests, file) {
  const answers = {};
  for (const { key, req, expect } of requests) {
    const answer = await post(url, req);
    const at = answer.text.indexOf('"id":1');
    if (answer.status !== 200 || !answer.text.includes(expect) || at === -1) {
      throw new Error(`@x/server answered ${key} with ${answer.status}: ${answer.text.slice(0, 200)}`);
    }
    answers[key] = [answer.text.slice(0, at + 5), answer.text.slice(at + 6), answer.type];
  }
  writeFileSync(file, JSON.stringify(answers));
  return answers;
}

/** Renders rows (arrays of strings) as a markdown table, the first column left-aligned. */
export function renderTable(header, lines) {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => String(l[i]).length)));
  const render = (cells) =>
    `| ${cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join(" | ")} |`;
  return [
    render(header),
    `|${widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : `${"-".repeat(w + 1)}:`)).join("|")}|`,
    ...lines.map(render),
  ].join("\n");
}

/** A number with `digits` decimals, or "n/a". */
export const fmt = (v, digits = 0) =>
  Number.isFinite(v) ? (digits === 0 ? Math.round(v).toLocaleString("en-US") : v.toFixed(digits)) : "n/a";

/** "median (min–max)" of a spread. */
export const fmtSpread = (s, digits = 0) =>
  Number.isFinite(s?.median) ? `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})` : "n/a";
