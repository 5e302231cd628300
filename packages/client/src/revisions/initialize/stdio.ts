/**
 * The `initialize` era's session over stdio (spec 2025-11-25:
 * basic/transports "stdio"), installed on the stdio transport through its
 * seam (`transports/stdio-framing.ts`): the process is the session; the
 * server's requests are answered on stdin and its notifications reach the
 * session.
 */
import type { JSONRPCNotification, JSONRPCRequest } from "@x/mcp-v2607";
import type { StdioCarrier, StdioFraming } from "../../transports/stdio-framing.js";
import type { SessionHooks, SessionLink } from "./link.js";

/** The session's framing of one stdio transport. */
export class StdioSession implements StdioFraming, SessionLink {
  private hooks: SessionHooks | undefined;

  constructor(private readonly carrier: StdioCarrier) {}

  begin(hooks: SessionHooks): void {
    this.hooks = hooks;
  }

  request(request: JSONRPCRequest): boolean {
    const hooks = this.hooks;
    if (!hooks) return false;
    void hooks
      .onRequest(request)
      .then((response) => (response ? this.carrier.write(response) : undefined))
      .catch(() => {});
    return true;
  }

  notification(notification: JSONRPCNotification): void {
    try {
      this.hooks?.onNotification(notification);
    } catch {
      // A listener's fault is not the transport's.
    }
  }

  notify(notification: JSONRPCNotification): Promise<void> {
    return this.carrier.write(notification);
  }

  /** stdio has no stream of its own for such messages: the one channel carries them. */
  async openStream(): Promise<void> {}

  /** stdio has no session to end: the process is the session. */
  async end(): Promise<void> {
    this.hooks = undefined;
  }
}
