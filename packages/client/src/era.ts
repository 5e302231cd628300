/**
 * The client's side of the `initialize` era (revisions 2024-11-05 through
 * 2025-11-25, spec 2025-11-25: basic/lifecycle), beside 2026-07-28:
 * reading the `initialize` result, and answering the requests a server sends
 * on its session (`ping`, `elicitation/create`, `sampling/createMessage`,
 * `roots/list`) through the same handlers the Multi Round-Trip loop uses.
 * What the server sends is checked with `@x/mcp-v2511`'s validators; what a
 * handler returns with the ones the Multi Round-Trip loop uses.
 *
 * The era rules both sides share (the versions, the session headers) live in
 * `@x/mcp-v2511/wire`; what a server sends is checked with that package's
 * generated validators.
 */
import { isObject } from "@x/jsonrpc";
import { INITIALIZE_ERA_VERSIONS, type InitializeEraVersion, isInitializeEraVersion } from "@x/mcp-v2511/wire";
import type { JSONRPCRequest, JSONRPCResponse, RequestId } from "@x/mcp-v2607";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { ClientErrorCode, McpClientError } from "./errors.js";
import { loadOnce } from "./lazy.js";
import { checkAnswer, type InputContext, type InputHandlers } from "./mrtr.js";

/**
 * Which protocol a {@link Client} speaks: `"auto"` probes with
 * `server/discover` and falls back to `initialize` when the server is of the
 * earlier era (spec 2026-07-28: basic/versioning "Backward Compatibility");
 * a version pins it without probing: `"2026-07-28"`, or one of the
 * `initialize` era (`"2025-11-25"`, `"2025-06-18"`, `"2025-03-26"`,
 * `"2024-11-05"`), which `initialize` then asks for and the server must
 * answer (another answer fails `connect` with -32096). A client that
 * negotiated a version sends only what it defines.
 */
export type ProtocolChoice = "auto" | "2026-07-28" | InitializeEraVersion;

/**
 * The era a connected client speaks: `"modern"` (2026-07-28, a `_meta`
 * envelope on every request, no session) or `"legacy"` (the `initialize`
 * handshake and a session), the spec's own terms (basic/versioning "Terminology").
 */
export type Era = "modern" | "legacy";

/**
 * Default bound on the `server/discover` probe of `protocol: "auto"`, in
 * milliseconds. Over stdio, a server silent for this long is taken as one of
 * the earlier era (some never answer a request before `initialize`); over
 * HTTP, the probe then fails like any request that timed out.
 */
export const DEFAULT_PROBE_TIMEOUT_MS = 3000;

/**
 * JSON-RPC errors that only a 2026-07-28 server sends: a probe answered with
 * one of them found a modern server, which must not be given `initialize`
 * (spec 2026-07-28: streamable-http and stdio "Backward Compatibility").
 * -32020 `HeaderMismatch`, -32021 `MissingRequiredClientCapability`,
 * -32022 `UnsupportedProtocolVersion`.
 */
export const MODERN_ERROR_CODES: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
]);

type Validate = typeof import("@x/mcp-v2511").validate;
const validateModule = loadOnce(() => import("@x/mcp-v2511").then((m): Validate => m.validate));
/** The 2025-11-25 validators, loaded on first use (a client of the modern era never pays for them). */
export function loadLegacyValidate(): Promise<Validate> {
  return validateModule.get();
}

/** What the server said in its `InitializeResult`. */
export interface InitializeOutcome {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  serverInfo: Record<string, unknown>;
  instructions?: string;
}

/**
 * Reads an `InitializeResult`: the version must be one of
 * `INITIALIZE_ERA_VERSIONS` (spec 2025-11-25: lifecycle "Version
 * Negotiation": the client disconnects otherwise), the rest must match the
 * 2025-11-25 schema.
 * @throws McpClientError -32096 (`VersionUnsupported`) for another version;
 *   -32094 (`InvalidResult`) for a result the schema rejects.
 */
export async function readInitializeResult(result: Record<string, unknown>): Promise<InitializeOutcome> {
  const version = result.protocolVersion;
  if (!isInitializeEraVersion(version)) {
    throw new McpClientError(
      ClientErrorCode.VersionUnsupported,
      `The server answered initialize with protocol version ${JSON.stringify(version)}; this client speaks ${INITIALIZE_ERA_VERSIONS.join(", ")} in that era`,
      { protocolVersion: version, supported: [...INITIALIZE_ERA_VERSIONS] },
    );
  }
  const validate = await loadLegacyValidate();
  const checked = validate("InitializeResult", result);
  if (!checked.ok) {
    const where = checked.problems
      .slice(0, 5)
      .map((p) => `${p.path || "(root)"}: ${p.message}`)
      .join("; ");
    throw new McpClientError(ClientErrorCode.InvalidResult, `The initialize result breaks the 2025-11-25 schema: ${where}`, {
      problems: checked.problems,
    });
  }
  const outcome: InitializeOutcome = {
    protocolVersion: version,
    capabilities: isObject(result.capabilities) ? result.capabilities : {},
    serverInfo: isObject(result.serverInfo) ? result.serverInfo : {},
  };
  if (typeof result.instructions === "string") outcome.instructions = result.instructions;
  return outcome;
}

/** The JSON-RPC error codes a client answers a server-to-client request with. */
const RpcError = { MethodNotFound: -32601, InvalidParams: -32602, InternalError: -32603 } as const;

const REQUESTS = {
  "elicitation/create": { handler: "elicitation", params: "ElicitRequestParams", result: "ElicitResult" },
  "sampling/createMessage": { handler: "sampling", params: "CreateMessageRequestParams", result: "CreateMessageResult" },
  "roots/list": { handler: "roots", params: undefined, result: "ListRootsResult" },
} as const;

function errorResponse(id: RequestId, code: number, message: string, data?: unknown): JSONRPCResponse {
  const error: Record<string, unknown> = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: "2.0", id, error } as unknown as JSONRPCResponse;
}

/**
 * Answers one server-to-client request of an `initialize`-era session:
 * `ping` with an empty result (spec 2025-11-25: utilities/ping); the three
 * input requests through `handlers` (spec: client/elicitation,
 * client/sampling, client/roots), their params checked with the 2025-11-25
 * validators and the handler's result as the Multi Round-Trip loop checks it.
 *
 * @returns the response to send back, or `undefined` when `signal` aborted
 *   (the server cancelled the request, which then gets no answer: spec
 *   utilities/cancellation). Never rejects. Errors: -32601 for a method this
 *   client does not serve or has no handler for (its capability was then
 *   never declared), -32602 for params the schema rejects, -32603 when the
 *   handler throws or returns a result the schema rejects.
 */
export async function answerServerRequest(
  request: JSONRPCRequest,
  handlers: InputHandlers,
  signal: AbortSignal,
): Promise<JSONRPCResponse | undefined> {
  const { id, method } = request;
  if (method === "ping") return { jsonrpc: "2.0", id, result: {} } as JSONRPCResponse;
  const kind = REQUESTS[method as keyof typeof REQUESTS];
  if (!kind) return errorResponse(id, RpcError.MethodNotFound, `Method not found: this client does not serve ${method}`);
  const handler = handlers[kind.handler] as ((params: unknown, context: InputContext) => unknown) | undefined;
  if (!handler) {
    return errorResponse(id, RpcError.MethodNotFound, `Method not found: this client has no ${kind.handler} handler for ${method}`);
  }
  const validate = await loadLegacyValidate();
  const raw = isObject(request.params) ? request.params : {};
  const { _meta: _, ...params } = raw;
  if (kind.params !== undefined) {
    const checked = validate(kind.params, params);
    if (!checked.ok) {
      const where = checked.problems
        .slice(0, 5)
        .map((p) => `${p.path || "(root)"}: ${p.message}`)
        .join("; ");
      return errorResponse(id, RpcError.InvalidParams, `Invalid params of ${method}: ${where}`);
    }
  }
  let result: unknown;
  try {
    result = await handler(params, { key: String(id), method, params, round: 1, signal });
  } catch (error) {
    if (signal.aborted) return undefined;
    return errorResponse(
      id,
      RpcError.InternalError,
      `The ${kind.handler} handler failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (signal.aborted) return undefined;
  const checked = await checkAnswer(kind.result, result);
  if (!checked.ok) {
    return errorResponse(id, RpcError.InternalError, `The ${kind.handler} handler returned an invalid ${kind.result}`, {
      problems: checked.problems,
    });
  }
  return { jsonrpc: "2.0", id, result: checked.value } as unknown as JSONRPCResponse;
}
