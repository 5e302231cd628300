// The requests every server answers: the same JSON-RPC body and the same
// Streamable HTTP headers (protocol revision 2026-07-28, per-request _meta).

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
 * headers that mirror it; `expect` is a substring a correct answer holds.
 */
export const WORKLOADS = [
  {
    name: "tools/call echo",
    key: "echo",
    message: request(1, "tools/call", { name: "echo", arguments: { text: "hello" } }),
    toolName: "echo",
    expect: '"text":"hello"',
  },
  {
    name: "tools/call structured",
    key: "structured",
    message: request(1, "tools/call", { name: "add", arguments: { a: 2, b: 40 } }),
    toolName: "add",
    expect: '"structuredContent":{"sum":42}',
  },
  {
    name: "tools/list",
    key: "list",
    message: request(1, "tools/list"),
    expect: '"name":"echo"',
  },
  {
    name: "server/discover",
    key: "discover",
    message: request(1, "server/discover"),
    expect: '"supportedVersions"',
  },
];

/** The HTTP headers of a workload's request. */
export function headersOf(workload) {
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
