/**
 * The seam through which a revision with sessions frames the stdio
 * transport (see `http-framing.ts` for HTTP): the process is the session;
 * the transport hands the framing the server's requests and notifications
 * and writes what the framing gives it.
 */
import type { JSONRPCNotification, JSONRPCRequest } from "@x/mcp-v2607";

/** What the stdio transport offers a framing. */
export interface StdioCarrier {
  /** Writes one message line. @throws McpClientError -32000 `"process_exited"` when the process is gone. */
  write(message: object): Promise<void>;
}

/** A revision's framing of the stdio transport. */
export interface StdioFraming {
  /** A server-to-client request; false when the framing takes none (outside a session). */
  request(request: JSONRPCRequest): boolean;
  /** A notification (it also reaches the requests in flight). */
  notification(notification: JSONRPCNotification): void;
}
