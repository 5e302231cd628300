/**
 * The names of the attributes, values and metrics `@x/otel` records.
 *
 * Where the OpenTelemetry semantic conventions for MCP and GenAI name a
 * thing (`mcp.*`, `gen_ai.*`, `jsonrpc.*`, `rpc.*`, `error.type`), their name
 * is used. The strings are written out here rather than imported from
 * `@opentelemetry/semantic-conventions/incubating`: those conventions are
 * still in development, and that entry point may change in a minor release.
 * A test checks each against the package.
 *
 * What the conventions do not name is under our own `x_mcp.` prefix, not
 * under `mcp.`, so that a later convention of the same name cannot mean
 * something else.
 */

/** The request method, e.g. `"tools/call"` (conventions: `mcp.method.name`). */
export const ATTR_MCP_METHOD_NAME = "mcp.method.name";
/** The protocol version the call is served in, e.g. `"2026-07-28"` (conventions: `mcp.protocol.version`). */
export const ATTR_MCP_PROTOCOL_VERSION = "mcp.protocol.version";
/** The `Mcp-Session-Id` of an `initialize`-era session (conventions: `mcp.session.id`). */
export const ATTR_MCP_SESSION_ID = "mcp.session.id";
/** The tool's name (conventions: `gen_ai.tool.name`). */
export const ATTR_GEN_AI_TOOL_NAME = "gen_ai.tool.name";
/** The GenAI operation: `"execute_tool"` for a tool call (conventions: `gen_ai.operation.name`). */
export const ATTR_GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
/** The value of {@link ATTR_GEN_AI_OPERATION_NAME} for a tool call. */
export const GEN_AI_OPERATION_EXECUTE_TOOL = "execute_tool";
/** The JSON-RPC id of the request, as a string (conventions: `jsonrpc.request.id`). */
export const ATTR_JSONRPC_REQUEST_ID = "jsonrpc.request.id";
/** The JSON-RPC error code the request was answered with, as a string, e.g. `"-32602"` (conventions: `rpc.response.status_code`). */
export const ATTR_RPC_RESPONSE_STATUS_CODE = "rpc.response.status_code";
/**
 * The class of error a call ended with (conventions: `error.type`):
 * `"tool_error"` for an `isError` tool result, the JSON-RPC error code as a
 * string for a call answered with a JSON-RPC error. Absent on success.
 */
export const ATTR_ERROR_TYPE = "error.type";
/** The value of {@link ATTR_ERROR_TYPE} for an `isError` tool result (the conventions' own value). */
export const ERROR_TYPE_TOOL_ERROR = "tool_error";

/** For an action tool, the `action` argument the client sent; for `help`, the action asked about. Spans only. */
export const ATTR_TOOL_ACTION = "x_mcp.tool.action";
/** How the call ended: `"ok"`, `"error"`, `"input_required"` or `"protocol_error"` (`ToolOutcome` of `@x/server/telemetry`). */
export const ATTR_TOOL_OUTCOME = "x_mcp.tool.outcome";
/** For an `isError` result, which side the error is on: `"dispatch"` (a check refused the call) or `"tool"` (`ErrorKind`). */
export const ATTR_ERROR_KIND = "x_mcp.error.kind";
/** Why a message was dropped unanswered: `"unsolicited-response"` or `"invalid-response"` (`MessageIgnoredEvent.reason`). */
export const ATTR_IGNORED_REASON = "x_mcp.ignored.reason";

/**
 * Histogram, seconds: how long the server took over one tool call, from the
 * moment it reached a registered tool to its result (conventions:
 * `mcp.server.operation.duration`).
 */
export const METRIC_MCP_SERVER_OPERATION_DURATION = "mcp.server.operation.duration";
/** Counter, `{request}`: requests the server answered with a JSON-RPC error, before or after reaching a handler. */
export const METRIC_REQUESTS_REJECTED = "x_mcp.server.requests.rejected";
/** Counter, `{message}`: messages the server read and dropped unanswered (JSON-RPC responses it never asked for). */
export const METRIC_MESSAGES_IGNORED = "x_mcp.server.messages.ignored";

/** The bucket boundaries, in seconds, the conventions give {@link METRIC_MCP_SERVER_OPERATION_DURATION}. */
export const DURATION_BUCKETS: readonly number[] = Object.freeze([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);

/**
 * The conventions' fallback value: the method of a rejected request whose
 * method is none the protocol defines, and the `error.type` of a call that
 * failed without a JSON-RPC code.
 */
export const OTHER = "_OTHER";
