/**
 * What every transport does with the bytes of one message (spec 2026-07-28,
 * basic/index "Messages"): decode UTF-8 JSON within a nesting limit, refuse
 * a batch, then let the dispatcher classify it and check its envelope.
 * Streamable HTTP reads a body, stdio a line; both call {@link readMessage}.
 */
import { decodeJson, decodeJsonText, isResponseShaped } from "@x/jsonrpc";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { errorOutcome, type Inbound, type Outcome, rejected } from "../dispatch.js";
import type { Binding } from "../revisions/revision.js";
import { inspectWith, type McpServer } from "../server.js";
import { rejectionsObserved } from "../telemetry.js";

/** The HTTP status a transport answers an outcome with, for `x-mcp:request:rejected`; `undefined` where it has none (stdio). */
export type StatusOf = ((outcome: Outcome) => number) | undefined;

/**
 * Reads one message, from its bytes or from text a transport already found
 * to be UTF-8 (stdio reads a chunk of ASCII lines as one string): `subject`
 * names what carried it in the parse error's
 * text ("the body", "the line"). An integer beyond ±(2^53 − 1) is read as a
 * `bigint` with every digit (`parseJson`); a request says whether it may
 * hold one (`InboundRequest.lossless`). Never throws: bytes that are not
 * UTF-8 JSON give -32700, nesting deeper than `maxDepth` or a batch -32600,
 * both without an id.
 */
export function readMessage(
  server: McpServer,
  message: Uint8Array | string,
  maxDepth: number,
  subject: string,
  binding: Binding | undefined,
  status: StatusOf,
): Inbound {
  const decoded = decodeMessage(message, maxDepth, subject, status);
  return decoded.ok ? inspectDecoded(server, decoded, binding, status) : decoded.inbound;
}

/**
 * One message decoded but not yet classified: its value and whether it was
 * read keeping every digit (so it may hold a `bigint`), or the refusal it gets
 * (already published).
 */
export type Decoded = { ok: true; value: unknown; lossless: boolean } | { ok: false; inbound: Refused };

/**
 * The second half of {@link readMessage}: the dispatcher classifies a
 * decoded value (as a message of `binding`, the session it came on, if
 * any), and a request keeps the parse's `lossless`.
 */
export function inspectDecoded(
  server: McpServer,
  decoded: Extract<Decoded, { ok: true }>,
  binding: Binding | undefined,
  status: StatusOf,
): Inbound {
  const inbound = inspectWith(server, decoded.value, binding, status);
  // The parse's own signal: only a message read keeping every digit is walked for bigints later.
  if (inbound.kind === "request") inbound.lossless = decoded.lossless;
  return inbound;
}

/** A message refused before it could be classified. */
type Refused = Extract<Inbound, { kind: "error" }>;

/**
 * The first half of {@link readMessage}: the decoding and its refusals,
 * without classifying the value. For a transport that must look at the
 * message before it knows how to classify it (Streamable HTTP: whether a
 * request carries the 2026-07-28 envelope decides whether `Mcp-Session-Id`
 * counts). `batches`: a batch is let through, for the transport to answer
 * or refuse once it knows the session (`revisions/initialize/batch.ts`).
 * Never throws.
 */
export function decodeMessage(message: Uint8Array | string, maxDepth: number, subject: string, status: StatusOf, batches = false): Decoded {
  const decoded = typeof message === "string" ? decodeJsonText(message, maxDepth, subject) : decodeJson(message, maxDepth, subject);
  if (!decoded.ok) return { ok: false, inbound: refused(decoded.code, decoded.message, status) };
  // A batch of responses only is read (never answered); a batch holding anything else is refused.
  if (!batches && isRequestBatch(decoded.value))
    return { ok: false, inbound: refused(ErrorCode.InvalidRequest, "Invalid request: batches are not supported", status) };
  return decoded;
}

/**
 * True when `value` is a JSON-RPC batch that asks for more than settling
 * responses: an array with something other than responses in it (or none).
 */
export function isRequestBatch(value: unknown): value is unknown[] {
  return Array.isArray(value) && !(value.length > 0 && value.every(isResponseShaped));
}

/** A message refused before it could be classified (published on `x-mcp:request:rejected`, as the dispatcher's refusals are). */
function refused(code: number, message: string, status: StatusOf): Refused {
  const outcome: Outcome = errorOutcome(undefined, code, message, undefined, "message");
  if (rejectionsObserved()) rejected(outcome, undefined, status);
  return { kind: "error", outcome };
}
