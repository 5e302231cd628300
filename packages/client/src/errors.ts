/**
 * The errors `@x/client` throws. Every one is an {@link McpClientError}: an
 * `Error` with a numeric JSON-RPC `code`, a `message` and optional `data`.
 * Errors the server answered with keep the server's code (spec 2026-07-28,
 * basic/index "Error Codes": -32602, -32601, -32020, -32021, -32022, ...);
 * failures found by the client itself use the codes of {@link ClientErrorCode}.
 *
 * Recognise an error by its code with {@link isMcpClientError} or
 * {@link errorCode}, never with `instanceof` (a second copy of this package,
 * or another realm, has its own class): they check the shape of
 * {@link McpClientError}, `source` included, so a `DOMException` or another
 * error with a numeric `code` is not taken for one.
 */

/**
 * JSON-RPC error codes for failures the client detects itself (the server
 * never sends these). They sit in the range JSON-RPC leaves to
 * implementations (-32000 to -32099), outside the codes the MCP spec assigns.
 *
 * - `TransportFailed` -32000: no response could be obtained. `data.reason`
 *   says why: `"message_too_large"` (a message over the transport's size
 *   limit), `"process_exited"` (the stdio server process is not running),
 *   `"stream_broken"` (the response stream ended or failed before the
 *   response), `"connection_failed"` (the HTTP request could not be made),
 *   `"http_error"` (an HTTP status without a JSON-RPC body),
 *   `"invalid_message"` (the server sent something that is not JSON-RPC),
 *   `"session_ended"` (HTTP, the `initialize` era: the server answered `404`
 *   to a request carrying a session id; the client starts a new session and
 *   retries once), `"closed"` (the transport was closed by this client).
 * - `RequestTimeout` -32001: no response within the request's `timeout`.
 * - `RequestCancelled` -32800: the caller's `AbortSignal` fired.
 * - `InputRoundsExceeded` -32090: the server still asked for input after the
 *   allowed number of Multi Round-Trip rounds (`data.rounds`).
 * - `InputRequestUnhandled` -32091: the server asked for input (`data.method`,
 *   `data.key`) this client has no handler for, or a handler failed.
 * - `OutputSchemaMismatch` -32092: a tool's `structuredContent` does not match
 *   its `outputSchema` (`data.problems` lists each JSON Pointer and reason).
 * - `OutputSchemaUnusable` -32093: a tool's `outputSchema` cannot be used
 *   (too large, too deep, an unsupported dialect, a `$ref` that does not
 *   resolve inside the schema).
 * - `InvalidResult` -32094: the server's response is not a valid result for
 *   the request (not an object, an unknown `resultType`, an
 *   `input_required` result with neither `inputRequests` nor `requestState`,
 *   a list that is not an array, a task handle to a method that cannot have
 *   one or to a request that did not declare the tasks extension, a
 *   malformed task).
 * - `ListTooLong` -32095: a list helper reached its page cap, or the server
 *   repeated a cursor.
 * - `VersionUnsupported` -32096: the server answered `initialize` with a
 *   protocol version this client does not speak (`data.protocolVersion`,
 *   `data.supported`), or the client was pinned to an era the server does
 *   not serve.
 * - `AuthorizationFailed` -32097: the HTTP transport's OAuth authorization
 *   (spec 2026-07-28, basic/authorization) could not get a usable access
 *   token. `data.reason` names the step that failed (see {@link AuthStep}),
 *   `data.status` the HTTP status when one caused it.
 * - `TaskCancelled` -32098: a task (tasks extension) ended `cancelled`
 *   while this client waited for its result, not because of this caller's
 *   signal (`data.taskId`, `data.statusMessage`).
 * - `InvalidArguments` -32602 is not client-specific: it is the spec's
 *   `InvalidParams`, also used by the client for arguments it refuses to send
 *   (a non-primitive value for an `x-mcp-header` parameter, a tool that was
 *   rejected for invalid `x-mcp-header` annotations).
 */
export const ClientErrorCode = Object.freeze({
  TransportFailed: -32000,
  RequestTimeout: -32001,
  RequestCancelled: -32800,
  InputRoundsExceeded: -32090,
  InputRequestUnhandled: -32091,
  OutputSchemaMismatch: -32092,
  OutputSchemaUnusable: -32093,
  InvalidResult: -32094,
  ListTooLong: -32095,
  VersionUnsupported: -32096,
  AuthorizationFailed: -32097,
  TaskCancelled: -32098,
  InvalidArguments: -32602,
} as const);

/** One of the values of {@link ClientErrorCode}. */
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

/** Why a transport could not deliver a response: `data.reason` of a `TransportFailed` (-32000) error. */
export type TransportFailure =
  | "message_too_large"
  | "process_exited"
  | "stream_broken"
  | "connection_failed"
  | "http_error"
  | "invalid_message"
  | "session_ended"
  | "closed";

/**
 * The step of the OAuth authorization that failed: `data.reason` of an
 * `AuthorizationFailed` (-32097) error.
 *
 * - `"resource_metadata"`: no protected resource metadata (RFC 9728) could be read.
 * - `"resource_mismatch"`: the metadata's `resource` does not name this MCP endpoint.
 * - `"authorization_server_metadata"`: no valid authorization server metadata
 *   (RFC 8414 / OpenID discovery), an issuer that does not match, or no PKCE S256.
 * - `"registration"`: no client identity (nothing pre-registered, no Client ID
 *   Metadata Document, no or a failed dynamic registration).
 * - `"authorization"`: the app has no way to run the authorization (no `authorize`
 *   hook or `redirectUrl`), or the hook failed.
 * - `"authorization_response"`: the redirect was refused: wrong `state`, wrong or
 *   missing `iss` (RFC 9207), or an `error` from the authorization server.
 * - `"token"`: the token endpoint refused or answered badly.
 * - `"unauthorized"`: the server kept answering `401` after new tokens.
 * - `"insufficient_scope"`: the server kept answering `403 insufficient_scope`
 *   after the step-up limit.
 *
 * A step that reaches a URL (the metadata, registration and token requests, and
 * `"authorization"` for the URL the user is sent to) also fails when that URL
 * is neither https nor http on a loopback host (`data.url`), when its answer
 * is larger than 256 KiB (`data.url`, `data.limit`), or when
 * it gets no whole answer within the request time-out (`data.url`,
 * `data.timeoutMs`).
 */
export type AuthStep =
  | "resource_metadata"
  | "resource_mismatch"
  | "authorization_server_metadata"
  | "registration"
  | "authorization"
  | "authorization_response"
  | "token"
  | "unauthorized"
  | "insufficient_scope";

/**
 * An error of `@x/client`: `code` is the JSON-RPC error code (the server's, or
 * one of {@link ClientErrorCode}), `data` optional detail, and `source` tells
 * whether the server answered with this error (`"server"`) or the client
 * raised it (`"client"`).
 */
export class McpClientError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** Detail: the server's `error.data`, or the client's own (see {@link ClientErrorCode}). */
  readonly data: unknown;
  /** `"server"` for a JSON-RPC error response, `"client"` for a failure found locally. */
  readonly source: "server" | "client";
  /**
   * Made by the client; application code reads these errors rather than making them.
   * @param options.cause the error behind this one (a network failure, a parse error)
   */
  constructor(code: number, message: string, data?: unknown, source: "server" | "client" = "client", options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "McpClientError";
    this.code = code;
    this.data = data;
    this.source = source;
  }
}

/**
 * True for an error of this client, whichever copy of the package or realm
 * made it: an object with the shape of {@link McpClientError}, an integer
 * `code`, a string `message` and a `source` of `"server"` or `"client"`.
 * A value with a numeric `code` but no such `source` is not one: a
 * `DOMException` (`TimeoutError` has code 23, `AbortError` 20), a Node.js
 * system error, a bare JSON-RPC error object. With `code`, also checks
 * that the code is that one.
 *
 * @example
 * try { await client.callTool("x") } catch (e) {
 *   if (isMcpClientError(e, ClientErrorCode.RequestTimeout)) retryLater();
 * }
 */
export function isMcpClientError(
  value: unknown,
  code?: number,
): value is { code: number; message: string; data?: unknown; source: "server" | "client" } {
  if (typeof value !== "object" || value === null) return false;
  const { code: c, message, source } = value as { code?: unknown; message?: unknown; source?: unknown };
  if (!Number.isInteger(c) || typeof message !== "string" || (source !== "server" && source !== "client")) return false;
  return code === undefined || c === code;
}

/** The JSON-RPC code of an error of this client, or `undefined` for any other value (see {@link isMcpClientError}). */
export function errorCode(value: unknown): number | undefined {
  return isMcpClientError(value) ? value.code : undefined;
}

/** Builds a `TransportFailed` (-32000) error whose `data.reason` is `reason`. */
export function transportError(
  reason: TransportFailure,
  message: string,
  extra?: Record<string, unknown>,
  cause?: unknown,
): McpClientError {
  return new McpClientError(ClientErrorCode.TransportFailed, message, { reason, ...extra }, "client", { cause });
}

/** True for the -32000 error of a request that failed because the client or its transport was closed (reason `"closed"`). */
export function isClosed(error: unknown): boolean {
  return isMcpClientError(error, ClientErrorCode.TransportFailed) && (error.data as { reason?: unknown } | undefined)?.reason === "closed";
}

/** Builds an `AuthorizationFailed` (-32097) error whose `data.reason` is the failed `step`. */
export function authError(step: AuthStep, message: string, extra?: Record<string, unknown>, cause?: unknown): McpClientError {
  return new McpClientError(
    ClientErrorCode.AuthorizationFailed,
    `Authorization failed (${step}): ${message}`,
    { reason: step, ...extra },
    "client",
    {
      cause,
    },
  );
}

/** Shortens text for an error message: at most `max` characters, with an ellipsis. */
export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
