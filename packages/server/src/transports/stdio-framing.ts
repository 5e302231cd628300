/**
 * The seam between the stdio transport and a revision whose requests come on
 * a session (internal). `stdio.ts` names no revision: a connection speaks the
 * per-request revision once a request of it (other than the
 * `server/discover` probe) was read, or the revision of a framing once that
 * framing's opening exchange succeeded, which then binds every later message
 * to its session. A revision plug-in provides the framing
 * (`PluggedRevision.stdio`), one per connection; a server without one has
 * none, and every message is read per request.
 */
import type { ClassifiedResponse, RequestId } from "@x/jsonrpc";
import type { JsonObject } from "../objects.js";
import type { Binding } from "../revisions/revision.js";
import type { McpServer } from "../server.js";

/** What stdio gives a framing of one connection. */
export interface StdioConnection {
  readonly server: McpServer;
  /** Longest accepted line, in bytes (`maxLineBytes`): what a framing holds is bounded by it too. */
  readonly maxLineBytes: number;
  /** Deepest accepted JSON nesting (`maxJsonDepth`). */
  readonly maxJsonDepth: number;
  /** True once stdout can no longer be written (the client closed it). */
  readonly outputClosed: boolean;
  /** Writes one message as a line, in this turn's batch; nothing once the output closed. */
  write(message: unknown): void;
  /** Writes one JSON text (a message, or an array of them) as a line, in this turn's batch. */
  writeText(json: string): void;
  /**
   * Acts on one decoded message as on a line of its own on the connection's
   * session, and answers it through `reply`, called exactly once: with the
   * answer's JSON text, or `undefined` when there is none (a member of a batch).
   */
  handle(message: unknown, lossless: boolean, reply: (text: string | undefined) => void): void;
  /** Reads a line as if it had just arrived (one the framing held while its opening was answered). */
  handleLine(line: Buffer | string): void;
  /** Counts work the end of the input waits for (an opening being answered); `end` once for each `begin`. */
  begin(): void;
  end(): void;
}

/** A revision's framing of one stdio connection. */
export interface StdioFraming {
  /** The session the connection's messages belong to once the opening succeeded; `undefined` before. */
  readonly binding: Binding | undefined;
  /** True while the opening is answered: what is read meanwhile goes to {@link StdioFraming.hold}. */
  readonly opening: boolean;
  /** Keeps a line read while the opening is answered, to be read after its answer (or refuses it past a bound). */
  hold(line: Buffer | string): void;
  /**
   * A decoded message on a connection pinned to no revision yet: true when
   * the framing answered it itself (nothing more is done with it).
   */
  unpinned(message: unknown): boolean;
  /** True when a line may be a JSON-RPC batch now (the session's version has them): it then goes to {@link StdioFraming.batch}. */
  readonly batches: boolean;
  /** A batch read on the session: answered member by member through `StdioConnection.handle`, or refused whole. */
  batch(members: unknown[], lossless: boolean): void;
  /** The opening request; `pinned`: the connection speaks the per-request revision already. */
  open(id: RequestId, params: JsonObject, pinned: boolean): void;
  /** Responses read on the connection: each settles the server-to-client request it answers, if any. */
  settle(responses: readonly ClassifiedResponse[]): void;
  /** A notification read once bound: false when the transport must do nothing more with it. */
  notified(method: string, params: JsonObject): boolean;
  /** The input ended or failed: the session ends, and one opened after this at once. */
  close(): void;
}
