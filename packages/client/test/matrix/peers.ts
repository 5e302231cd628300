// The peers of the interop matrix: how each server is started (one process
// per peer over HTTP, shared by every mode; a process per client over
// stdio, which the StdioTransport spawns), which protocol versions it
// speaks, and which of its tools list, call, elicit and sample.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, type Listening, startCommandListening, stopProcess } from "../../../../test-support/processes.js";
import { SseTransport, StdioTransport, StreamableHttpTransport, type Transport } from "../../src/index.js";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const require = createRequire(import.meta.url);
const everythingBin = join(dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")), "dist/index.js");

/** A protocol version of the spec. */
export type Version = "2026-07-28" | "2025-11-25" | "2025-06-18" | "2025-03-26" | "2024-11-05";
/** The initialize-era versions, newest first. */
const INITIALIZE_ERA: Version[] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
const BOTH_ERAS: Version[] = ["2026-07-28", ...INITIALIZE_ERA];

/** A tool call and the text its result must contain (the proof the server saw the client's answer, for asks). */
export interface Call {
  tool: string;
  args?: Record<string, unknown>;
  /** A substring of the result's text. */
  says: string;
}

/** One server of the matrix. */
export interface Peer {
  name: string;
  /** The versions it speaks; a pinned mode applies to the peer when its version is here. */
  speaks: Version[];
  /** What `protocol: "auto"` settles on. */
  auto: Version;
  /** Starts what the peer needs once (an HTTP server), or nothing (stdio). */
  start(): Promise<Started>;
  /** Tools `tools/list` must include. */
  lists: string[];
  call: Call;
  /** The elicitation round trip by era (absent: the peer cannot send one). */
  elicit?: (version: Version) => Call;
  /** The sampling round trip by era (absent: the peer cannot send one). */
  sample?: (version: Version) => Call;
  /** A 2025-11-25 tool with `taskSupport: "required"`, called to its result. */
  task?: Call;
  /** Cells of this peer that cannot pass yet, by mode: why (a missing feature, or a client bug). */
  pending?: Partial<Record<string, string>>;
}

/** A started peer: a transport for a new client, and how to stop what was started. */
export interface Started {
  /** A transport for one client; `pinned` is the mode's version, undefined for `auto`. */
  transport(pinned: Version | undefined): Transport | Promise<Transport>;
  stop(): Promise<void>;
}

const quiet = { stderr: "ignore" as const };

function stdio(args: string[]): () => Promise<Started> {
  return async () => ({ transport: () => new StdioTransport({ command: process.execPath, args, ...quiet }), stop: async () => {} });
}

function http(
  start: () => Promise<Listening>,
  transport = (url: string, _pinned: Version | undefined): Transport | Promise<Transport> => new StreamableHttpTransport(url),
) {
  return async (): Promise<Started> => {
    const listening = await start();
    return { transport: (pinned) => transport(listening.url, pinned), stop: () => stopProcess(listening.child) };
  };
}

const node =
  (script: string, args: string[] = []) =>
  () =>
    startCommandListening(process.execPath, [fixture(script), ...args], { ready: /listening on (\S+)/ });

const ADD: Call = { tool: "add", args: { a: 2, b: 40 }, says: "42" };
const ASK: Call = { tool: "ask", says: "elicited octocat" };
const SAMPLE: Call = { tool: "sample", says: "sampled hi from the client's model" };

export const PEERS: Peer[] = [
  {
    name: "@x/server (HTTP, both eras)",
    speaks: BOTH_ERAS,
    auto: "2026-07-28",
    start: http(node("x-server.mjs")),
    lists: ["add", "ask", "sample"],
    call: ADD,
    elicit: () => ASK,
    sample: () => SAMPLE,
  },
  {
    name: "official server 2.4.0 (HTTP, both eras)",
    speaks: BOTH_ERAS,
    auto: "2026-07-28",
    start: http(node("official-v2.mjs")),
    lists: ["add", "ask", "sample", "ask-session", "sample-session"],
    call: ADD,
    // Its 2026-07-28 asks are Multi Round-Trip results, its session asks requests: one tool each.
    elicit: (v) => (v === "2026-07-28" ? ASK : { ...ASK, tool: "ask-session" }),
    sample: (v) => (v === "2026-07-28" ? SAMPLE : { ...SAMPLE, tool: "sample-session" }),
  },
  ...(["stateful", "stateless"] as const).map(
    (wire): Peer => ({
      name: `v1 SDK 1.32 McpServer (Streamable HTTP, ${wire})`,
      speaks: INITIALIZE_ERA,
      auto: "2025-11-25",
      start: http(node("v1-sdk.mjs", [wire])),
      lists: ["add", "ask", "sample"],
      call: ADD,
      // Stateless: no session to carry a server-to-client request on, so no asks.
      ...(wire === "stateful" ? { elicit: () => ASK, sample: () => SAMPLE } : {}),
    }),
  ),
  {
    name: "v1 SDK 1.32 McpServer (stdio)",
    speaks: INITIALIZE_ERA,
    auto: "2025-11-25",
    start: stdio([fixture("v1-sdk.mjs"), "stdio"]),
    lists: ["add", "ask", "sample"],
    call: ADD,
    elicit: () => ASK,
    sample: () => SAMPLE,
  },
  {
    name: "v1 SDK 1.32 McpServer (SSEServerTransport, deprecated HTTP+SSE)",
    speaks: INITIALIZE_ERA,
    auto: "2025-11-25",
    // auto: the Streamable HTTP transport, falling back; pinned: the HTTP+SSE transport itself.
    start: http(node("v1-sdk.mjs", ["sse"]), (url, pinned) => (pinned ? new SseTransport(url) : new StreamableHttpTransport(url))),
    lists: ["add", "ask", "sample"],
    call: ADD,
    elicit: () => ASK,
    sample: () => SAMPLE,
  },
  {
    name: "FastMCP 4.20 (HTTP stream)",
    speaks: INITIALIZE_ERA,
    auto: "2025-11-25",
    start: http(async () => {
      const port = await freePort();
      return startCommandListening(process.execPath, [fixture("fastmcp.mjs"), "httpStream", String(port)], { ready: /listening on (\S+)/ });
    }),
    lists: ["add", "ask", "sample"],
    call: ADD,
    elicit: () => ASK,
    sample: () => SAMPLE,
  },
  {
    name: "FastMCP 4.20 (stdio)",
    speaks: INITIALIZE_ERA,
    auto: "2025-11-25",
    start: stdio([fixture("fastmcp.mjs"), "stdio"]),
    lists: ["add", "ask", "sample"],
    call: ADD,
    elicit: () => ASK,
    sample: () => SAMPLE,
  },
  ...(["stdio", "streamableHttp"] as const).map(
    (wire): Peer => ({
      name: `server-everything 2026.8.31 (${wire})`,
      speaks: INITIALIZE_ERA,
      auto: "2025-11-25",
      start:
        wire === "stdio"
          ? stdio([everythingBin, "stdio"])
          : http(async () => {
              // It listens on $PORT and says so on stderr; it reports no bound port of its own.
              const port = await freePort();
              const listening = await startCommandListening(process.execPath, [everythingBin, "streamableHttp"], {
                env: { PORT: String(port) },
                ready: /listening on port (\d+)/,
              });
              return { ...listening, url: `http://127.0.0.1:${listening.url}/mcp` };
            }),
      // Its elicitation and sampling tools are registered only for a client that declared the
      // capability (the elicitation one is reached by the elicitation step, where the version has it).
      lists: ["echo", "trigger-sampling-request", "simulate-research-query"],
      call: { tool: "echo", args: { message: "hello" }, says: "Echo: hello" },
      elicit: () => ({ tool: "trigger-elicitation-request", says: "- Name: octocat" }),
      sample: () => ({ tool: "trigger-sampling-request", args: { prompt: "hi" }, says: "hi from the client's model" }),
      task: { tool: "simulate-research-query", args: { topic: "tides", ambiguous: true }, says: "- **Clarification**: " },
    }),
  ),
];
