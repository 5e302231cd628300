/**
 * The per-request context handed to every handler (spec 2026-07-28,
 * basic/index "Request metadata", basic/patterns/progress,
 * server/utilities/logging).
 */
import type { JsonSchemaValidator } from "@x/json-schema";
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  Implementation,
  JSONRPCNotification,
  JSONValue,
  LoggingLevel,
  LoggingMessageNotificationParams,
  ProgressNotificationParams,
  ProgressToken,
  RequestId,
  RequestMetaObject,
  Tool,
} from "@x/mcp-v2607";
import { META_LOG_LEVEL, Method } from "@x/mcp-v2607/constants";
import {
  type Ask,
  type AskOptions,
  askBuilders,
  type ElicitAnswer,
  type ElicitationSchema,
  type JsonElicitAnswer,
  loadAskValidators,
  type RequestedSchemaLiteral,
  type NotSupported,
  type RootsAnswer,
  type SampleAnswer,
  type StandardElicitAnswer,
} from "./mrtr/asks.js";
import type { StandardSchemaV1 } from "./standard-schema.js";
import type { JsonObject } from "./objects.js";
import type { AuthInfo } from "./authorization.js";
import type { Outcome } from "./dispatch.js";
import type { LevelSource } from "./revisions/revision.js";
import { outsideRun } from "./route.js";
import { type RunScope, runScope } from "./scope.js";
import { readTraceContext, type TraceContext } from "./telemetry.js";

/**
 * The reserved prefix of `assigns` keys: keys that start with it belong to
 * the server and its transports, and are filtered out of `ctx.assigns`.
 */
export const RESERVED_ASSIGNS_PREFIX = "x-mcp";

/**
 * A fresh, frozen copy of a transport's `assigns` without the keys that
 * start with {@link RESERVED_ASSIGNS_PREFIX}. The copy is shallow: values
 * are shared with whatever the transport returned.
 */
export function filterAssigns(assigns: Readonly<JsonObject> | undefined): Readonly<JsonObject> {
  if (!assigns) return EMPTY_ASSIGNS;
  const copy: JsonObject = {};
  for (const key of Object.keys(assigns)) {
    // defineProperty, not assignment: a key may be __proto__.
    if (!key.startsWith(RESERVED_ASSIGNS_PREFIX)) Object.defineProperty(copy, key, { value: assigns[key], enumerable: true });
  }
  return Object.freeze(copy);
}

/**
 * What a transport knows about one incoming request, beyond its body.
 * Transports fill it; user code may add `assigns` (for example the result of
 * an authentication step) through the transport's `assigns` option.
 */
export interface TransportInfo {
  /** Aborted when the client goes away (HTTP connection or SSE stream closed, stdio `notifications/cancelled`). */
  signal?: AbortSignal;
  /** Per-request data from outside the protocol (authentication, tenant, ...). Never persisted between requests. */
  assigns?: Readonly<JsonObject>;
  /**
   * Delivers a notification related to this request before its response
   * (over HTTP the first one switches the response to an SSE stream).
   * Returns false when it cannot be delivered (no stream, or the response was sent).
   */
  notify?: (notification: JSONRPCNotification) => boolean;
  /** What the HTTP transport's `auth` verifier found in the request's bearer token; `undefined` without `auth`. */
  auth?: AuthInfo;
  /**
   * True when the client's next request may reach another instance of the
   * server (Streamable HTTP routes each request on its own), where a
   * `requestState` sealed with a key of this process would not open. Set by
   * the HTTP transport; the server then warns, once, when it seals with a
   * random per-process key. Over stdio one process holds the key.
   * @internal
   */
  manyInstances?: boolean;
  /**
   * The HTTP status the transport answers an outcome with, for
   * `x-mcp:request:rejected`; absent where the transport has none (stdio).
   * Set by the HTTP transport, which alone knows its statuses.
   * @internal
   */
  status?: ((outcome: Outcome) => number) | undefined;
  /** What carried the request, for `x-mcp:traffic` (this package's transports set it; not `handle`/`execute`). @internal */
  via?: "http" | "stdio" | undefined;
}

/**
 * The context a handler receives for one request. It is built fresh for each
 * request and holds nothing from earlier ones. Its methods may be taken off
 * it (`async (args, { signal, progress }) => ...`) or passed on as callbacks.
 * It is an instance of a class: a spread (`{ ...ctx }`) copies only its plain
 * fields (`requestId`, `method`, `meta`, `protocolVersion`,
 * `clientCapabilities`, `clientInfo`), not
 * `signal`, `assigns` or the methods.
 */
export interface RequestContext {
  /** The JSON-RPC id of the request, as sent: a string, a number, or a `bigint` for an integer beyond ±(2^53 − 1). */
  readonly requestId: RequestId;
  /** The request's method, e.g. `"tools/call"`. */
  readonly method: string;
  /** The request's `params._meta` as sent (protocol version, client capabilities, client info, ...). */
  readonly meta: RequestMetaObject;
  /** The protocol version the client asked for in `_meta`. */
  readonly protocolVersion: string;
  /** The capabilities the client declared for this request in `_meta`. */
  readonly clientCapabilities: ClientCapabilities;
  /** The client's `Implementation`, when it sent one. */
  readonly clientInfo: Implementation | undefined;
  /** Aborted when the request is cancelled; never aborted when the transport cannot tell. */
  readonly signal: AbortSignal;
  /**
   * Per-request data supplied by the transport's caller (see {@link TransportInfo.assigns}),
   * for example what an authentication step found; `{}` when none. A fresh,
   * frozen copy for each request, without the keys under the reserved prefix
   * {@link RESERVED_ASSIGNS_PREFIX}: nothing a handler does carries over to another request.
   */
  readonly assigns: Readonly<JsonObject>;
  /**
   * The verified access token's subject, client, scopes, expiry and claims
   * (spec: basic/authorization), when the HTTP transport has the `auth`
   * option; `undefined` otherwise (stdio, or HTTP without `auth`). Never the token itself.
   */
  readonly auth: AuthInfo | undefined;
  /**
   * The W3C trace context the request carried in `_meta` (`traceparent`,
   * `tracestate`, `baggage`; spec: basic/index, "OpenTelemetry trace
   * context"), or `undefined` when it sent no valid `traceparent`. Use it as
   * the parent of the spans a handler starts.
   */
  readonly trace: TraceContext | undefined;
  /**
   * Reports progress (spec: basic/patterns/progress). Sends
   * `notifications/progress` only when the request's `_meta` carried a
   * `progressToken` (0 is a valid token); otherwise does nothing.
   * `progress` should grow with each call; `total` is optional.
   * @returns true when a notification was sent.
   */
  progress(progress: number, total?: number, message?: string): boolean;
  /**
   * Sends a log message to the client (spec: server/utilities/logging).
   * Sends `notifications/message` only when the server declares logging
   * (`ServerOptions.logging`), the request's `_meta` carried
   * `io.modelcontextprotocol/logLevel`, and `level` is at or above it.
   * @deprecated Logging is deprecated by the 2026-07-28 spec; log to stderr or OpenTelemetry instead.
   * @returns true when a notification was sent.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): boolean;
  /**
   * The answers this call already carries, by ask key (`elicit-1`, or the
   * key a handler named): those sealed in `requestState` from earlier rounds,
   * with this round's `inputResponses` over them. `{}` on a first round and
   * outside a run. Asks read it; handlers rarely need to.
   */
  readonly answers: Readonly<JsonObject>;
  /** The tool definitions this server serves (its mount list), in `tools/list` order: frozen, deep (see `registerTool`). */
  readonly tools: readonly Tool[];
  /**
   * Asks the user for structured input (form elicitation; spec: client/elicitation,
   * basic/patterns/mrtr). Resolves with the client's `ElicitResult` (accept with
   * `content`, decline or cancel: answers like any other, never asked again),
   * or `{ action: "not_supported" }` when the request's client capabilities lack
   * form elicitation (checked first, without reading answers). When the answer is
   * not there yet, the round ends: the request is answered `input_required` and
   * the client retries, re-running the handler, so work before an ask must be
   * safe to repeat. An accepted answer that does not satisfy `requestedSchema` is asked again.
   * Only in `tools/call`, `prompts/get` and `resources/read` handlers, during their run.
   * @throws Error when called outside the handler's run (a detached promise or timer that
   *   outlives it), on another method, or with a key already used in this run;
   *   TypeError when `requestedSchema` is not a flat object schema of primitive properties.
   *
   * `requestedSchema` may be a Standard Schema (zod 4.2+, arktype, valibot
   * wrapped with `toStandardJsonSchema` of `@valibot/to-json-schema`) whose
   * input is flat ({@link ElicitationSchema}): it is sent as its own JSON
   * Schema conversion, which must pass the same rules, an accepted answer is
   * checked by its own validation (an answer that fails it is asked again),
   * and `content` is that validation's output, typed as the schema's output.
   * A schema without a conversion, or whose conversion fails, throws a TypeError.
   */
  elicit<S extends ElicitationSchema>(
    message: string,
    requestedSchema: S,
    options?: AskOptions,
  ): Promise<StandardElicitAnswer<StandardSchemaV1.InferOutput<S>>>;
  /**
   * Asks with a JSON Schema `requestedSchema` (see the first signature for the rules):
   * resolves with the client's `ElicitResult`, `content` checked against the schema
   * by the server's validator, or `{ action: "not_supported" }`. A literal schema
   * (`as const`, or written inline) types an accepted answer's `content` as its
   * declared properties ({@link JsonElicitAnswer}), so a misspelt field does not compile.
   */
  elicit<const S extends RequestedSchemaLiteral>(message: string, requestedSchema: S, options?: AskOptions): Promise<JsonElicitAnswer<S>>;
  /** Sends the user to `url` (URL-mode elicitation); same rules as {@link RequestContext.elicit}. */
  elicitUrl(message: string, url: string, options?: AskOptions): Promise<ElicitAnswer>;
  /**
   * Asks the client's model for a completion (sampling); same rules as {@link RequestContext.elicit}.
   * @deprecated Sampling is deprecated by the 2026-07-28 spec; it is still served.
   */
  createMessage(params: CreateMessageRequestParams, options?: AskOptions): Promise<SampleAnswer>;
  /**
   * Asks the client for its roots; same rules as {@link RequestContext.elicit}.
   * @deprecated Roots are deprecated by the 2026-07-28 spec; they are still served.
   */
  listRoots(options?: AskOptions): Promise<RootsAnswer>;
  /** Builds asks without asking yet, to gather several into one round with {@link RequestContext.all}. */
  readonly ask: ReturnType<typeof askBuilders>;
  /**
   * Asks several independent questions in one round: resolves with their
   * answers in order once all are answered; otherwise every unanswered one
   * goes into the same `input_required` result.
   */
  all<const T extends readonly Ask<unknown>[]>(asks: T): Promise<{ [K in keyof T]: T[K] extends Ask<infer A> ? A | NotSupported : never }>;
  /**
   * The task this run belongs to (tasks extension, `io.modelcontextprotocol/tasks`,
   * or on an `initialize`-era session the tasks of 2025-11-25), or
   * `undefined` when the call is answered directly. In a task, asks
   * (`ctx.elicit`, ...) put it in `input_required` and resolve when the
   * client answers (`tasks/update`; in the initialize era, the
   * server-to-client request sent while the client waits on `tasks/result`);
   * `signal` is aborted by `tasks/cancel` or when its time to live passes.
   * `progress` and `log` send nothing in the extension; in the initialize
   * era they go to the session with the task's related-task `_meta`.
   */
  readonly task: { readonly taskId: string } | undefined;
  /**
   * For a tool registered with `taskSupport` and `taskStart: "deferred"`:
   * answers the call now with a task handle and runs the rest of the
   * handler in the task. Asks made before it are Multi Round-Trip asks of
   * the call itself. Resolves true once the call is a task, false when the
   * client did not declare the extension, or on an `initialize`-era session
   * sent no `params.task` (the call then goes on as a plain call; a
   * `required` tool never gets this far).
   * @throws Error on a tool without `taskStart: "deferred"`, or when called twice;
   *   McpError(-32000) when the caller holds too many tasks.
   */
  startTask(): Promise<boolean>;
}

/** The syslog levels in increasing severity. */
export const LOG_LEVELS: readonly LoggingLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** Inputs of {@link createContext}. */
export interface ContextInit {
  requestId: RequestId;
  method: string;
  meta: RequestMetaObject;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  transport: TransportInfo;
  loggingEnabled: boolean;
  /** Whether the method's handlers may ask the client (its entry's `asks`); else every ask is refused. */
  asks: boolean;
  /** The validator of elicitation schemas (`ServerOptions.validator`); default the default one. */
  validator?: JsonSchemaValidator | undefined;
  /** The server's tool definitions (read when `ctx.tools` is read). */
  tools?: () => readonly Tool[];
  /** The run's scope (see {@link RunScope}); a fresh one when absent. */
  scope?: RunScope;
  /** Where the client's log level is read (the request's revision); default the request's `_meta`. */
  levels?: LevelSource;
}

/** The log level a request's `_meta` names (`io.modelcontextprotocol/logLevel`). */
const META_LEVELS: LevelSource = {
  logLevel: (meta) => meta[META_LOG_LEVEL] as LoggingLevel | undefined,
};

// Made on first use: workerd refuses an AbortController made at start-up (outside a request).
let neverAborted: AbortSignal | undefined;

const EMPTY_ASSIGNS: Readonly<JsonObject> = Object.freeze({});

/**
 * Builds the context of one request.
 *
 * The context is an instance of one class whose getters and methods live on
 * its prototype: building it per request costs a handful of field writes,
 * not a dozen fresh closures (closures and accessor literals made per
 * request outlived their request in V8's young generation and cost a third
 * of the request path). A method is bound to the context when first read.
 */
export function createContext(init: ContextInit): RequestContext {
  return new Context(init);
}

/** The context's methods, bound to it on first read. */
type Bound = Pick<RequestContext, "progress" | "log" | "elicit" | "elicitUrl" | "createMessage" | "listRoots" | "all" | "startTask">;

class Context implements RequestContext {
  readonly requestId: RequestId;
  readonly method: string;
  readonly meta: RequestMetaObject;
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  readonly #init: ContextInit;
  readonly #scope: RunScope;
  #trace: TraceContext | undefined | null = null;
  #assigns: Readonly<JsonObject> | undefined = undefined;
  #ask: ReturnType<typeof askBuilders> | undefined = undefined;

  constructor(init: ContextInit) {
    this.requestId = init.requestId;
    this.method = init.method;
    this.meta = init.meta;
    this.protocolVersion = init.protocolVersion;
    this.clientCapabilities = init.clientCapabilities;
    this.clientInfo = init.clientInfo;
    this.#init = init;
    this.#scope = init.scope ?? runScope(undefined, undefined, undefined);
  }

  // Read when used: a transport may make its signal only on demand.
  get signal(): AbortSignal {
    const task = this.#scope.task;
    if (task !== undefined) return task.signal;
    const limit = this.#scope.limit;
    const outer = this.#init.transport.signal;
    if (limit !== undefined) return limit.signalOver(outer);
    if (outer !== undefined) return outer;
    neverAborted ??= new AbortController().signal;
    return neverAborted;
  }

  get auth(): AuthInfo | undefined {
    return this.#init.transport.auth;
  }

  get assigns(): Readonly<JsonObject> {
    this.#assigns ??= filterAssigns(this.#init.transport.assigns);
    return this.#assigns;
  }

  get trace(): TraceContext | undefined {
    if (this.#trace === null) this.#trace = readTraceContext(this.meta);
    return this.#trace;
  }

  get answers(): Readonly<JsonObject> {
    return this.#scope.route.answers;
  }

  get tools(): readonly Tool[] {
    return this.#init.tools?.() ?? [];
  }

  get task(): { readonly taskId: string } | undefined {
    const task = this.#scope.task;
    return task === undefined ? undefined : { taskId: task.taskId };
  }

  get startTask(): RequestContext["startTask"] {
    return this.#method("startTask", () => () => {
      const start = this.#scope.startTask;
      if (start === undefined) {
        return Promise.reject(
          new Error(`ctx.startTask: only a tool registered with taskSupport and taskStart: "deferred" can start a task`),
        );
      }
      return start();
    });
  }

  // The methods are read through getters that bind them to this context on
  // first use (and keep the bound function): a handler may take them off the
  // context (`async (args, { progress, elicit }) => ...`), and a request that
  // calls none of them makes no function at all.
  #bound: Partial<Bound> | undefined = undefined;

  /** The bound method under `key`, made by `make` on first read and kept. */
  #method<K extends keyof Bound>(key: K, make: () => Bound[K]): Bound[K] {
    this.#bound ??= {};
    this.#bound[key] ??= make();
    return this.#bound[key] as Bound[K];
  }

  get progress(): RequestContext["progress"] {
    return this.#method("progress", () => (progress, total, message) => this.#progress(progress, total, message));
  }

  get log(): RequestContext["log"] {
    return this.#method("log", () => (level, data, logger) => this.#log(level, data, logger));
  }

  get elicit(): RequestContext["elicit"] {
    return this.#method(
      "elicit",
      () =>
        ((message: string, requestedSchema: RequestedSchemaLiteral, options?: AskOptions) =>
          this.#elicit(message, requestedSchema, options)) as RequestContext["elicit"],
    );
  }

  get elicitUrl(): RequestContext["elicitUrl"] {
    return this.#method("elicitUrl", () => (message, url, options) => this.#elicitUrl(message, url, options));
  }

  get createMessage(): RequestContext["createMessage"] {
    return this.#method("createMessage", () => (params, options) => this.#createMessage(params, options));
  }

  get listRoots(): RequestContext["listRoots"] {
    return this.#method("listRoots", () => (options) => this.#listRoots(options));
  }

  get all(): RequestContext["all"] {
    return this.#method("all", () => ((asks: readonly Ask<unknown>[]) => this.#all(asks)) as RequestContext["all"]);
  }

  get ask(): ReturnType<typeof askBuilders> {
    this.#ask ??= askBuilders(this.clientCapabilities, this.#init.validator);
    return this.#ask;
  }

  #progress(progress: number, total?: number, message?: string): boolean {
    const progressToken = this.meta.progressToken as ProgressToken | undefined;
    const notify = this.#scope.task ? this.#scope.task.notify : this.#init.transport.notify;
    if (progressToken === undefined || progressToken === null || !notify) return false;
    if (typeof progress !== "number" || !Number.isFinite(progress)) throw new TypeError("progress must be a finite number");
    const params: ProgressNotificationParams = { progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    return notify({ jsonrpc: "2.0", method: Method.NotificationsProgress, params } as JSONRPCNotification);
  }

  #log(level: LoggingLevel, data: unknown, logger?: string): boolean {
    const notify = this.#scope.task ? this.#scope.task.notify : this.#init.transport.notify;
    const logLevel = (this.#init.levels ?? META_LEVELS).logLevel(this.meta, this.#scope.binding);
    const minLevel = logLevel === undefined ? -1 : LOG_LEVELS.indexOf(logLevel);
    if (!this.#init.loggingEnabled || minLevel < 0 || !notify) return false;
    const rank = LOG_LEVELS.indexOf(level);
    if (rank < 0) throw new TypeError(`log level must be one of ${LOG_LEVELS.join(", ")}`);
    if (rank < minLevel) return false;
    // `data` is the handler's; the notification carries it as sent.
    const params: LoggingMessageNotificationParams = { level, data: data as JSONValue };
    if (logger !== undefined) params.logger = logger;
    return notify({ jsonrpc: "2.0", method: Method.NotificationsMessage, params } as JSONRPCNotification);
  }

  #elicit(message: string, requestedSchema: RequestedSchemaLiteral, options?: AskOptions): Promise<ElicitAnswer> {
    // The typed overloads are for callers; here the schema is only passed on.
    const ask = this.ask.elicit as (message: string, requestedSchema: RequestedSchemaLiteral, options?: AskOptions) => Ask<ElicitAnswer>;
    return this.#single(ask(message, requestedSchema, options), "elicit");
  }

  #elicitUrl(message: string, url: string, options?: AskOptions): Promise<ElicitAnswer> {
    return this.#single(this.ask.elicitUrl(message, url, options), "elicitUrl");
  }

  #createMessage(params: CreateMessageRequestParams, options?: AskOptions): Promise<SampleAnswer> {
    return this.#single(this.ask.createMessage(params, options), "createMessage");
  }

  #listRoots(options?: AskOptions): Promise<RootsAnswer> {
    return this.#single(this.ask.listRoots(options), "listRoots");
  }

  #all(asks: readonly Ask<unknown>[]): Promise<unknown[]> {
    return this.#run(asks, "all");
  }

  async #run(asks: readonly Ask<unknown>[], name: string): Promise<unknown[]> {
    if (!this.#init.asks) {
      throw new Error(`ctx.${name}: asks are only allowed in tools/call, prompts/get and resources/read handlers, not ${this.method}`);
    }
    // The route knows whether the run is over (a round, a session's run) or lives on (a task).
    const route = this.#scope.route;
    if (route.finished) throw outsideRun(name);
    return route.ask(asks, name, this, this.#scope);
  }

  async #single<T>(one: Ask<T>, name: string): Promise<T | NotSupported> {
    // The capability comes first: without it the answer is "not supported", whatever the answers hold.
    if (one.missing !== undefined) {
      await loadAskValidators();
      one.check();
      return { action: "not_supported", capability: one.missing };
    }
    return (await this.#run([one], name))[0] as T;
  }
}
