/**
 * A JSON-RPC batch POSTed on a session of protocol version 2025-03-26
 * (spec 2025-03-26: basic/transports, "Sending Messages to the Server"),
 * the rule itself in `revisions/initialize/batch.ts`. Each member climbs
 * the rest of the ladder as a POST of its own would (the session's checks,
 * the token's scopes, the assigns hook, `framing.ts`'s call), answered as
 * JSON: the answers of its requests go back as one JSON array once all are
 * in (200), a batch of notifications and responses gets 202 and no body.
 * The messages a member's handler sends on the way (progress, a request to
 * the client) go down the session's GET stream, as they do for a POST that
 * takes JSON only. A refusal of the token (401, 403 with its challenge) is
 * the whole batch's answer, so that the client steps up and sends it again.
 * The connection going away cancels no member (spec 2025-03-26: only
 * `notifications/cancelled` does).
 */
import { Header } from "@x/mcp-v2511/wire";
import { errorAnswer, SSE_HEADERS } from "../../../transports/http/answers.js";
import type { Exchange, HttpAnswer } from "../../../transports/http/exchange.js";
import { ChunkQueue } from "../../../transports/sse.js";
import { answersMember, batchRefusal, batchText, memberRefusal } from "../batch.js";
import type { HttpSession } from "./session-table.js";

/** What a member may be answered with: JSON only, so that every answer is a body to put in the array. */
const JSON_ONLY = Object.freeze({ json: true, sse: false });

/**
 * Answers the batch `ex` carries (`ex.decoded`), or refuses it whole (400,
 * -32600: no session whose version has batches, empty, too long); `climb`
 * runs one member's exchange from the ladder's `message` stage on.
 */
export function answerBatch(ex: Exchange, climb: (member: Exchange) => HttpAnswer | Promise<HttpAnswer>): HttpAnswer | Promise<HttpAnswer> {
  const { value, lossless } = ex.decoded!;
  const members = value as unknown[];
  const refused = batchRefusal(members, ex.session?.binding);
  if (refused !== undefined) return errorAnswer(400, refused.code, refused.message, undefined, ex.cors);
  ex.decoded = undefined;
  const answers = members.map((member) => {
    const nested = memberRefusal(member);
    if (nested !== undefined) return errorAnswer(400, nested.code, nested.message, undefined, ex.cors);
    return climb(memberExchange(ex, member, lossless));
  });
  if (answers.some((answer) => answer instanceof Promise)) return Promise.all(answers).then((all) => batchAnswer(ex, members, all));
  return batchAnswer(ex, members, answers as HttpAnswer[]);
}

/** The exchange of one member: the batch's (headers, session, token, CORS), with the member as its message. */
function memberExchange(ex: Exchange, value: unknown, lossless: boolean): Exchange {
  const member = Object.create(ex) as Exchange;
  member.decoded = { ok: true, value, lossless };
  member.inbound = undefined;
  member.assigns = undefined;
  member.accepts = JSON_ONLY;
  member.watch = () => {};
  member.unwatch = () => {};
  return member;
}

/** The batch's answer from its members' answers (see the module comment). */
function batchAnswer(ex: Exchange, members: readonly unknown[], answers: readonly HttpAnswer[]): HttpAnswer {
  const denied = answers.find((answer) => answer.status === 401 || answer.status === 403);
  if (denied !== undefined) return denied;
  const texts: string[] = [];
  for (let i = 0; i < answers.length; i++) {
    const answer = answers[i]!;
    if (answersMember(members[i]) && "body" in answer && answer.body !== "") texts.push(answer.body);
  }
  const text = batchText(texts);
  if (text === undefined) return { status: 202, headers: { ...ex.cors }, body: "" };
  const session = { [Header.sessionId]: (ex.session as HttpSession).session.id };
  if (ex.accepts.json) return { status: 200, headers: { "content-type": "application/json", ...ex.cors, ...session }, body: text };
  // A client that takes SSE alone gets the array as the one event of a stream.
  const queue = new ChunkQueue();
  queue.push(`event: message\ndata: ${text}\n\n`);
  queue.end();
  return { status: 200, headers: { ...SSE_HEADERS, ...ex.cors, ...session }, stream: queue };
}
