// The requests every server answers: the same JSON-RPC body and the same
// Streamable HTTP headers (protocol revision 2026-07-28, per-request _meta),
// and the earlier era's requests on an initialized session (2025-11-25: no
// _meta envelope, the session id and the negotiated version in headers).

export const PROTOCOL_VERSION = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
  "io.modelcontextprotocol/clientCapabilities": {},
};

function request(id, method, params = {}) {
  return { jsonrpc: "2.0", id, method, params: { ...params, _meta: META } };
}

/**
 * One workload: `name` (table row), the JSON-RPC request (id 1) and the
 * headers that mirror it; `expect` lists substrings a correct answer holds.
 */
export const WORKLOADS = [
  {
    name: "tools/call echo",
    key: "echo",
    message: request(1, "tools/call", { name: "echo", arguments: { text: "hello" } }),
    toolName: "echo",
    expect: ['"text":"hello"'],
  },
  {
    name: "tools/call structured",
    key: "structured",
    message: request(1, "tools/call", { name: "add", arguments: { a: 2, b: 40 } }),
    toolName: "add",
    expect: ['"structuredContent":{"sum":42}'],
  },
  {
    name: "tools/list",
    key: "list",
    message: request(1, "tools/list"),
    expect: ['"name":"echo"', '"name":"add"', '"outputSchema"'],
  },
  {
    name: "server/discover",
    key: "discover",
    message: request(1, "server/discover"),
    expect: ['"supportedVersions"', '"2026-07-28"'],
  },
];

/** The version the earlier-era rows negotiate with `initialize`. */
export const LEGACY_VERSION = "2025-11-25";

/** The `initialize` request that opens an earlier-era session (id 1). */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } },
};
/** The notification that completes the handshake. */
export const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };
/** The headers of `initialize` (no session yet, no version negotiated yet). */
export const INITIALIZE_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/**
 * Earlier-era workloads, sent on a session: the plain JSON-RPC request (no
 * `_meta`); `refuse` is a substring a correct answer must not hold (a
 * 2026-07-28 result field).
 */
export const LEGACY_WORKLOADS = [
  {
    name: "tools/call echo, 2025-11-25 session",
    key: "legacy echo",
    era: LEGACY_VERSION,
    message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hello" } } },
    expect: ['"text":"hello"'],
    refuse: '"resultType"',
  },
];

/**
 * The HTTP headers of a workload's request; an earlier-era one carries
 * `sessionId` as `Mcp-Session-Id` and `version`, the version its
 * `initialize` negotiated (LEGACY_VERSION unless the server offered an
 * older one), as `MCP-Protocol-Version`.
 */
export function headersOf(workload, sessionId, version = LEGACY_VERSION) {
  if (workload.era === LEGACY_VERSION) {
    return { ...INITIALIZE_HEADERS, "mcp-protocol-version": version, "mcp-session-id": sessionId };
  }
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL_VERSION,
    "mcp-method": workload.message.method,
  };
  if (workload.toolName) headers["mcp-name"] = workload.toolName;
  return headers;
}

/** The workload used for stdio and for warming up: tools/call echo. */
export const ECHO = WORKLOADS[0];

/** A stdio request line for `workload` with JSON-RPC id `id`. */
export function lineOf(workload, id) {
  return `${JSON.stringify({ ...workload.message, id })}\n`;
}
