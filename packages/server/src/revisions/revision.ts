/**
 * The revision seam (internal): everything about a request that depends on
 * the protocol revision it speaks lives behind one {@link Revision} codec,
 * one folder per wire under `revisions/`: how a message is read and
 * classified, which methods it serves, how a handler's asks reach the
 * client, how a result is stamped and how a fault is answered. The
 * dispatcher, the context and the features ask the codec and name no
 * revision: a new revision is a new folder here, handed to the dispatcher.
 *
 * Two wires are served: `2026-07-28/` (each request carries its envelope in
 * `_meta`; asks are a Multi Round-Trip round) and `initialize/` (the
 * `initialize` handshake era, 2025-11-25 back to 2024-11-05: the envelope is
 * the session's, asks are requests on it). A request of a session comes with
 * its {@link Binding}, which names its codec.
 */
import type { RequestId } from "@x/jsonrpc";
import type { Implementation, LoggingLevel, RequestMetaObject } from "@x/mcp-v2607";
import type { RequestContext, TransportInfo } from "../context.js";
import type { RunScope } from "../scope.js";
import type { Inbound } from "../dispatch.js";
import type { MethodEntry } from "../features/feature.js";
import type { KeyRing } from "../keys.js";
import type { JsonObject } from "../objects.js";
import type { TrafficPrincipal } from "../traffic.js";

/** Where a handler's context reads the level of log messages the client asked for. */
export interface LevelSource {
  /** The level for a request with `_meta` `meta` that came on `binding`; `undefined`: the client asked for none. */
  logLevel(meta: RequestMetaObject, binding: Binding | undefined): LoggingLevel | undefined;
}

/**
 * A connection or session that carries requests of one revision (an
 * `initialize`-era session), as a transport holds it: handed to `inspect`
 * with each message that came on it, and opaque to everything but its codec.
 */
export interface Binding {
  /** The revision its requests are read and answered by. */
  readonly revision: Revision;
  /** Its id in diagnostics (a session id; `""` where the transport names none). */
  readonly id: string;
  /** The protocol version its opening negotiated, for `x-mcp:traffic`. */
  readonly protocolVersion?: string | undefined;
  /** The client's `clientInfo` from its opening, for `x-mcp:traffic`. */
  readonly clientInfo?: Implementation | undefined;
  /** Who opened it (its token's subject and client id), for `x-mcp:traffic`; `undefined` without a token. */
  readonly principal?: TrafficPrincipal | undefined;
}

/** What the server shares with its revisions. */
export interface RevisionSettings {
  /** Signs cursors and seals `requestState`. */
  readonly keys: KeyRing;
  /** Who is asking (`ServerOptions.principal`): a sealed `requestState` is bound to it. */
  readonly principal: ((ctx: RequestContext) => string | undefined) | undefined;
  /** How long a sealed `requestState` stays valid, in milliseconds. */
  readonly ttlMs: number;
  /** Whether the server declares logging (`ServerOptions.logging`). */
  readonly loggingEnabled: boolean;
}

/** One protocol revision (a wire), as the dispatcher asks it. */
export interface Revision extends LevelSource {
  /** Its name in diagnostics: `"2026-07-28"`, `"initialize"`. */
  readonly name: string;
  /** The protocol versions its requests may name, newest first; a request naming another is refused with -32022. */
  readonly versions: readonly string[];
  /**
   * True when every request carries its own version (the `_meta` envelope):
   * its versions are those `server/discover` lists. False for a revision
   * whose requests come on a binding its opening request made.
   */
  readonly perRequest: boolean;
  /**
   * For a request on no binding: true when it is this revision's although
   * it carries no envelope of another (its opening, `initialize`). A request
   * no revision claims is read by the first per-request one.
   */
  opens?(method: string, params: JsonObject): boolean;
  /**
   * Classifies a request of this revision: its envelope (read from `_meta`,
   * or the binding's), what the transport must check of it, or the
   * refusal of a request it cannot read (-32600, -32602; stage `"message"`).
   * `table` is this revision's (see {@link Revision.methods}). Never throws.
   */
  request(
    id: RequestId,
    method: string,
    params: JsonObject,
    binding: Binding | undefined,
    table: ReadonlyMap<string, MethodEntry>,
  ): Inbound;
  /**
   * The methods it serves: its own, those plug-ins `contributed` (answered
   * before the shared table's), and those of the `shared` table (the
   * features') it has. Called when the server is built and when a plug-in contributes.
   */
  methods(
    shared: ReadonlyMap<string, MethodEntry>,
    contributed: ReadonlyMap<string, MethodEntry>,
    settings: RevisionSettings,
  ): ReadonlyMap<string, MethodEntry>;
  /**
   * Runs `entry`'s handler for one request: where the method may ask
   * (`entry.asks`), puts the route of the run's asks on `scope` first (the
   * dispatcher finishes it once the run is over). A handler that answers
   * synchronously is answered synchronously (no promise).
   * @returns the handler's result, or this revision's answer in lieu of it (`input_required`).
   * @throws what the handler throws, and what the revision refuses in the request's params.
   */
  run(
    entry: MethodEntry,
    params: JsonObject,
    ctx: RequestContext,
    transport: TransportInfo,
    scope: RunScope,
    settings: RevisionSettings,
  ): unknown;
  /** A shallow copy of `result` with what every result of this revision carries, and without what it lacks; `result` stays as it was. */
  stamp(result: JsonObject, serverInfo: Implementation): JsonObject;
  /**
   * The JSON text of `stamp(result, serverInfo)`, written without walking
   * what the stamp adds again, when that text is exactly what
   * `JSON.stringify` of the stamped copy gives; `undefined` when it cannot
   * be (the caller then writes the stamped copy). Absent: always the copy.
   * `ownText`: `JSON.stringify(result)` when the caller already has it.
   */
  stampText?(result: unknown, serverInfo: Implementation, ownText?: string): string | undefined;
  /** What a handler's fault is answered as in this revision (an error code of its own); absent: as thrown. */
  fault?(error: unknown): unknown;
}
