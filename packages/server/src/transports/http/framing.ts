/**
 * The seam between the Streamable HTTP transport and a revision whose
 * requests come on sessions (internal). The ladder names no revision: where
 * a session matters (a verb other than POST, the headers naming a session,
 * the opening request, a message on a session) it asks the core's framing,
 * which a revision plug-in provides (`PluggedRevision.http`), one per
 * transport core. A server without such a plug-in has none, and the ladder
 * serves every message per request.
 */
import type { RequestId } from "@x/jsonrpc";
import type { InboundRequest } from "../../dispatch.js";
import type { JsonObject } from "../../objects.js";
import type { Binding } from "../../revisions/revision.js";
import type { Exchange, HttpAnswer } from "./exchange.js";

/** A session an exchange names, as the ladder holds it (`Exchange.session`). */
export interface FramedSession {
  /** What the exchange's message is read with (`McpServer.inspect`'s binding). */
  readonly binding: Binding;
}

/** A revision's framing of its sessions on one Streamable HTTP endpoint. */
export interface HttpFraming {
  /** Methods besides POST the endpoint answers for it (`Allow`, preflights); empty while it serves no version. */
  readonly methods: readonly string[];
  /** Request headers its clients send (a preflight's `Access-Control-Allow-Headers`). */
  readonly requestHeaders: readonly string[];
  /** Response headers its clients read (`Access-Control-Expose-Headers`). */
  readonly exposedHeaders: readonly string[];
  /**
   * An exchange with another method than POST: its answer, or `undefined`
   * when it is none of the framing's (the ladder then answers 405). `allow`
   * is the endpoint's `Allow` value, for a 405 of its own.
   */
  verb(ex: Exchange, allow: string): HttpAnswer | Promise<HttpAnswer> | undefined;
  /**
   * Once the body is decoded (`ex.decoded`), before the message is
   * classified: claims the exchange by its headers and its message, setting
   * `ex.session` when it names one of the framing's sessions, or
   * `ex.expectsSession` when its headers call for a session it does not name;
   * or refuses it (an unknown session, a header the session cannot take).
   * A promise when it must first read a shared session store.
   */
  claim(ex: Exchange): HttpAnswer | undefined | Promise<HttpAnswer | undefined>;
  /** The refusal of a message other than a request with `ex.expectsSession` set and no session named. */
  missingSession(ex: Exchange): HttpAnswer;
  /**
   * True when a body may be a JSON-RPC batch: `decode` then lets an array
   * through, for {@link HttpFraming.batch} to answer or refuse once the
   * session is known.
   */
  readonly batches: boolean;
  /**
   * A batch (`ex.decoded` an array of messages, `ex.session` claimed): its
   * answer, or its refusal as a whole; `climb` runs one member's exchange
   * from the ladder's `message` stage on, as a POST of its own.
   */
  batch(ex: Exchange, climb: (member: Exchange) => HttpAnswer | Promise<HttpAnswer>): HttpAnswer | Promise<HttpAnswer>;
  /** The opening request (an `Inbound` of kind `"initialize"`): negotiates, and mints a session. */
  open(ex: Exchange, id: RequestId, params: JsonObject): HttpAnswer | Promise<HttpAnswer>;
  /** A notification or response(s) on `ex.session`: acted on, and answered (202). */
  received(ex: Exchange): HttpAnswer | Promise<HttpAnswer>;
  /** A request on `ex.session`. Never throws. */
  call(ex: Exchange, inbound: InboundRequest): HttpAnswer | Promise<HttpAnswer>;
}
