// The server processes, the requests that check them, and the load process.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { firstLine, forkWorker, log, started } from "../lifecycle.mjs";
import { headersOf, INITIALIZE, INITIALIZE_HEADERS, INITIALIZED, LEGACY_VERSION, LEGACY_WORKLOADS, WORKLOADS } from "../workloads.mjs";
import { args, here, profile, root } from "./config.mjs";

// ---------------------------------------------------------------- build

export function build() {
  if (args.includes("--no-build")) return;
  log("bench: building @x/server and its dependencies (turbo)...");
  const turbo = join(root, "node_modules", ".bin", "turbo");
  const result = spawnSync(turbo, ["run", "build", "--filter=@x/bench^...", "--output-logs=errors-only"], {
    cwd: root,
    stdio: ["ignore", 2, 2],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
  });
  if (result.status !== 0) {
    log("bench: the build failed (run `pnpm build`, or pass --no-build to use the dist/ folders as they are)");
    process.exit(1);
  }
}

// ---------------------------------------------------------------- processes

/**
 * Starts a server script; resolves with its child process and, for HTTP, the
 * URL it printed. With `ipc` the process gets an IPC channel and
 * `--expose-gc`, for memory questions (servers/memory.mjs).
 */
export function startHttpServer(server, answersFile, { ipc = false, extraArgs = [] } = {}) {
  const argv = [...server.args, ...extraArgs].map((a) => (a === "ANSWERS" ? answersFile : a)).filter((a) => a !== "--http");
  // The sessions rows' servers (ipc) are not profiled: their profiles would overwrite the load rows'.
  const flags =
    profile && !ipc
      ? ["--cpu-prof", `--cpu-prof-dir=${join(here, "results", "profiles")}`, `--cpu-prof-name=${server.key}-http.cpuprofile`]
      : [];
  if (ipc) flags.push("--expose-gc");
  const child = spawn(process.execPath, [...flags, join(here, "servers", argv[0]), ...argv.slice(1)], {
    cwd: here,
    stdio: ipc ? ["ignore", "pipe", "inherit", "ipc"] : ["ignore", "pipe", "inherit"],
  });
  started.add(child);
  child.on("exit", () => started.delete(child));
  return firstLine(child, server.label, 15_000).then(({ url }) => ({ child, url }));
}

export function rssMiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    const ps = spawnSync("ps", ["-o", "rss=", "-p", String(pid)]);
    return Number(String(ps.stdout).trim()) / 1024;
  }
}

export let nextMemorySeq = 1;

/** A server's process.memoryUsage() after forced collections, asked over its IPC channel (bounded: 10 s). */
export function askMemory(child) {
  const seq = nextMemorySeq++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off("message", onMessage);
      reject(new Error(`no memory answer from PID ${child.pid} within 10 s`));
    }, 10_000);
    const onMessage = (message) => {
      if (message?.type !== "memory" || message.seq !== seq) return;
      clearTimeout(timer);
      child.off("message", onMessage);
      if (!message.gced) reject(new Error("the server could not collect garbage (no --expose-gc)"));
      else resolve(message.usage);
    };
    child.on("message", onMessage);
    child.send({ type: "memory", seq });
  });
}

// ---------------------------------------------------------------- HTTP

export async function post(url, workload, sessionId, version) {
  const response = await fetch(url, {
    method: "POST",
    headers: headersOf(workload, sessionId, version),
    body: JSON.stringify(workload.message),
  });
  return { status: response.status, text: await response.text(), type: response.headers.get("content-type") };
}

/** A JSON-RPC message POSTed on an earlier-era session; answers the status (the body is read and dropped). */
export async function postOnSession(url, sessionId, message, method = "POST", version = LEGACY_VERSION) {
  const headers = { ...INITIALIZE_HEADERS, "mcp-protocol-version": version, "mcp-session-id": sessionId };
  const response = await fetch(url, { method, headers, body: message === undefined ? undefined : JSON.stringify(message) });
  await response.text();
  return response.status;
}

/**
 * Opens an earlier-era session as a client does: `initialize` asking for
 * LEGACY_VERSION (checked: 200, a session id, and one of `versions`, the
 * version asked for unless told), then `notifications/initialized` (202).
 * Answers the session id and the version negotiated; throws with what was
 * answered otherwise.
 */
export async function openSession(url, label, versions = [LEGACY_VERSION]) {
  const response = await fetch(url, { method: "POST", headers: INITIALIZE_HEADERS, body: JSON.stringify(INITIALIZE) });
  const text = await response.text();
  const id = response.headers.get("mcp-session-id");
  const version = versions.find((v) => text.includes(`"protocolVersion":"${v}"`));
  if (response.status !== 200 || !id || version === undefined) {
    throw new Error(`${label} answered initialize with ${response.status} (session id ${id}): ${text.slice(0, 300)}`);
  }
  const status = await postOnSession(url, id, INITIALIZED, "POST", version);
  if (status !== 202) throw new Error(`${label} answered notifications/initialized with ${status}`);
  return { id, version };
}

/** Whether an answer to `workload` is right: 200, holds every `expect`, and nothing of the other era. */
export function answerIsRight(workload, { status, text }) {
  return status === 200 && workload.expect.every((e) => text.includes(e)) && !(workload.refuse && text.includes(workload.refuse));
}

/** The bare responder's key of a workload's request. */
export function answerKey(workload) {
  const key = `${workload.message.method} ${workload.message.params.name ?? ""}`;
  return workload.era === LEGACY_VERSION ? `${LEGACY_VERSION} ${key}` : key;
}

/**
 * Asks @x/server each workload once (the earlier era's on `sessionId`) and
 * keeps its answers for the bare responder: the bytes around the id, and the
 * content type.
 */
export async function captureAnswers(url, file, sessionId) {
  const answers = {};
  for (const workload of [...WORKLOADS, ...LEGACY_WORKLOADS]) {
    const answer = await post(url, workload, sessionId);
    const at = answer.text.indexOf('"id":1');
    if (!answerIsRight(workload, answer) || at === -1) {
      throw new Error(`@x/server answered ${workload.name} with ${answer.status}: ${answer.text.slice(0, 200)}`);
    }
    answers[answerKey(workload)] = [answer.text.slice(0, at + 5), answer.text.slice(at + 6), answer.type];
  }
  writeFileSync(file, JSON.stringify(answers));
  return answers;
}

export let loadProcess;
export let askLoad;

export function startLoadProcess() {
  ({ child: loadProcess, ask: askLoad } = forkWorker(join(here, "load.mjs"), here));
}

/** One bounded autocannon run, in the load process (an earlier-era workload on the server's session). */
export function loadRun(s, workload, connections, durationMs) {
  return askLoad({
    url: s.url,
    headers: headersOf(workload, s.sessionId, s.sessionVersion),
    body: JSON.stringify(workload.message),
    connections,
    durationMs,
  });
}
