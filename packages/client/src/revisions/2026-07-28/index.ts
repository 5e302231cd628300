/**
 * Revision 2026-07-28 as the client speaks it: no session; every request
 * carries its `_meta` envelope (protocol version, client capabilities,
 * client info, log level; spec: basic/index "_meta"), a -32022 is retried
 * once in a version the server listed, `input_required` is resolved in Multi
 * Round-Trip rounds (`rounds.ts`), `server/discover` says what the server
 * is, and `subscriptions/listen` carries notifications (`listen.ts`).
 */
import type { ClientCapabilities, DiscoverResult, Implementation, ResponseResultOf, SubscriptionFilter } from "@x/mcp-v2607";
import {
  ErrorCode,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_PROTOCOL_VERSION,
  Method,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@x/mcp-v2607/constants";
import { readEnvelope, requestMeta } from "@x/mcp-v2607/wire";
import { ClientErrorCode, isMcpClientError, McpClientError } from "../../errors.js";
import {
  type CacheableOptions,
  type ClientOptions,
  DECLARE_TASKS,
  DEFAULT_MAX_INPUT_ROUNDS,
  type InputMethod,
  type InputOptions,
  type RequestArguments,
  type RequestOptions,
  type Result,
  type SendingOptions,
  type Subscription,
} from "../../options.js";
import { isObject } from "../../results.js";
import type { ClientRevision, RevisionContext, StoreHints } from "../revision.js";
import { listen } from "./listen.js";
import { resolveRounds } from "./rounds.js";

/** The versions a client of `options` proposes, preferred first. */
export function versionsOf(options: ClientOptions): string[] {
  return options.protocolVersions?.length ? [...options.protocolVersions] : [...SUPPORTED_PROTOCOL_VERSIONS];
}

/**
 * The server's own rule for the request `_meta`, applied once when the
 * client is built rather than learnt from a -32602 on every request (a
 * check that could not run, -32603, is left to the server).
 * @throws TypeError naming the member that breaks the schema.
 */
export function checkEnvelope(version: string, capabilities: ClientCapabilities, options: ClientOptions, clientInfo: Implementation): void {
  const envelope = readEnvelope({
    _meta: requestMeta({ protocolVersion: version, clientCapabilities: capabilities, clientInfo, logLevel: options.logLevel }),
  });
  if (!envelope.ok && envelope.code === ErrorCode.InvalidParams) throw new TypeError(envelope.message);
}

/** Revision 2026-07-28 (see the module comment). */
export class Revision2607 implements ClientRevision {
  readonly era = "modern" as const;
  readonly tasks = true;
  private readonly versions: readonly string[];
  private version: string;

  constructor(private readonly context: RevisionContext) {
    this.versions = versionsOf(context.options);
    this.version = this.versions[0]!;
  }

  get protocolVersion(): string {
    return this.version;
  }

  get mirrorsHeaders(): boolean {
    return this.context.transport.mirrorsHeaders;
  }

  capabilities(declareTasks: boolean): ClientCapabilities {
    return declareTasks ? this.context.taskCapabilities : this.context.capabilities;
  }

  params(
    _method: string,
    params: Record<string, unknown>,
    options: SendingOptions,
    progressToken: string | undefined,
  ): Record<string, unknown> {
    const meta: Record<string, unknown> = { ...options.meta };
    meta[META_PROTOCOL_VERSION] = this.version;
    meta[META_CLIENT_CAPABILITIES] = this.capabilities(options[DECLARE_TASKS] === true);
    meta[META_CLIENT_INFO] = this.context.clientInfo;
    const level = options.logLevel ?? this.context.options.logLevel;
    if (level !== undefined) meta[META_LOG_LEVEL] = level;
    if (progressToken !== undefined) meta.progressToken = progressToken;
    return { ...params, _meta: meta };
  }

  /** On the server's -32022, once more in the first version both sides speak (spec: basic/versioning). */
  async exchange(send: () => Promise<Result>): Promise<Result> {
    try {
      return await send();
    } catch (error) {
      if (!isMcpClientError(error, ErrorCode.UnsupportedProtocolVersion) || (error as McpClientError).source !== "server") throw error;
      const data = (error as McpClientError).data as { supported?: unknown } | undefined;
      const supported = Array.isArray(data?.supported) ? data.supported.filter((v): v is string => typeof v === "string") : [];
      const mutual = this.versions.find((v) => supported.includes(v));
      if (mutual === undefined) {
        throw new McpClientError(
          ErrorCode.UnsupportedProtocolVersion,
          `The server supports protocol versions ${supported.join(", ") || "(none listed)"}; this client speaks ${this.versions.join(", ")}`,
          data,
          "server",
        );
      }
      this.version = mutual;
      return send();
    }
  }

  resolve<M extends InputMethod>(
    method: M,
    params: RequestArguments<M>,
    options: InputOptions,
    send: (params: RequestArguments<M>) => Promise<ResponseResultOf<M>>,
    tasksDeclared: boolean,
  ): Promise<{ result: ResponseResultOf<M>; rounds: number }> {
    const max = this.context.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    return resolveRounds(this.context.answering, max, method, params, options, send, tasksDeclared);
  }

  storeHints(): StoreHints {
    return undefined;
  }

  /**
   * `server/discover`, cached per its hints; when the version in use is not
   * among `supportedVersions`, the first of the client's own that is.
   */
  async discover(options: CacheableOptions): Promise<DiscoverResult> {
    const result = await this.context.cache.cached(Method.ServerDiscover, {}, options, (r) => r);
    this.remember(result);
    const supported = Array.isArray(result.supportedVersions) ? result.supportedVersions : [];
    if (supported.length > 0 && !supported.includes(this.version)) {
      const mutual = this.versions.find((v) => supported.includes(v));
      if (mutual !== undefined) this.version = mutual;
    }
    return result;
  }

  /** Keeps what a `DiscoverResult` says of the server. */
  private remember(result: DiscoverResult): void {
    if (!isObject(result.capabilities)) return;
    const info = result._meta?.["io.modelcontextprotocol/serverInfo"];
    const peer = { capabilities: result.capabilities as Record<string, unknown>, info: isObject(info) ? info : {} };
    this.context.peer(typeof result.instructions === "string" ? { ...peer, instructions: result.instructions } : peer);
  }

  async subscribe(_uri: string, _options: RequestOptions): Promise<void> {
    throw this.noSubscribe("resources/subscribe");
  }

  async unsubscribe(_uri: string, _options: RequestOptions): Promise<void> {
    throw this.noSubscribe("resources/unsubscribe");
  }

  private noSubscribe(method: string): McpClientError {
    return new McpClientError(
      ClientErrorCode.VersionUnsupported,
      `${method} belongs to the initialize era; in 2026-07-28 use listen({ resourceSubscriptions })`,
      { method },
    );
  }

  listen(filter: SubscriptionFilter, options: Omit<RequestOptions, "timeout" | "onProgress">): Subscription {
    return listen(this.context.channel, this.context.warn, filter, options);
  }

  async close(): Promise<void> {}
}
