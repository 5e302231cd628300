/**
 * What the `initialize` era's revision holds of the session framing it
 * installed on a transport (`http.ts`, `stdio.ts`), whichever it is.
 */
import type { JSONRPCNotification, JSONRPCRequest } from "@x/mcp-v2607";
import type { ServerResponse } from "../../features/answering.js";

/** Where a session's messages go once the handshake's result is in. */
export interface SessionHooks {
  /** The negotiated protocol version, sent as `MCP-Protocol-Version` on every HTTP request after `initialize`. */
  readonly protocolVersion: string;
  /** Answers a server-to-client request; `undefined` when none must be sent (the server cancelled it). Never rejects. */
  onRequest(request: JSONRPCRequest): Promise<ServerResponse | undefined>;
  /** Receives every notification of the session exactly once. */
  onNotification(notification: JSONRPCNotification): void;
}

/** A session framing as the revision drives it. */
export interface SessionLink {
  /** Enters the session: from now on every message names it. */
  begin(hooks: SessionHooks): void;
  /** Sends a notification on the session (`notifications/initialized`, ...). */
  notify(notification: JSONRPCNotification): Promise<void>;
  /** Opens the stream for server messages tied to no request, where the transport has one (HTTP GET). */
  openStream(): Promise<void>;
  /** Ends the session (HTTP `DELETE`) and leaves it, so that the next `initialize` starts a new one. */
  end(): Promise<void>;
}
