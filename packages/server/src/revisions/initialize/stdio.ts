/**
 * The `initialize` era on stdio (spec 2025-11-25: basic/transports "stdio",
 * basic/lifecycle): the connection is the session, opened by `initialize`;
 * server-to-client requests go out on stdout and their answers are read from
 * stdin. The stdio transport asks it as its {@link StdioFraming} (the seam of
 * `transports/stdio-framing.ts`).
 *
 * What is read after `initialize` and before its answer waits for that
 * answer, then is read in order in the era it opened (at most
 * {@link MAX_EARLY_MESSAGES}). Before any era is pinned, a `ping` without the
 * 2026-07-28 envelope is answered with an empty result and pins nothing
 * (basic/utilities/ping: allowed before `initialize` is answered); after a
 * failed `initialize`, a request of the era is refused until one succeeds.
 */
import { type ClassifiedResponse, classify, errorResponse, type RequestId, resultResponse, stringifyJson } from "@x/jsonrpc";
import { ErrorCode, Method } from "@x/mcp-v2511/constants";
import { errorOutcome, internalErrorOutcome, rejected } from "../../dispatch.js";
import { isProtocolError, SERVER_BUSY } from "../../errors.js";
import type { JsonObject } from "../../objects.js";
import { decodeMessage } from "../../transports/messages.js";
import { trafficObserved } from "../../traffic.js";
import type { StdioConnection, StdioFraming } from "../../transports/stdio-framing.js";
import { initializeRefused } from "../2026-07-28/index.js";
import { answersMember, batchRefusal, batchText, memberRefusal, takesBatches } from "./batch.js";
import { earlierPingId, earlierRequestId, legacyValidators, readInitialize } from "./era.js";
import type { LegacyChange, LegacyParts } from "./parts.js";
import { openingEnded, openingStarted } from "./opening.js";
import { LegacySession } from "./session.js";

/**
 * Most messages read after `initialize` and before its answer that wait
 * for that answer (then handled in the order read): 100, and at most
 * `maxLineBytes` bytes of them in all. Past either, a request is refused at
 * once with -32000 (its id), a line that is not JSON gets its usual error,
 * and any other message is dropped.
 */
export const MAX_EARLY_MESSAGES = 100;

/** The refusal of a request of the `initialize` era on a connection whose `initialize` failed. */
const NOT_INITIALIZED = "Invalid request: initialize has not succeeded on this connection; send initialize first";

/** The `initialize` era of one stdio connection. */
export class StdioSession implements StdioFraming {
  readonly #connection: StdioConnection;
  readonly #parts: LegacyParts;
  /** The session, once `initialize` succeeded (a field, not a getter: stdio reads it for every line). */
  binding: LegacySession | undefined = undefined;
  /** True from the moment `initialize` is read until it is answered. */
  opening = false;
  /** An `initialize` failed and none has succeeded since: the client speaks the era, which has no session here yet. */
  #failed = false;
  /** Lines read while `initialize` is answered, in order, and their bytes. */
  readonly #early: (Buffer | string)[] = [];
  #earlyBytes = 0;
  /** Set once the input ended or failed: a session opened after that is closed at once. */
  #released = false;
  readonly #close = () => this.binding?.close();
  readonly #watch = (change: LegacyChange) => {
    const session = this.binding;
    if (!session?.initialized) return;
    if (change.kind === "list") session.notify(`notifications/${change.list}/list_changed`, {});
    else if (session.subscriptions.has(change.uri)) session.notify(Method.NotificationsResourcesUpdated, { uri: change.uri });
  };

  constructor(connection: StdioConnection, parts: LegacyParts) {
    this.#connection = connection;
    this.#parts = parts;
    parts.closers.add(this.#close);
    parts.watchers.add(this.#watch);
  }

  hold(line: Buffer | string): void {
    const connection = this.#connection;
    const maxLine = connection.maxLineBytes;
    if (this.#early.length < MAX_EARLY_MESSAGES && this.#earlyBytes + line.length <= maxLine) {
      // A copy: a Buffer line may be a view of a chunk the stream reuses.
      this.#early.push(typeof line === "string" ? line : Buffer.from(line));
      this.#earlyBytes += line.length;
      return;
    }
    const decoded = decodeMessage(line, connection.maxJsonDepth, "the line", undefined);
    if (!decoded.ok) {
      connection.write(decoded.inbound.outcome.response);
      return;
    }
    const classified = classify(decoded.value);
    if (classified.kind !== "request") return;
    connection.write(
      errorResponse(
        classified.id,
        SERVER_BUSY,
        `Server busy: more than ${MAX_EARLY_MESSAGES} messages or ${maxLine} bytes arrived before initialize was answered`,
      ),
    );
  }

  unpinned(message: unknown): boolean {
    const ping = earlierPingId(message);
    if (ping !== undefined) {
      this.#connection.write(resultResponse(ping, {}));
      return true;
    }
    // After a failed initialize, a request of the era gets its own refusal, not the 2026-07-28 envelope's.
    const early = this.#failed ? earlierRequestId(message) : undefined;
    if (early === undefined) return false;
    this.#connection.write(errorResponse(early, ErrorCode.InvalidRequest, NOT_INITIALIZED));
    return true;
  }

  /** Only a session of 2025-03-26 takes batches (`batch.ts`). */
  get batches(): boolean {
    return takesBatches(this.binding);
  }

  /**
   * Each member handled as a line of its own, the answers of its requests
   * written as one array line once all are in; none when it holds only
   * notifications and responses. Refused whole (-32600) when empty or too long.
   */
  batch(members: unknown[], lossless: boolean): void {
    const connection = this.#connection;
    const refused = batchRefusal(members, this.binding);
    if (refused !== undefined) {
      connection.write(errorResponse(undefined, refused.code, refused.message));
      return;
    }
    const texts: string[] = [];
    // One more than the members: the last `reply` comes after every member was handed over.
    let waiting = 1;
    const reply = (text: string | undefined): void => {
      if (text !== undefined) texts.push(text);
      if (--waiting > 0) return;
      const all = batchText(texts);
      if (all !== undefined) connection.writeText(all);
    };
    const unanswered = (): void => reply(undefined);
    for (const member of members) {
      const nested = memberRefusal(member);
      if (nested !== undefined) {
        const outcome = rejected(errorOutcome(undefined, nested.code, nested.message, undefined, "message"), undefined, undefined);
        texts.push(stringifyJson(outcome.response));
        continue;
      }
      waiting++;
      connection.handle(member, lossless, answersMember(member) ? reply : unanswered);
    }
    reply(undefined);
  }

  open(id: RequestId, params: JsonObject, pinned: boolean): void {
    const connection = this.#connection;
    const parts = this.#parts;
    if (parts.versions.length === 0) {
      connection.write(initializeRefused(id, params, connection.server.supportedVersions).response);
      return;
    }
    if (pinned) {
      connection.write(
        errorResponse(
          id,
          ErrorCode.InvalidRequest,
          "Invalid request: this connection already speaks 2026-07-28; initialize is not accepted",
        ),
      );
      return;
    }
    this.opening = true;
    connection.begin();
    const opening = trafficObserved() ? openingStarted("stdio", id, params, undefined) : undefined;
    readInitialize(params, parts.versions).then(
      (info) => {
        const session = new LegacySession(
          "",
          info,
          (message) => {
            connection.write(message);
            return !connection.outputClosed;
          },
          parts.requestTimeoutMs,
        );
        this.binding = session;
        this.#failed = false;
        const response = { jsonrpc: "2.0", id, result: parts.initializeResult(info.protocolVersion, { id, info, transport: {} }) };
        connection.write(response);
        if (opening) openingEnded(opening, response, undefined, session);
        this.opening = false;
        this.#readEarly();
        if (this.#released) session.close();
        connection.end();
      },
      (error: unknown) => {
        this.opening = false;
        this.#failed = true;
        const outcome = isProtocolError(error)
          ? errorOutcome(id, error.code, error.message, error.data, "message")
          : internalErrorOutcome(id);
        connection.write(outcome.response);
        if (opening) openingEnded(opening, outcome.response, undefined, undefined);
        // No era was opened: what waited is read as if it came now.
        this.#readEarly();
        connection.end();
      },
    );
  }

  settle(responses: readonly ClassifiedResponse[]): void {
    const session = this.binding;
    if (session === undefined) return;
    for (const response of responses) session.settle(response as unknown as JsonObject);
  }

  notified(method: string, params: JsonObject): boolean {
    if (method === Method.NotificationsInitialized) {
      this.binding?.markInitialized();
      return false;
    }
    // A cancellation the era's schema refuses cancels nothing.
    return method !== Method.NotificationsCancelled || legacyValidators().CancelledNotificationParams(params);
  }

  close(): void {
    this.#released = true;
    this.#parts.watchers.delete(this.#watch);
    this.#parts.closers.delete(this.#close);
    this.binding?.close();
  }

  /** Reads the lines that waited for `initialize`, in order, until another `initialize` (the first failed) waits in turn. */
  #readEarly(): void {
    const early = this.#early;
    let k = 0;
    while (k < early.length && !this.opening) this.#connection.handleLine(early[k++]!);
    const read = early.splice(0, k);
    for (const line of read) this.#earlyBytes -= line.length;
  }
}
