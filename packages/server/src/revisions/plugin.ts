/**
 * Revision plug-ins (internal): a revision a server serves beside
 * 2026-07-28 that brings more than its codec: state of its own on each
 * server, and the framing its sessions need in the transports (session ids,
 * streams, resumability over Streamable HTTP; pinning a stdio connection by
 * its opening exchange). A server class names the plug-ins it includes
 * (`McpServer.revisionPlugins`), and its transports get their framings from
 * the server (`partsOf(server).plugged`), so a server class without a
 * plug-in neither runs nor bundles any of its code.
 */
import type { RequestId } from "@x/jsonrpc";
import type { ClientCapabilities, Implementation, ServerCapabilities } from "@x/mcp-v2607";
import type { TransportInfo } from "../context.js";
import type { MethodEntry } from "../features/feature.js";
import type { ListKind } from "../features/subscriptions.js";
import type { JsonObject } from "../objects.js";
import type { ServerOptions } from "../options.js";
import type { Core } from "../transports/http/core.js";
import type { HttpFraming } from "../transports/http/framing.js";
import type { StdioConnection, StdioFraming } from "../transports/stdio-framing.js";
import type { Revision } from "./revision.js";

/** A revision plug-in, as a server class lists it. */
export interface RevisionPlugin {
  /** Its codec, handed to the dispatcher; its `versions` are those `protocolVersions` may name for it. */
  readonly revision: Revision;
  /**
   * Sets the plug-in up on a server being built, once its dispatcher exists.
   * @throws RangeError for an option of its own that is invalid.
   */
  install(host: PluginHost): PluggedRevision;
}

/** What a server shares with a plug-in it installs. */
export interface PluginHost {
  /** The server's `Implementation`. */
  readonly info: Implementation;
  /** The options the server was built with. */
  readonly options: ServerOptions;
  /** The versions the server serves (`protocolVersions`), newest first. */
  readonly versions: readonly string[];
  /** The capabilities the registrations imply now, in 2026-07-28's shape (`McpServer.capabilities`). */
  capabilities(): ServerCapabilities;
  /** Adds methods to what the plug-in's revision serves (`Dispatcher.contribute`). */
  contribute(methods: Iterable<readonly [string, MethodEntry]>): void;
}

/** A change a plug-in's sessions may have to hear of: a list changed, or a resource was updated. */
export type ServerChange = { kind: "list"; list: ListKind } | { kind: "resource"; uri: string };

/** The request that opened a session, as an add-on sees it. */
export interface Opening {
  readonly id: RequestId;
  /** The version negotiated. */
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation;
  /** What the transport knows of the opening request (its token, its assigns). */
  readonly transport: TransportInfo;
}

/** What another part of the server adds to a plugged revision (the tasks of 2025-11-25). */
export interface RevisionAddOn {
  /** Methods its sessions serve, answered before the shared table's. */
  readonly methods: Iterable<readonly [string, MethodEntry]>;
  /** Capability members its opening answer advertises (in the revision's own shape), given the opening. */
  capabilities?(opening: Opening | undefined): JsonObject | undefined;
}

/** A plug-in installed on one server. */
export interface PluggedRevision {
  /** The plug-in's codec. */
  readonly revision: Revision;
  /** Its framing on one Streamable HTTP transport core; absent: it needs none. */
  http?(core: Core): HttpFraming;
  /** The Streamable HTTP transport options its framing reads, which the transport's makers accept besides their own. */
  readonly httpOptions?: readonly string[];
  /** Its framing of one stdio connection; absent: it needs none. */
  stdio?(connection: StdioConnection): StdioFraming;
  /** The server announced a change (from its event bus): the plug-in tells its sessions. Never throws. */
  changed(change: ServerChange): void;
  /** The server closes: the plug-in ends its sessions. */
  close(): void;
  /** Adds an add-on's methods and capabilities to the revision. */
  extend(addOn: RevisionAddOn): void;
}
