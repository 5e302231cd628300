/**
 * What the `initialize` era's transports share with the server (internal):
 * the versions served, the `InitializeResult`, the changes its sessions
 * hear of, and the server's close. The session framing itself (session ids,
 * the GET stream, resumability, stdio pinning) is the transports'.
 */
import type { InitializeResult } from "@x/mcp-v2511";
import type { RequestId } from "@x/mcp-v2607";
import type { TransportInfo } from "../../context.js";
import type { ListKind } from "../../features/subscriptions.js";
import type { InitializeRequestInfo } from "./era.js";

/** A change an `initialize`-era session may have to hear of: a list changed, or a resource was updated. */
export type LegacyChange = { kind: "list"; list: ListKind } | { kind: "resource"; uri: string };

/** The server's side of the `initialize` era, shared by its transports (internal). */
export interface LegacyParts {
  /** The era's versions served (`protocolVersions`), newest first; empty when the deployment refuses the era. */
  readonly versions: readonly string[];
  /** How long a server-to-client request waits for its answer, in ms. */
  readonly requestTimeoutMs: number;
  /**
   * Builds the `InitializeResult` for the negotiated `protocolVersion`;
   * `opening` (the `initialize` request, what it declared and what the
   * transport knows of it) tells whether its client is identified, which
   * the revision's `tasks.list` capability needs.
   */
  initializeResult(protocolVersion: string, opening?: InitializeOpening): InitializeResult;
  /** Transports watching changes for their sessions. */
  readonly watchers: Set<(change: LegacyChange) => void>;
  /** Transports to tell when the server closes (they end their sessions). */
  readonly closers: Set<() => void>;
}

/** An `initialize` request as the server needs it for its `InitializeResult` (internal). */
export interface InitializeOpening {
  id: RequestId;
  info: InitializeRequestInfo;
  transport: TransportInfo;
}
