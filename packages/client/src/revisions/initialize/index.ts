/**
 * The `initialize` era as the client speaks it (2024-11-05 to 2025-11-25,
 * spec 2025-11-25: basic/lifecycle): the handshake, which proposes the
 * pinned version (else 2025-11-25) and accepts the version of the era the
 * server answers (only the pinned one when pinned); everything sent then
 * reduced to that version (`versions.ts`); a
 * session the transport carries (`SessionHooks`), renewed when the server
 * ends it (HTTP 404) and the request sent once more; the server's requests
 * on it answered by the same handlers (`answer.ts`); `resources/subscribe`
 * and a `listen` served by the session's notifications (`listen.ts`).
 * Requests carry no envelope: a `_meta` only for a progress token.
 */
import type {
  CallToolResult,
  ClientCapabilities,
  DiscoverResult,
  JSONRPCNotification,
  JSONRPCRequest,
  RequestId,
  ResponseResultOf,
  SubscriptionFilter,
} from "@x/mcp-v2607";
import { Method } from "@x/mcp-v2607/constants";
import { declaresTasks, TASKS_EXTENSION } from "@x/mcp-v2607/tasks";
import { INITIALIZE_ERA_VERSIONS } from "@x/mcp-v2511/wire";
import { ClientErrorCode, isMcpClientError, McpClientError } from "../../errors.js";
import type { ServerResponse } from "../../features/answering.js";
import {
  type CacheableOptions,
  DEFAULT_TIMEOUT_MS,
  type InputMethod,
  type InputOptions,
  type RequestArguments,
  type RequestOptions,
  type Result,
  type SendingOptions,
  type Subscription,
} from "../../options.js";
import { isObject } from "../../results.js";
import type { ClientRevision, RevisionContext, StoreHints, ToolCall } from "../revision.js";
import type { Transport } from "../../transports/transport.js";
import { answerServerRequest } from "./answer.js";
import { readInitializeResult } from "./handshake.js";
import { HttpSession } from "./http.js";
import type { SessionLink } from "./link.js";
import { listenOnSession } from "./listen.js";
import { StdioSession } from "./stdio.js";
import { callsAsLegacyTask, callToolAsLegacyTask } from "./tasks.js";
import { answerAs, type ClientVersion, checkPinned, loadClientVersion, proposedVersion } from "./versions.js";

/** The version this client proposes in `initialize`: the newest of the era. */
export const INITIALIZE_VERSION: (typeof INITIALIZE_ERA_VERSIONS)[0] = INITIALIZE_ERA_VERSIONS[0];

/** `capabilities` without the tasks extension, which this era does not carry. */
function withoutTasks(capabilities: ClientCapabilities): ClientCapabilities {
  if (!isObject(capabilities.extensions) || !declaresTasks(capabilities)) return capabilities;
  const { [TASKS_EXTENSION]: _, ...extensions } = capabilities.extensions;
  const copy: ClientCapabilities = { ...capabilities, extensions };
  if (Object.keys(extensions).length === 0) delete copy.extensions;
  return copy;
}

/** The `initialize` era (see the module comment). */
export class RevisionInitialize implements ClientRevision {
  readonly era = "legacy" as const;
  readonly mirrorsHeaders = false;
  readonly tasks = false;
  private version: string = INITIALIZE_VERSION;
  private renewing: Promise<void> | undefined;
  private closed = false;
  private readonly subscribed = new Set<string>();
  private readonly listeners = new Set<(notification: JSONRPCNotification) => void>();
  private link: SessionLink | undefined;
  /** The version spoken, which everything sent is reduced to; set by the handshake. */
  private spoken: ClientVersion | undefined;

  /** @param choice the client's `protocol`: a pinned version of the era, or `"auto"`. */
  constructor(
    private readonly context: RevisionContext,
    private readonly choice: string,
  ) {}

  get protocolVersion(): string {
    return this.version;
  }

  /** Tasks in 2025-11-25 were another, experimental design: the extension is never declared here. */
  capabilities(_declareTasks: boolean): ClientCapabilities {
    const capabilities = withoutTasks(this.context.capabilities);
    return this.spoken ? (this.spoken.capabilities(capabilities) as ClientCapabilities) : capabilities;
  }

  params(
    method: string,
    params: Record<string, unknown>,
    options: SendingOptions,
    progressToken: string | undefined,
  ): Record<string, unknown> {
    const meta: Record<string, unknown> = { ...options.meta };
    if (progressToken !== undefined) meta.progressToken = progressToken;
    const own = Object.keys(meta).length > 0 ? { ...params, _meta: meta } : { ...params };
    return this.spoken ? this.spoken.request(method, own) : own;
  }

  /** A tool that requires a task in 2025-11-25 (or allows one, asked with `task`) is called as one and followed to its result. */
  runToolCall(call: ToolCall): Promise<CallToolResult> | undefined {
    const server = this.context.peer()?.capabilities;
    if (!callsAsLegacyTask(this.version, server, call.tool, call.options.task)) return undefined;
    const { channel, warn } = this.context;
    return callToolAsLegacyTask(
      {
        send: (method, params, options) => channel.send(method, params, options),
        finish: (result) => result as unknown as CallToolResult,
        serverCapabilities: server,
        settings: this.context.taskSettings,
        warn,
      },
      call.name,
      call.args,
      call.options,
    );
  }

  /** A request the server answers with a 404 for its session: a new session, and the request once more (spec 2025-11-25: "Session Management"). */
  async exchange(send: () => Promise<Result>): Promise<Result> {
    if (this.renewing) await this.renewing;
    try {
      return await send();
    } catch (error) {
      const reason = (error as McpClientError).data as { reason?: unknown } | undefined;
      if (!isMcpClientError(error, ClientErrorCode.TransportFailed) || reason?.reason !== "session_ended") throw error;
      await this.renew();
      return send();
    }
  }

  /** No Multi Round-Trip rounds in this era: one send. */
  async resolve<M extends InputMethod>(
    _method: M,
    params: RequestArguments<M>,
    _options: InputOptions,
    send: (params: RequestArguments<M>) => Promise<ResponseResultOf<M>>,
  ): Promise<{ result: ResponseResultOf<M>; rounds: number }> {
    return { result: await send({ ...params }), rounds: 0 };
  }

  /** The era has no cache hints: stored only for the freshness the user chose (`legacyCacheTtlMs`). */
  storeHints(): StoreHints {
    return { ttlMs: this.context.options.legacyCacheTtlMs ?? 0, cacheScope: "private" };
  }

  async discover(_options: CacheableOptions): Promise<DiscoverResult> {
    throw new McpClientError(
      ClientErrorCode.VersionUnsupported,
      "server/discover is a 2026-07-28 method; in the initialize era read client.serverInfo, serverCapabilities and instructions",
    );
  }

  async subscribe(uri: string, options: RequestOptions): Promise<void> {
    await this.context.channel.send("resources/subscribe", { uri }, options);
    this.subscribed.add(uri);
  }

  async unsubscribe(uri: string, options: RequestOptions): Promise<void> {
    this.subscribed.delete(uri);
    await this.context.channel.send("resources/unsubscribe", { uri }, options);
  }

  listen(filter: SubscriptionFilter, options: Omit<RequestOptions, "timeout" | "onProgress">): Subscription {
    return listenOnSession(
      {
        listeners: this.listeners,
        peer: () => this.context.peer(),
        open: () => !this.closed,
        subscribe: (uri, o) => this.subscribe(uri, o),
        unsubscribe: (uri, o) => this.unsubscribe(uri, o),
        warn: this.context.warn,
      },
      filter,
      options,
    );
  }

  /** Ends the session (HTTP `DELETE`); never rejects. */
  async close(): Promise<void> {
    this.closed = true;
    await this.link?.end().catch(() => {});
  }

  /**
   * The handshake: `initialize`, the session entered on the transport,
   * `notifications/initialized`, the GET stream, then the log level and the
   * resource subscriptions restored.
   * @throws McpClientError -32096 when the transport cannot carry a session
   *   or the server answers a version outside the era; the request's errors.
   */
  async open(): Promise<void> {
    const { transport, channel, options } = this.context;
    const link = this.install(transport);
    if (!link) {
      throw new McpClientError(
        ClientErrorCode.VersionUnsupported,
        `The ${transport.kind} transport cannot carry the initialize era (it has no session support)`,
      );
    }
    this.version = proposedVersion(this.choice);
    this.spoken = await loadClientVersion(this.version);
    const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    const result = await channel.once(
      "initialize",
      { protocolVersion: this.version, capabilities: this.capabilities(false), clientInfo: this.context.clientInfo },
      { timeout },
    );
    const outcome = await readInitializeResult(result);
    checkPinned(this.choice, outcome.protocolVersion);
    this.spoken = await loadClientVersion(outcome.protocolVersion);
    this.version = outcome.protocolVersion;
    // A transport may have framed itself anew during the exchange (HTTP falling back to HTTP+SSE).
    const session = this.link ?? link;
    const peer = { capabilities: outcome.capabilities, info: outcome.serverInfo };
    this.context.peer(outcome.instructions !== undefined ? { ...peer, instructions: outcome.instructions } : peer);
    session.begin({
      protocolVersion: outcome.protocolVersion,
      onRequest: (request) => this.onRequest(request),
      onNotification: (notification) => this.onNotification(notification),
    });
    await session.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
    await session.openStream();
    const level = options.logLevel;
    if (level !== undefined && outcome.capabilities.logging !== undefined) {
      await channel
        .once("logging/setLevel", { level }, { timeout })
        .catch((error) => this.context.warn(`logging/setLevel failed: ${error instanceof Error ? error.message : String(error)}`));
    }
    for (const uri of this.subscribed) {
      await channel
        .once("resources/subscribe", { uri }, { timeout })
        .catch((error) =>
          this.context.warn(`Could not renew the subscription to ${uri}: ${error instanceof Error ? error.message : String(error)}`),
        );
    }
  }

  /** The session framing on `transport`, installed on the first opening; `undefined` when it carries none. */
  private install(transport: Transport): SessionLink | undefined {
    if (this.link) return this.link;
    // The latest framing installed is the session's: a transport that falls back to another binding frames it again.
    const framed = transport.frame?.({
      http: (carrier) => {
        const session = new HttpSession(carrier);
        this.link = session;
        return session;
      },
      stdio: (carrier) => {
        const session = new StdioSession(carrier);
        this.link = session;
        return session;
      },
    });
    if (!framed) this.link = undefined;
    return this.link;
  }

  /** A new session after the server ended the last one, shared by every request that saw it end. */
  private renew(): Promise<void> {
    this.renewing ??= (async () => {
      try {
        await this.link?.end();
        await this.open();
      } finally {
        this.renewing = undefined;
      }
    })();
    return this.renewing;
  }

  /** A server request, answered as the spoken version defines it (`answerAs`). */
  private onRequest(request: JSONRPCRequest): Promise<ServerResponse | undefined> {
    const answering = this.context.answering;
    return answering.serve(request, (signal) =>
      answerAs(this.spoken, request, () => answerServerRequest(request, answering.handlers, signal)),
    );
  }

  private onNotification(notification: JSONRPCNotification): void {
    if (notification.method === Method.NotificationsCancelled) {
      const id = (notification.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) this.context.answering.cancel(id);
    }
    this.context.cache.invalidateFor(notification);
    for (const listener of [this.context.options.onNotification, ...this.listeners]) {
      try {
        listener?.(notification);
      } catch (error) {
        this.context.warn(`A notification listener threw: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
