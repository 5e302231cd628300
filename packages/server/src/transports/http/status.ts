/**
 * The HTTP status of each outcome on Streamable HTTP (spec 2026-07-28,
 * basic/transports/streamable-http). The dispatcher's outcomes carry no
 * status; this file alone decides them.
 */
import type { JSONRPCErrorResponse } from "@x/mcp-v2607";
import { ErrorCode } from "@x/mcp-v2607/constants";
import type { Outcome } from "../../dispatch.js";
import { SERVER_BUSY } from "../../errors.js";

/**
 * The status of an error decided before any handler ran: 400 for a parse
 * error, an invalid request, invalid envelope params, a header mismatch, a
 * missing client capability or an unsupported protocol version; 404 for an
 * unknown method; 500 for an internal error (nothing could answer).
 */
export function statusForMessageError(code: number): number {
  return code === ErrorCode.MethodNotFound ? 404 : code === ErrorCode.InternalError ? 500 : 400;
}

/**
 * The status of an error a handler answered with: 400 for a header mismatch,
 * a missing client capability or an unsupported protocol version (the spec
 * requires 400 for these), 404 for method not found, 503 for a server limit
 * reached (-32000), and 200 for every other error (an unknown tool, a bad cursor, ...).
 */
export function statusForHandlerError(code: number): number {
  if (
    code === ErrorCode.HeaderMismatch ||
    code === ErrorCode.MissingRequiredClientCapability ||
    code === ErrorCode.UnsupportedProtocolVersion
  )
    return 400;
  if (code === SERVER_BUSY) return 503;
  return code === ErrorCode.MethodNotFound ? 404 : 200;
}

/**
 * The status of an outcome: the one an `execute` override asked for, else
 * 202 for a notification, 200 for a result, else by the error's stage and code.
 */
export function statusOf(outcome: Outcome): number {
  if (outcome.status !== undefined) return outcome.status;
  const response = outcome.response;
  if (response === undefined) return 202;
  const error = (response as JSONRPCErrorResponse).error;
  if (error === undefined) return 200;
  return outcome.stage === "message" ? statusForMessageError(error.code) : statusForHandlerError(error.code);
}
