/**
 * The `initialize` era's state on one server (internal), which its framings
 * (`http/`, `stdio.ts`) share: the versions served, the `InitializeResult`,
 * the changes its sessions hear of, and the server's close. Built by the
 * plug-in (`plugin.ts`) when the server is.
 */
import type { InitializeResult } from "@x/mcp-v2511";
import type { RequestId } from "@x/mcp-v2607";
import type { TransportInfo } from "../../context.js";
import type { ServerChange } from "../plugin.js";
import type { InitializeRequestInfo } from "./era.js";

/** A change an `initialize`-era session may have to hear of: a list changed, or a resource was updated. */
export type LegacyChange = ServerChange;

/** The server's side of the `initialize` era, shared by its framings (internal). */
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
  /** Framings watching changes for their sessions. */
  readonly watchers: Set<(change: LegacyChange) => void>;
  /** Framings to tell when the server closes (they end their sessions). */
  readonly closers: Set<() => void>;
}

/** An `initialize` request as the server needs it for its `InitializeResult` (internal). */
export interface InitializeOpening {
  id: RequestId;
  info: InitializeRequestInfo;
  transport: TransportInfo;
}
