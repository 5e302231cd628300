/**
 * What every transport does with the bytes of one message (spec 2026-07-28,
 * basic/index "Messages"): decode UTF-8 JSON within a nesting limit, refuse
 * a batch, then let the dispatcher classify it and check its envelope.
 * Streamable HTTP reads a body, stdio a line; both call {@link readMessage}.
 */
import { decodeJson } from "@x/jsonrpc";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { errorOutcome, type Inbound, type Outcome, rejected } from "../dispatch.js";
import type { McpServer } from "../server.js";
import { rejectionsObserved } from "../telemetry.js";
import { statusOf } from "./http/status.js";

/**
 * Reads one message: `subject` names what carried it in the parse error's
 * text ("the body", "the line"). Never throws: bytes that are not UTF-8 JSON
 * give -32700, nesting deeper than `maxDepth` or a batch -32600, all without an id.
 */
export function readMessage(server: McpServer, bytes: Uint8Array, maxDepth: number, subject: string): Inbound {
  const decoded = decodeJson(bytes, maxDepth, subject);
  if (!decoded.ok) return refused(decoded.code, decoded.message);
  if (Array.isArray(decoded.value)) return refused(ErrorCode.InvalidRequest, "Invalid request: batches are not supported");
  return server.inspect(decoded.value);
}

/** A message refused before it could be classified (published on `x-mcp:request:rejected`, as the dispatcher's refusals are). */
function refused(code: number, message: string): Inbound {
  const outcome: Outcome = errorOutcome(undefined, code, message, undefined, "message");
  if (rejectionsObserved()) rejected(outcome, undefined, statusOf);
  return { kind: "error", outcome };
}
