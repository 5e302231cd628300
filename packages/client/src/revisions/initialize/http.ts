/**
 * The `initialize` era's session over Streamable HTTP (spec 2025-11-25:
 * basic/transports "Streamable HTTP"), installed on the HTTP transport
 * through its seam (`transports/http-framing.ts`): `Mcp-Session-Id` learnt
 * from the `initialize` answer and sent with `MCP-Protocol-Version` on
 * every later message, a 404 read as the session's end, server-to-client
 * requests answered by a POST of their response, the GET stream for
 * messages tied to no request (resumed with `Last-Event-ID`), and `DELETE`
 * at the end.
 */
import { MissingDependencyError } from "@x/jsonrpc";
import { Header, isValidSessionId } from "@x/mcp-v2511/wire";
import type { JSONRPCNotification, JSONRPCRequest } from "@x/mcp-v2607";
import { delay } from "../../delay.js";
import { clip, transportError } from "../../errors.js";
import type { HttpCarrier, HttpFraming } from "../../transports/http-framing.js";
import { isNotification, isRequest } from "../../transports/jsonrpc.js";
import { resumeDelay, type StreamCursor } from "../../transports/sse-read.js";
import type { SessionHooks, SessionLink } from "./link.js";

/** Longest wait of `openStream` for the GET stream's headers, in milliseconds. */
const EVENT_STREAM_OPEN_WAIT_MS = 2000;
/** Longest wait for the server to answer the session's `DELETE`, in milliseconds. */
const DELETE_TIMEOUT_MS = 5000;

/** The session's framing of one HTTP transport (see the module comment). */
export class HttpSession implements HttpFraming, SessionLink {
  private sid: string | undefined;
  private hooks: SessionHooks | undefined;
  private eventStream: AbortController | undefined;

  constructor(private readonly carrier: HttpCarrier) {}

  get sessionId(): string | undefined {
    return this.sid;
  }

  begin(hooks: SessionHooks): void {
    this.hooks = hooks;
  }

  headers(headers: Headers): boolean {
    if (!this.hooks) return false;
    if (this.sid !== undefined) headers.set(Header.sessionId, this.sid);
    headers.set(Header.protocolVersion, this.hooks.protocolVersion);
    return true;
  }

  mark(): string | undefined {
    return this.sid;
  }

  /** A 404 to a message that named a session: the session is gone (spec 2025-11-25: "Session Management"). */
  check(response: Response, mark: string | undefined, method: string): void {
    if (response.status === 404 && mark !== undefined) {
      if (this.sid === mark) this.sid = undefined;
      response.body?.cancel().catch(() => {});
      throw transportError("session_ended", `The server ended the session (HTTP 404 to ${method}); a new initialize is needed`, {
        status: 404,
      });
    }
    if (method !== "initialize" || !response.ok) return;
    const id = response.headers.get(Header.sessionId);
    if (id === null) {
      this.sid = undefined;
      return;
    }
    if (!isValidSessionId(id)) {
      response.body?.cancel().catch(() => {});
      throw transportError("invalid_message", `The server sent an invalid Mcp-Session-Id ${clip(JSON.stringify(id), 80)}`);
    }
    this.sid = id;
  }

  carries(request: JSONRPCRequest): boolean {
    return this.hooks !== undefined && request.method !== "initialize";
  }

  notification(notification: JSONRPCNotification): void {
    try {
      this.hooks?.onNotification(notification);
    } catch {
      // A listener's fault is not the transport's.
    }
  }

  /** Hands a server-to-client request to the session and POSTs its answer (spec 2025-11-25: "Sending Messages to the Server"). */
  request(request: JSONRPCRequest): void {
    const hooks = this.hooks;
    if (!hooks) return;
    void hooks
      .onRequest(request)
      .then((response) => (response ? this.carrier.post(response) : undefined))
      .catch(() => {
        // The server times the request out; nothing else can be done here.
      });
  }

  resume(lastEventId: string, controller: AbortController): Promise<Response | undefined> {
    return this.getStream(lastEventId, controller);
  }

  closed(): void {
    this.eventStream?.abort(transportError("closed", "The HTTP transport was closed"));
    this.eventStream = undefined;
  }

  /** POSTs a notification (202 Accepted awaited, at most 30 s). */
  notify(notification: JSONRPCNotification): Promise<void> {
    return this.carrier.post(notification);
  }

  /**
   * Opens the GET SSE stream of the session for server messages that answer
   * no request. A `405` (or any answer that is not an SSE stream) means the
   * server offers none: resolves without one. When the stream ends it is
   * opened again, with `Last-Event-ID` when an event carried an id, at most
   * `maxResumeAttempts` times in a row without an event in between. Waits at
   * most 2000 ms for the stream's headers; it then goes on opening in the background.
   */
  async openStream(): Promise<void> {
    if (!this.hooks || this.eventStream || this.carrier.closed) return;
    const controller = new AbortController();
    this.eventStream = controller;
    const opened = this.getStream(undefined, controller).then(
      (response) => {
        if (response) void this.runEventStream(response, controller);
        else if (this.eventStream === controller) this.eventStream = undefined;
      },
      () => {
        if (this.eventStream === controller) this.eventStream = undefined;
      },
    );
    // A server may hold the stream's headers back until its first event: waiting is bounded.
    await Promise.race([opened, delay(EVENT_STREAM_OPEN_WAIT_MS, controller.signal).catch(() => {})]);
  }

  /** Ends the session: closes the GET stream and sends `DELETE` with the session id (a `405` or a failure is accepted). */
  async end(): Promise<void> {
    this.eventStream?.abort(transportError("closed", "The session ended"));
    this.eventStream = undefined;
    const id = this.sid;
    const version = this.hooks?.protocolVersion;
    this.sid = undefined;
    this.hooks = undefined;
    if (id === undefined || this.carrier.closed) return;
    const headers = await this.carrier.userHeaders();
    headers.set(Header.sessionId, id);
    if (version !== undefined) headers.set(Header.protocolVersion, version);
    try {
      const response = await this.carrier.fetch("DELETE", headers, AbortSignal.timeout(DELETE_TIMEOUT_MS));
      await response.body?.cancel().catch(() => {});
    } catch {
      // The session ends on the server's idle timeout instead.
    }
  }

  /** The GET stream, or `undefined` when the server offers none (405, or anything but an SSE stream). */
  private async getStream(lastEventId: string | undefined, controller: AbortController): Promise<Response | undefined> {
    const headers = await this.carrier.userHeaders();
    headers.set("accept", "text/event-stream");
    if (this.sid !== undefined) headers.set(Header.sessionId, this.sid);
    if (this.hooks) headers.set(Header.protocolVersion, this.hooks.protocolVersion);
    if (lastEventId !== undefined) headers.set(Header.lastEventId, lastEventId);
    const sent = this.sid;
    const response = await this.carrier.fetch("GET", headers, controller.signal);
    this.check(response, sent, "GET");
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    if (!response.ok || !type.includes("text/event-stream") || !response.body) {
      await response.body?.cancel().catch(() => {});
      return undefined;
    }
    return response;
  }

  private async runEventStream(first: Response, controller: AbortController): Promise<void> {
    const cursor: StreamCursor = {};
    let attempts = 0;
    let response: Response | undefined = first;
    try {
      while (response?.body && !controller.signal.aborted) {
        let events = 0;
        try {
          await this.carrier.readEvents(response.body, controller, "The GET stream", cursor, (message) => {
            events++;
            if (isNotification(message)) this.notification(message);
            else if (isRequest(message)) this.request(message);
            return false;
          });
        } catch (error) {
          // A package not installed will not be there on the next attempt either: the session goes on without the stream.
          if (error instanceof MissingDependencyError) break;
          // A bad event or a broken read: the stream is opened again below.
        }
        if (events > 0) attempts = 0;
        if (controller.signal.aborted || attempts >= this.carrier.maxResumeAttempts) break;
        attempts++;
        await delay(resumeDelay(cursor, this.carrier.delays), controller.signal);
        response = await this.getStream(cursor.lastEventId, controller);
      }
    } catch {
      // Aborted, or the stream could not be opened again: the session goes on without it.
    } finally {
      if (this.eventStream === controller) this.eventStream = undefined;
    }
  }
}
