/**
 * Protocol errors raised inside the server and how they map to JSON-RPC
 * error responses (spec 2026-07-28, basic/index "Error Codes").
 */

/**
 * An error that becomes a JSON-RPC error response with `code`, `message`
 * and optional `data`. Throw it from a handler to answer with that error
 * instead of a result; any other thrown value becomes -32603 (or, inside a
 * tool, an `isError` result).
 *
 * Errors are recognised by their numeric `code` (see `isMcpError`), never by
 * `instanceof` across packages.
 */
export class McpError extends Error {
  /** The JSON-RPC error code, e.g. -32602 (`ErrorCode.InvalidParams`). */
  readonly code: number;
  /** Optional detail carried as `error.data`. */
  readonly data: unknown;
  /**
   * An error to throw from a handler.
   * @param code the JSON-RPC error code; -32768 to -32000 makes it a protocol error ({@link isProtocolError})
   * @param message the error's `message`, sent to the client as it is
   * @param data optional JSON value sent as `error.data`
   */
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "McpError";
    this.code = code;
    this.data = data;
  }
}

/**
 * True for any object that carries an integer `code` and a string `message`,
 * the shape of a JSON-RPC error, whichever package or realm created it.
 */
export function isMcpError(value: unknown): value is { code: number; message: string; data?: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    Number.isInteger((value as { code?: unknown }).code) &&
    typeof (value as { message?: unknown }).message === "string"
  );
}

/**
 * True for an error a handler throws on purpose to answer with a JSON-RPC
 * error: an {@link isMcpError} shape whose code lies in the range JSON-RPC
 * reserves for protocol errors (-32768 to -32000). Inside a tool, anything
 * else thrown is a tool fault and becomes an `isError` result.
 */
export function isProtocolError(value: unknown): value is { code: number; message: string; data?: unknown } {
  return isMcpError(value) && value.code >= -32768 && value.code <= -32000 && !(value instanceof ClientRequestError);
}

/**
 * `resources/read` of a URI the server does not have. Its code depends on
 * the era: -32602 in 2026-07-28 (server/resources, "Error Handling"), and
 * -32002 in the initialize era (2025-11-25 and before), which that era's
 * codec answers (`revisions/initialize/`, its `fault`).
 */
export class ResourceNotFoundError extends McpError {
  constructor(uri: string) {
    super(-32602, "Resource not found", { uri });
    this.name = "ResourceNotFoundError";
  }
}

/**
 * A server-to-client request that failed (initialize era): the client
 * answered with an error, an answer that is not of the request's result type
 * (-32602), never answered (-32001), or went away (-32000). Thrown to the
 * handler by `ctx.elicit`, `ctx.createMessage` and `ctx.listRoots`. Not a
 * protocol error of the handler's own request: uncaught, it is a fault of
 * the handler (a tool's `isError` result, else -32603), so the client's code
 * is never passed off as the answer to its request.
 */
export class ClientRequestError extends Error {
  /** The JSON-RPC error code of the client's answer, or -32602 (invalid answer), -32001 (timeout), -32000 (session ended, not deliverable). */
  readonly code: number;
  /** Made by the server when a request it sent the client fails; handlers only catch it. */
  constructor(code: number, message: string) {
    super(message);
    this.name = "ClientRequestError";
    this.code = code;
  }
}

/**
 * True for an error whose `reported` member is `true`: the part that raised
 * it (a task store or event bus that lost what it keeps its state in, such
 * as `@x/redis` during a Redis outage) has reported the outage itself, once.
 */
function alreadyReported(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { reported?: unknown }).reported === true;
}

/**
 * The server's report of a failure when no `onError` option is given: one
 * line on stderr, `x-mcp: <what> failed: <stack>`, except for an error
 * {@link alreadyReported}, for which nothing is printed: an outage is then
 * one line (its part's), not a stack trace per request it fails.
 */
export function reportToStderr(error: unknown, what: string): void {
  if (alreadyReported(error)) return;
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`x-mcp: ${what} failed: ${text}\n`);
}

/** The JSON-RPC code used when a server limit is reached (the implementation-defined server error range); shared with the client. */
export { SERVER_BUSY } from "@x/jsonrpc";
