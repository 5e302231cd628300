/**
 * JSON-RPC batches (JSON-RPC 2.0 section 6), which protocol version
 * 2025-03-26 alone has: a server MUST accept them (spec 2025-03-26:
 * basic/index "Batching"; basic/transports: a POST body or a stdio line may
 * be an array of requests and notifications). On a session of that version
 * each member is read and answered as it would be alone, and the answers of
 * its requests go back together, as one array, once all are in; a batch of
 * notifications (and responses) gets no answer. Every other version, and a
 * message on no session, keeps refusing a batch (-32600). Both transports
 * ask here.
 */
import { isResponseShaped } from "@x/jsonrpc";
import { ErrorCode } from "@x/mcp-v2607/constants";
import type { Binding } from "../revision.js";
import { LegacySession } from "./session.js";

/**
 * Most messages one batch may hold: 100. A longer one is refused whole
 * with -32600 (no member runs): its members would run at once, past what a
 * session lets a client start in one go.
 */
export const MAX_BATCH_MESSAGES = 100;

/** True when requests may come batched on `binding`: a session whose version has batches (2025-03-26). */
export function takesBatches(binding: Binding | undefined): boolean {
  return binding instanceof LegacySession && binding.table.batches;
}

/**
 * Why a batch on `binding` is refused as a whole, or `undefined` when each
 * of its members is answered: no batches in this version (or on no
 * session), an empty batch (JSON-RPC 2.0: one Invalid Request error, not an
 * array), or more than {@link MAX_BATCH_MESSAGES} messages. The refusal is
 * -32600 with no id.
 */
export function batchRefusal(batch: readonly unknown[], binding: Binding | undefined): { code: number; message: string } | undefined {
  if (!takesBatches(binding)) return { code: ErrorCode.InvalidRequest, message: "Invalid request: batches are not supported" };
  if (batch.length === 0) return { code: ErrorCode.InvalidRequest, message: "Invalid request: an empty batch" };
  if (batch.length > MAX_BATCH_MESSAGES) {
    return {
      code: ErrorCode.InvalidRequest,
      message: `Invalid request: a batch of ${batch.length} messages (at most ${MAX_BATCH_MESSAGES})`,
    };
  }
  return undefined;
}

/**
 * The refusal of one member of a batch that is itself an array, or
 * `undefined` for any other member. JSON-RPC 2.0 section 6 makes each member
 * one Request object (its example `[1,2,3]` answers each member Invalid
 * Request), and no version nests batches: so a nested array is not read as a
 * batch of its own (which would also get past {@link MAX_BATCH_MESSAGES}) but
 * answered -32600 with id null, as any other member that is no message.
 */
export function memberRefusal(member: unknown): { code: number; message: string } | undefined {
  if (!Array.isArray(member)) return undefined;
  return {
    code: ErrorCode.InvalidRequest,
    message: "Invalid request: a batch member must be a request, a notification or a response, not an array",
  };
}

/**
 * True when what `member` is answered with goes into the batch's answer:
 * not for a member shaped as a response, well formed or not. As a single
 * message, such a member is never answered: a well-formed one settles a
 * request of the session, a malformed one is reported on
 * `x-mcp:message:ignored`, and an array element naming its id (or null)
 * would read as the answer to a request of the client's own.
 */
export function answersMember(member: unknown): boolean {
  return !isResponseShaped(member);
}

/** The answer of a batch from its members' JSON texts (a response each, in the order they finished): an array, or `undefined` when none. */
export function batchText(texts: readonly string[]): string | undefined {
  return texts.length === 0 ? undefined : `[${texts.join(",")}]`;
}
