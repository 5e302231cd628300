/**
 * A revision of the protocol as the client speaks it: a codec the middle
 * (`Client`, `channel.ts`, the features) asks instead of naming an era.
 * Two implement it: `2026-07-28/` (the `_meta` envelope on every request,
 * Multi Round-Trip rounds, `server/discover`) and `initialize/` (the
 * handshake and its session, 2024-11-05 to 2025-11-25). `index.ts` picks
 * one on `connect`.
 */
import type {
  CallToolResult,
  ClientCapabilities,
  DiscoverResult,
  Implementation,
  InputRequiredResult,
  ResponseResultOf,
  SubscriptionFilter,
  Tool,
} from "@x/mcp-v2607";
import type { CacheFeature } from "../features/cache.js";
import type { Answering } from "../features/answering.js";
import type { Channel } from "../channel.js";
import type {
  CacheableOptions,
  CallToolOptions,
  ClientOptions,
  Era,
  InputMethod,
  InputOptions,
  RequestArguments,
  RequestOptions,
  Result,
  SendingOptions,
  Subscription,
} from "../options.js";
import type { TaskSettings } from "../task-options.js";
import type { Transport } from "../transports/transport.js";

/** What the client learnt of the server: from `initialize`, or the last `server/discover`. */
export interface PeerInfo {
  capabilities: Record<string, unknown>;
  info: Record<string, unknown>;
  instructions?: string;
}

/** How a result is stored in the cache: by its own hints (`undefined`), or with the freshness the revision gives. */
export type StoreHints = { ttlMs: number; cacheScope: "private" } | undefined;

/**
 * One `tools/call` as the tools feature hands it to a revision that runs it
 * another way (a task-augmented call): `send` is the ordinary path (headers
 * mirrored, rounds resolved), usable as is.
 */
export interface ToolCall {
  readonly name: string;
  /** The tool's definition as last listed, when the client knows it. */
  readonly tool: Tool | undefined;
  readonly args: Record<string, unknown>;
  readonly options: CallToolOptions;
  send(): Promise<CallToolResult | InputRequiredResult>;
}

/** What the client hands a revision: the parts it composes, shared by both revisions. */
export interface RevisionContext {
  readonly transport: Transport;
  readonly options: ClientOptions;
  readonly clientInfo: Implementation;
  /** The capabilities the user's options declare (the tasks extension included when `tasks` is on). */
  readonly capabilities: ClientCapabilities;
  /** {@link capabilities} with the tasks extension, for the requests that always declare it. */
  readonly taskCapabilities: ClientCapabilities;
  /** The task settings (`ClientOptions.tasks`), with their defaults: how long a task is waited for and polled. */
  readonly taskSettings: TaskSettings;
  readonly channel: Channel;
  readonly cache: CacheFeature;
  readonly answering: Answering;
  readonly warn: (message: string) => void;
  /** Sets or reads what the server said of itself. */
  peer(info?: PeerInfo): PeerInfo | undefined;
  /** Makes `revision` the one requests go through (before its opening exchange). */
  use(revision: ClientRevision): void;
}

/** A revision of the protocol as the client speaks it (see the module comment). */
export interface ClientRevision {
  /** The spec's name for the era (basic/versioning "Terminology"), for `Client.era`. */
  readonly era: Era;
  /** The protocol version spoken now. */
  readonly protocolVersion: string;
  /** True when `Mcp-Param-*` headers are mirrored (the transport's say too). */
  readonly mirrorsHeaders: boolean;
  /** True when the tasks extension (`io.modelcontextprotocol/tasks`) may be used. */
  readonly tasks: boolean;
  /**
   * The one place where what the client declares is reduced to this
   * revision: the capabilities sent (in `_meta` or `initialize`).
   */
  capabilities(declareTasks: boolean): ClientCapabilities;
  /**
   * The one place where outgoing params are reduced to this revision: the
   * params of a request as sent (the `_meta` envelope, or a `_meta` only
   * for a progress token).
   */
  params(
    method: string,
    params: Record<string, unknown>,
    options: SendingOptions,
    progressToken: string | undefined,
  ): Record<string, unknown>;
  /** Runs one exchange with this revision's recovery (a -32022 retry in another version; a new session after a 404). */
  exchange(send: () => Promise<Result>): Promise<Result>;
  /** Runs a request that may answer `input_required`: Multi Round-Trip rounds, or one send. */
  resolve<M extends InputMethod>(
    method: M,
    params: RequestArguments<M>,
    options: InputOptions,
    send: (params: RequestArguments<M>) => Promise<ResponseResultOf<M>>,
    tasksDeclared: boolean,
  ): Promise<{ result: ResponseResultOf<M>; rounds: number }>;
  /**
   * Runs a `tools/call` another way than `call.send()`, or `undefined` to
   * leave it to the ordinary path: the one seam for a call the revision
   * runs itself (such as a task-augmented call).
   */
  runToolCall?(call: ToolCall): Promise<CallToolResult | InputRequiredResult> | undefined;
  /** How a result is stored in the cache. */
  storeHints(): StoreHints;
  /** `server/discover`. @throws McpClientError -32096 in a revision without it. */
  discover(options: CacheableOptions): Promise<DiscoverResult>;
  /** `resources/subscribe`. @throws McpClientError -32096 in a revision without it. */
  subscribe(uri: string, options: RequestOptions): Promise<void>;
  /** `resources/unsubscribe`. @throws as {@link subscribe}. */
  unsubscribe(uri: string, options: RequestOptions): Promise<void>;
  /** The notifications `filter` asks for, as a stream. */
  listen(filter: SubscriptionFilter, options: Omit<RequestOptions, "timeout" | "onProgress">): Subscription;
  /** Ends what the revision holds (a session); never rejects. */
  close(): Promise<void>;
}
