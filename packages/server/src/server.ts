/**
 * The server object and its dispatcher (spec 2026-07-28: basic/index,
 * server/discover, server/tools, server/prompts, server/resources,
 * server/utilities/{caching,pagination,completion}, basic/patterns/subscriptions).
 *
 * One `McpServer` is built once and serves every request: a request is a
 * function of (message, per-request transport info) to a response, and no
 * server, protocol or transport object is created per request.
 */
import { discoverResult } from "@x/builders";
import type {
  ClientCapabilities,
  Implementation,
  JSONRPCErrorResponse,
  JSONRPCResultResponse,
  RequestId,
  ServerCapabilities,
  SubscriptionFilter,
} from "@x/mcp-v2607";
import { ErrorCode, META_SERVER_INFO, META_SUBSCRIPTION_ID, Method } from "@x/mcp-v2607/constants";
import { applyHints, type CacheableMethod, type CacheOptions, resolveCacheOptions } from "./cache.js";
import { type Completer, complete } from "./completion.js";
import { type ContextState, createContext, type RequestContext, type TransportInfo } from "./context.js";
import { isProtocolError, McpError, statusForEnvelopeError, statusForHandlerError } from "./errors.js";
import { KeyRing } from "./keys.js";
import { ASKING_METHODS, InputRequiredSignal, openState, Round, readInputResponses, type StateBinding, sealState } from "./mrtr.js";
import { page } from "./pagination.js";
import {
  checkPromptArguments,
  definePrompt,
  type PromptConfig,
  type PromptHandler,
  type RegisteredPrompt,
  toGetPromptResult,
} from "./prompts.js";
import {
  defineResource,
  defineTemplate,
  type ReadHandler,
  type RegisteredResource,
  type RegisteredTemplate,
  type ResourceConfig,
  type ResourceTemplateConfig,
  type TemplateReadHandler,
  toReadResult,
} from "./resources.js";
import { type EnvelopeMeta, type Revision, revision2607 } from "./revision.js";
import { Subscriptions } from "./subscriptions.js";
import { publishRequestRejected, rejectionsObserved } from "./telemetry.js";
import { checkTimeout, defineTool, type RegisteredTool, type RunToolOptions, runTool, type ToolConfig, type ToolHandler } from "./tools.js";
import { HELP_TOOL } from "./actions/gates.js";
import { copyOwn } from "./objects.js";

/** Who the server is: published in `server/discover` and in every result's `_meta`. */
export interface ServerInfo {
  /** Programmatic name (required). */
  name: string;
  /** Version string (required). */
  version: string;
  /** Optional display title. */
  title?: string;
  /** Optional URL of the server's website. */
  websiteUrl?: string;
}

/** Options of {@link McpServer}. */
export interface ServerOptions {
  /** Instructions for the client's model, published by `server/discover`. */
  instructions?: string;
  /**
   * Cache hints (`ttlMs` in milliseconds, an integer >= 0; `cacheScope`
   * `"private"` or `"public"`): a server-wide default plus per-method
   * overrides. Default `{ ttlMs: 0, cacheScope: "private" }`. Registrations
   * (resources) and results may carry their own, which win. Checked when the
   * server is built: an invalid hint throws RangeError here, never when served.
   */
  cache?: CacheOptions;
  /** Items per page of every list (`tools/list`, `prompts/list`, ...). Default 100. */
  pageSize?: number;
  /**
   * Secret keys (raw bytes or base64 strings, each >= 32 bytes) that sign
   * list cursors and seal `requestState`; the first signs, all verify. Default:
   * the `MCP_REQUEST_STATE_KEYS` environment variable (comma-separated base64),
   * else one random key per process (instances then do not share cursors or state).
   */
  requestStateKeys?: readonly (string | Uint8Array)[];
  /**
   * Refuse tool names outside the spec's rule (1 to 128 of `A-Z a-z 0-9 _ - .`).
   * Default true; set false to allow other names (the spec says SHOULD).
   */
  strictToolNames?: boolean;
  /**
   * Declare the `logging` capability so that `ctx.log` sends `notifications/message`.
   * @deprecated Logging is deprecated by the 2026-07-28 spec.
   */
  logging?: boolean;
  /** Most `subscriptions/listen` streams open at once; past it a listen is refused with -32000. Default 1000. */
  maxListenStreams?: number;
  /**
   * Who is asking, for binding `requestState` to a principal (for example the
   * subject of a verified bearer token in `ctx.assigns`). A state sealed for one
   * principal is refused for another. Default: no principal.
   */
  principal?: (ctx: RequestContext) => string | undefined;
  /** How long a sealed `requestState` stays valid, in milliseconds. Default 600 000 (10 minutes). */
  requestStateTtlMs?: number;
  /**
   * Called with every error a handler threw that is answered as -32603
   * "Internal error" (its text is never sent to the client). Default: one
   * line on stderr. Tool faults are not errors of this kind: they are answered
   * as `isError` results (see `toolTimeoutMs` and the `x-mcp:tool:error` channel).
   */
  onError?: (error: unknown, info: { method: string; requestId: RequestId }) => void;
  /**
   * How long a tool call may run, in milliseconds, before it is answered with
   * a `tool_fault` result and its `ctx.signal` is aborted (a tool's own
   * `timeoutMs` wins). 0 turns the limit off. Default 60 000.
   */
  toolTimeoutMs?: number;
}

/** A JSON-RPC response produced by the dispatcher. */
export type JSONRPCResponse = JSONRPCResultResponse | JSONRPCErrorResponse;

/** The outcome of one message: the response to send (none for a notification) and the HTTP status that goes with it. */
export interface Outcome {
  /** The JSON-RPC response; `undefined` when the message was a notification. */
  response: JSONRPCResponse | undefined;
  /** HTTP status for Streamable HTTP: 200, 202 (notification), 400, 404 or 503 (see the transport). */
  status: number;
}

/** A message that passed the envelope check (stages 5 and 7 of the HTTP order). */
export type Inbound =
  | { kind: "notification"; method: string; params: Record<string, unknown> }
  | { kind: "request"; id: RequestId; method: string; params: Record<string, unknown>; envelope: EnvelopeMeta }
  | { kind: "error"; outcome: Outcome };

type MethodHandler = (
  params: Record<string, unknown>,
  ctx: RequestContext,
  transport: TransportInfo,
) => Promise<Record<string, unknown>> | Record<string, unknown>;

/** The JSON-RPC code used when a server limit is reached (the implementation-defined server error range). */
export const SERVER_BUSY = -32000;

/** The spec's tool name rule (server/tools, "Tool names"). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Answers an inspected request like `McpServer.execute`, but an answer that
 * is ready at once comes back as a value, not a promise (internal: this
 * package's transports use it; set by McpServer's static block). A server
 * whose class overrides `execute` is answered by its `execute`.
 */
export let answerNow: (
  server: McpServer,
  request: Extract<Inbound, { kind: "request" }>,
  transport: TransportInfo,
) => Outcome | Promise<Outcome>;

/**
 * Serves tools built outside this module, all or none, with one
 * notification (internal: the action tools' server uses it; set by
 * McpServer's static block).
 * @throws Error when the name is taken; TypeError when it breaks the spec's rule.
 */
export let mountTool: (server: McpServer, tools: readonly RegisteredTool[]) => void;
/** Removes the `help` tool without notifying (internal: with the last action tool). */
export let unmountHelp: (server: McpServer) => void;

/**
 * The answer when no answer could be produced (internal: a transport's last
 * line of defence; `answerNow` answers every failure itself). HTTP status 500.
 */
export function internalErrorOutcome(id: RequestId): Outcome {
  return errorOutcome(id, ErrorCode.InternalError, "Internal error", undefined, 500);
}

/** Marks "the handler returned" where a round's end is told its fault. */
const NO_FAULT: unique symbol = Symbol("no fault");

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for a result a handler built itself with `resultType: "input_required"` (the explicit form). */
function isInputRequired(value: unknown): value is Record<string, unknown> {
  return isObject(value) && value.resultType === "input_required";
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isInteger(value));
}

function errorOutcome(id: RequestId | undefined, code: number, message: string, data: unknown, status: number): Outcome {
  const error: JSONRPCErrorResponse["error"] = { code, message };
  if (data !== undefined) error.data = data as JSONRPCErrorResponse["error"]["data"];
  const response: JSONRPCErrorResponse = { jsonrpc: "2.0", error };
  if (id !== undefined) response.id = id;
  return { response, status };
}

/** Publishes an error outcome on `x-mcp:request:rejected`; returns the outcome. */
function rejected(outcome: Outcome, method: string | undefined): Outcome {
  const response = outcome.response as JSONRPCErrorResponse | undefined;
  if (response?.error) {
    publishRequestRejected({
      requestId: response.id,
      method,
      code: response.error.code,
      message: response.error.message,
      status: outcome.status,
    });
  }
  return outcome;
}

/** The capabilities of `required` that `declared` lacks (recursively by key), or `undefined` when none is missing. */
export function missingCapabilities(
  required: Record<string, unknown>,
  declared: Record<string, unknown>,
): Record<string, unknown> | undefined {
  let missing: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(required)) {
    const have = declared[key];
    if (!isObject(have)) {
      missing ??= {};
      missing[key] = value;
    } else if (isObject(value)) {
      const inner = missingCapabilities(value, have);
      if (inner) {
        missing ??= {};
        missing[key] = inner;
      }
    }
  }
  return missing;
}

function checkRequiredCapabilities(required: ClientCapabilities | undefined, ctx: RequestContext): void {
  if (!required) return;
  const missing = missingCapabilities(required as Record<string, unknown>, ctx.clientCapabilities as Record<string, unknown>);
  if (missing) {
    throw new McpError(
      ErrorCode.MissingRequiredClientCapability,
      `This request requires client capabilities: ${Object.keys(missing).join(", ")}`,
      {
        requiredCapabilities: required,
      },
    );
  }
}

function keysFrom(option: ServerOptions["requestStateKeys"]): Uint8Array[] {
  if (option) return option.map((k) => (typeof k === "string" ? Buffer.from(k, "base64") : k));
  const env = typeof process !== "undefined" ? process.env.MCP_REQUEST_STATE_KEYS : undefined;
  return env ? KeyRing.fromBase64List(env) : [];
}

/**
 * An MCP server for protocol revision 2026-07-28.
 *
 * Register tools, prompts, resources and resource templates, then serve it
 * with a transport: `createFetchHandler` / `createNodeHandler` / `listen`
 * (Streamable HTTP) or `serveStdio`. The same object serves every request
 * and every transport at once. Registering or removing anything at run time
 * notifies `subscriptions/listen` streams.
 *
 * @example
 * const server = new McpServer({ name: "demo", version: "1.0.0" });
 * server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } },
 *   ({ text }) => String(text));
 */
export class McpServer {
  /** The `Implementation` stamped into every result's `_meta`. */
  readonly info: Implementation;
  /** The key ring that signs cursors and seals `requestState`. */
  readonly keys: KeyRing;
  readonly #options: ServerOptions;
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #prompts = new Map<string, RegisteredPrompt>();
  readonly #resources = new Map<string, RegisteredResource>();
  readonly #templates = new Map<string, RegisteredTemplate>();
  readonly #revisions = new Map<string, Revision>([[revision2607.version, revision2607]]);
  readonly #methods = new Map<string, MethodHandler>();
  readonly #cache;
  readonly #pageSize: number;
  readonly #subscriptions = new Subscriptions();
  #toolDefinitions: RegisteredTool["definition"][] | undefined;
  #closed = false;
  #warnedEphemeral = false;
  readonly #runOptions: RunToolOptions;
  readonly #toolsOfServer = () => this.#toolList();

  /**
   * @throws TypeError when `info.name` or `info.version` is missing, or an option has the wrong type;
   *   RangeError when a cache hint, `pageSize` or a key is invalid.
   */
  constructor(info: ServerInfo, options: ServerOptions = {}) {
    if (typeof info?.name !== "string" || info.name === "") throw new TypeError("server name is required");
    if (typeof info.version !== "string" || info.version === "") throw new TypeError("server version is required");
    const implementation: Implementation = { name: info.name, version: info.version };
    if (info.title !== undefined) implementation.title = info.title;
    if (info.websiteUrl !== undefined) implementation.websiteUrl = info.websiteUrl;
    this.info = implementation;
    this.#options = options;
    this.#runOptions = { timeoutMs: options.toolTimeoutMs };
    this.#cache = resolveCacheOptions(options.cache);
    this.#pageSize = options.pageSize ?? 100;
    if (!Number.isSafeInteger(this.#pageSize) || this.#pageSize < 1)
      throw new RangeError(`pageSize must be an integer >= 1, got ${options.pageSize}`);
    this.keys = new KeyRing(keysFrom(options.requestStateKeys));
    if (options.toolTimeoutMs !== undefined) checkTimeout("toolTimeoutMs", options.toolTimeoutMs);
    const m = this.#methods;
    m.set(Method.ServerDiscover, () => this.#discover());
    m.set(Method.ToolsList, (p) => this.#list("tools/list", "tools", this.#toolList(), p));
    m.set(Method.ToolsCall, (p, ctx) => this.#callTool(p, ctx));
    m.set(Method.PromptsList, (p) =>
      this.#list(
        "prompts/list",
        "prompts",
        [...this.#prompts.values()].map((x) => x.definition),
        p,
      ),
    );
    m.set(Method.PromptsGet, (p, ctx) => this.#getPrompt(p, ctx));
    m.set(Method.ResourcesList, async (p) => this.#list("resources/list", "resources", await this.#resourceList(), p));
    m.set(Method.ResourcesTemplatesList, (p) =>
      this.#list(
        "resources/templates/list",
        "resourceTemplates",
        [...this.#templates.values()].map((x) => x.definition),
        p,
      ),
    );
    m.set(Method.ResourcesRead, (p, ctx) => this.#readResource(p, ctx));
    m.set(Method.CompletionComplete, (p) => this.#complete(p));
    m.set(Method.SubscriptionsListen, (p, ctx, t) => this.#listen(p, ctx, t));
  }

  /**
   * Registers a tool. Its schemas are compiled now, once; the `tools`
   * capability is advertised as soon as one tool is registered, and listeners
   * of `toolsListChanged` are told.
   *
   * @throws TypeError or Error naming the tool when the name is taken, empty
   *   or outside the spec's rule (unless `strictToolNames: false`), a schema
   *   does not compile (including an unresolvable `$ref`), or an
   *   `x-mcp-header` annotation breaks the spec's constraints.
   */
  registerTool<Args = Record<string, unknown>>(name: string, config: ToolConfig, handler: ToolHandler<Args>): this {
    if (name === HELP_TOOL)
      throw new Error(`tool name ${HELP_TOOL} is reserved for the introspection tool the server registers with action tools`);
    if (this.#tools.has(name)) throw new Error(`tool ${name} is already registered`);
    if (this.#options.strictToolNames !== false && typeof name === "string" && !TOOL_NAME_PATTERN.test(name)) {
      throw new TypeError(
        `tool name ${JSON.stringify(name)} breaks the spec's rule: 1 to 128 characters of A-Z, a-z, 0-9, _, - and . (set strictToolNames: false to allow it)`,
      );
    }
    this.#tools.set(name, defineTool(name, config, handler as ToolHandler<any>));
    this.#toolDefinitions = undefined;
    this.#subscriptions.listChanged("tools");
    return this;
  }

  /**
   * Removes a tool; returns false when there was none. Listeners of
   * `toolsListChanged` are told. `help` goes with the last action tool and
   * cannot be removed on its own.
   */
  removeTool(name: string): boolean {
    if (name === HELP_TOOL) return false;
    const removed = this.#tools.delete(name);
    if (removed) {
      this.#toolDefinitions = undefined;
      this.#subscriptions.listChanged("tools");
    }
    return removed;
  }

  /**
   * Registers a prompt (spec: server/prompts).
   * @throws TypeError or Error naming the prompt when the name is taken or empty, or a declaration is malformed.
   */
  registerPrompt(name: string, config: PromptConfig, handler: PromptHandler): this {
    if (this.#prompts.has(name)) throw new Error(`prompt ${name} is already registered`);
    this.#prompts.set(name, definePrompt(name, config, handler));
    this.#subscriptions.listChanged("prompts");
    return this;
  }

  /** Removes a prompt; returns false when there was none. Listeners of `promptsListChanged` are told. */
  removePrompt(name: string): boolean {
    const removed = this.#prompts.delete(name);
    if (removed) this.#subscriptions.listChanged("prompts");
    return removed;
  }

  /**
   * Registers a static resource at `uri` (spec: server/resources).
   * @throws TypeError or Error when the URI is taken or empty; RangeError when `config.cache` is invalid.
   */
  registerResource(name: string, uri: string, config: ResourceConfig, read: ReadHandler): this {
    if (this.#resources.has(uri)) throw new Error(`resource ${uri} is already registered`);
    this.#resources.set(uri, defineResource(name, uri, config, read));
    this.#subscriptions.listChanged("resources");
    return this;
  }

  /** Removes a static resource by URI; returns false when there was none. Listeners of `resourcesListChanged` are told. */
  removeResource(uri: string): boolean {
    const removed = this.#resources.delete(uri);
    if (removed) this.#subscriptions.listChanged("resources");
    return removed;
  }

  /**
   * Registers a resource template (RFC 6570, levels 1 to 4). A read whose URI
   * matches no static resource is tried against the templates in
   * registration order.
   * @throws TypeError or Error when the name is taken or the template does not parse; RangeError when `config.cache` is invalid.
   */
  registerResourceTemplate(name: string, uriTemplate: string, config: ResourceTemplateConfig, read: TemplateReadHandler): this {
    if (this.#templates.has(name)) throw new Error(`resource template ${name} is already registered`);
    this.#templates.set(name, defineTemplate(name, uriTemplate, config, read));
    this.#subscriptions.listChanged("resources");
    return this;
  }

  /** Removes a resource template by name; returns false when there was none. */
  removeResourceTemplate(name: string): boolean {
    const removed = this.#templates.delete(name);
    if (removed) this.#subscriptions.listChanged("resources");
    return removed;
  }

  /**
   * Tells the `subscriptions/listen` streams subscribed to `uri` that the
   * resource changed (`notifications/resources/updated`).
   */
  notifyResourceUpdated(uri: string): void {
    this.#subscriptions.resourceUpdated(uri);
  }

  /** Number of open `subscriptions/listen` streams. */
  get listenStreams(): number {
    return this.#subscriptions.size;
  }

  /**
   * Ends every `subscriptions/listen` stream with its final result and
   * refuses new listens. Requests in flight are the transport's to finish
   * (see `RunningHttpServer.close`). Idempotent.
   */
  close(): void {
    this.#closed = true;
    this.#subscriptions.closeAll();
  }

  /** The capabilities the registrations imply (spec: server/discover). */
  capabilities(): ServerCapabilities {
    const caps: ServerCapabilities = {};
    if (this.#tools.size > 0) caps.tools = { listChanged: true };
    if (this.#prompts.size > 0) caps.prompts = { listChanged: true };
    if (this.#resources.size > 0 || this.#templates.size > 0) caps.resources = { listChanged: true, subscribe: true };
    if (this.#hasCompleters()) caps.completions = {};
    if (this.#options.logging) caps.logging = {};
    return caps;
  }

  /** Protocol versions this server answers, newest first. */
  get supportedVersions(): string[] {
    return [...this.#revisions.keys()];
  }

  /** The registered tool of that name, or `undefined`. Used by transports to validate `Mcp-Param-*` headers. */
  tool(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  /**
   * Checks one decoded JSON message as a JSON-RPC request or notification
   * and reads its `_meta` (the HTTP order's stages 5 and 7).
   * Never throws: a bad message gives `{ kind: "error", outcome }` with a
   * -32600 or -32602 response and HTTP status 400.
   */
  inspect(message: unknown): Inbound {
    const inbound = this.#inspect(message);
    if (inbound.kind === "error")
      rejected(inbound.outcome, isObject(message) && typeof message.method === "string" ? message.method : undefined);
    return inbound;
  }

  #inspect(message: unknown): Inbound {
    if (!isObject(message) || message.jsonrpc !== "2.0" || typeof message.method !== "string") {
      const id = isObject(message) && isRequestId(message.id) ? message.id : undefined;
      return {
        kind: "error",
        outcome: errorOutcome(
          id,
          ErrorCode.InvalidRequest,
          "Invalid request: expected a JSON-RPC 2.0 request or notification",
          undefined,
          400,
        ),
      };
    }
    const params = message.params === undefined ? {} : message.params;
    if (!isObject(params)) {
      const id = isRequestId(message.id) ? message.id : undefined;
      return {
        kind: "error",
        outcome: errorOutcome(id, ErrorCode.InvalidRequest, "Invalid request: params must be an object", undefined, 400),
      };
    }
    if (!("id" in message)) return { kind: "notification", method: message.method, params };
    if (!isRequestId(message.id)) {
      return {
        kind: "error",
        outcome: errorOutcome(undefined, ErrorCode.InvalidRequest, "Invalid request: id must be a string or an integer", undefined, 400),
      };
    }
    try {
      const envelope = revision2607.readEnvelope(params);
      return { kind: "request", id: message.id, method: message.method, params, envelope };
    } catch (error) {
      const e = error as McpError;
      return { kind: "error", outcome: errorOutcome(message.id, e.code, e.message, e.data, 400) };
    }
  }

  /**
   * Answers an inspected request: checks the protocol version (400, -32022),
   * finds the method (404, -32601), runs it and stamps its result.
   * Never throws: a handler's fault becomes -32603 with status 200 (its
   * message is not sent), an `McpError` becomes that error (status from
   * `statusForHandlerError`: 400 for -32020/-32021/-32022, 404 for -32601, else 200).
   * This package's transports answer every request through it: a subclass
   * may override it to gate or observe requests (call `super.execute` to
   * answer); when not overridden, the transports take a synchronous answer
   * without a promise.
   */
  execute(request: Extract<Inbound, { kind: "request" }>, transport: TransportInfo = {}): Promise<Outcome> {
    const outcome = this.#answer(request, transport);
    return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
  }

  /** {@link McpServer.execute}, but an answer ready at once comes back as a value (for this package's transports). */
  #answer(request: Extract<Inbound, { kind: "request" }>, transport: TransportInfo): Outcome | Promise<Outcome> {
    const outcome = this.#execute(request, transport);
    // No extra promise per request unless someone watches x-mcp:request:rejected.
    if (!rejectionsObserved()) return outcome;
    return outcome instanceof Promise ? outcome.then((o) => rejected(o, request.method)) : rejected(outcome, request.method);
  }

  static {
    const ownExecute = McpServer.prototype.execute;
    // A subclass that overrides execute() (an access gate, logging...) is
    // answered through its override, as before this fast path existed.
    answerNow = (server, request, transport) => {
      if (server.execute === ownExecute) return server.#answer(request, transport);
      // An override may throw or reject (an McpError refuses the request with
      // its code), or resolve to something that is no Outcome: every case
      // becomes an answer, as from a handler.
      const refused = (error: unknown) => server.#failed(error, request.id, request.method);
      const checked = (outcome: unknown): Outcome =>
        isObject(outcome) && typeof outcome.status === "number" && (outcome.response === undefined || isObject(outcome.response))
          ? (outcome as unknown as Outcome)
          : refused(
              new TypeError(`execute() of ${server.constructor.name} resolved to ${typeof outcome}, not an Outcome { response, status }`),
            );
      try {
        return Promise.resolve(server.execute(request, transport)).then(checked, refused);
      } catch (error) {
        return refused(error);
      }
    };
    mountTool = (server, tools) => server.#mount(tools);
    unmountHelp = (server) => {
      server.#tools.delete(HELP_TOOL);
      server.#toolDefinitions = undefined;
    };
  }

  /**
   * Serves tools built elsewhere (an action tool, and `help` with the first
   * one), all or none: the name rules of {@link McpServer.registerTool}, then
   * one notification.
   */
  #mount(tools: readonly RegisteredTool[]): void {
    for (const tool of tools) {
      const name = tool.name;
      if (this.#tools.has(name)) throw new Error(`tool ${name} is already registered`);
      if (name !== HELP_TOOL && this.#options.strictToolNames !== false && !TOOL_NAME_PATTERN.test(name)) {
        throw new TypeError(
          `tool name ${JSON.stringify(name)} breaks the spec's rule: 1 to 128 characters of A-Z, a-z, 0-9, _, - and . (set strictToolNames: false to allow it)`,
        );
      }
    }
    for (const tool of tools) this.#tools.set(tool.name, tool);
    this.#toolDefinitions = undefined;
    this.#subscriptions.listChanged("tools");
  }

  #execute(request: Extract<Inbound, { kind: "request" }>, transport: TransportInfo): Outcome | Promise<Outcome> {
    const { id, method, params, envelope } = request;
    const revision = this.#revisions.get(envelope.protocolVersion);
    if (!revision) {
      return errorOutcome(
        id,
        ErrorCode.UnsupportedProtocolVersion,
        `Unsupported protocol version: ${envelope.protocolVersion}`,
        { supported: this.supportedVersions, requested: envelope.protocolVersion },
        400,
      );
    }
    const handler = this.#methods.get(method);
    if (!handler || !this.#methodEnabled(method)) {
      return errorOutcome(
        id,
        ErrorCode.MethodNotFound,
        `Method not found: ${method}`,
        { method },
        statusForEnvelopeError(ErrorCode.MethodNotFound),
      );
    }
    const state: ContextState = {};
    const ctx = createContext({
      requestId: id,
      method,
      meta: envelope.meta,
      protocolVersion: envelope.protocolVersion,
      clientCapabilities: envelope.clientCapabilities,
      clientInfo: envelope.clientInfo,
      transport,
      loggingEnabled: this.#options.logging === true,
      tools: this.#toolsOfServer,
      state,
    });
    // A handler that answers synchronously (most tools) is answered
    // synchronously: no promise, no microtask between request and response.
    let running: unknown;
    try {
      running = ASKING_METHODS.has(method) ? this.#runRound(params, ctx, state, handler, transport) : handler(params, ctx, transport);
    } catch (error) {
      return this.#failed(error, id, method);
    }
    if (running instanceof Promise) {
      return running.then(
        (result) => this.#answered(result, id, method, revision),
        (error) => this.#failed(error, id, method),
      );
    }
    return this.#answered(running, id, method, revision);
  }

  /** The response carrying a handler's result, stamped for its revision (a result that cannot be stamped is a fault). */
  #answered(result: unknown, id: RequestId, method: string, revision: Revision): Outcome {
    try {
      const response: JSONRPCResultResponse = {
        jsonrpc: "2.0",
        id,
        result: revision.stamp(result as Record<string, unknown>, this.info) as JSONRPCResultResponse["result"],
      };
      return { response, status: 200 };
    } catch (error) {
      return this.#failed(error, id, method);
    }
  }

  /**
   * The response to a handler that threw: only deliberate protocol errors
   * (codes -32768..-32000, e.g. McpError) go out as they are; anything else
   * is an internal error whose text stays here (reported to `onError`).
   */
  #failed(error: unknown, id: RequestId, method: string): Outcome {
    if (isProtocolError(error)) return errorOutcome(id, error.code, error.message, error.data, statusForHandlerError(error.code));
    this.#reportError(error, method, id);
    return errorOutcome(id, ErrorCode.InternalError, "Internal error", undefined, 200);
  }

  /**
   * Answers one decoded JSON message with no transport checks beyond the
   * envelope (what stdio and in-memory transports use).
   * Never throws; resolves to `{ response: undefined, status: 202 }` for a notification.
   */
  async handle(message: unknown, transport: TransportInfo = {}): Promise<Outcome> {
    const inbound = this.inspect(message);
    if (inbound.kind === "error") return inbound.outcome;
    if (inbound.kind === "notification") return { response: undefined, status: 202 };
    return this.execute(inbound, transport);
  }

  #reportError(error: unknown, method: string, requestId: RequestId): void {
    try {
      if (this.#options.onError) this.#options.onError(error, { method, requestId });
      else
        process.stderr.write(
          `x-mcp: ${method} (id ${JSON.stringify(requestId)}) failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
    } catch {
      // A failing reporter must not change the answer.
    }
  }

  /**
   * Runs an asking handler as one round of a Multi Round-Trip Request: reads
   * the answers (sealed `requestState`, then `inputResponses` over it), runs the
   * handler, and answers `input_required` when an ask found no answer.
   */
  #runRound(
    params: Record<string, unknown>,
    ctx: RequestContext,
    state: ContextState,
    handler: MethodHandler,
    transport: TransportInfo,
  ): Record<string, unknown> | Promise<Record<string, unknown>> {
    const responses = readInputResponses(params.inputResponses);
    let answers: Readonly<Record<string, unknown>> = responses;
    if (params.requestState !== undefined)
      answers = { ...openState(this.keys, params.requestState, this.#binding(params, ctx)), ...responses };
    const round = new Round(answers);
    state.round = round;
    let running: unknown;
    try {
      running = handler(params, ctx, transport);
    } catch (error) {
      round.finished = true;
      return this.#endRound(round, params, ctx, undefined, error);
    }
    if (!(running instanceof Promise)) {
      round.finished = true;
      return this.#endRound(round, params, ctx, running, NO_FAULT);
    }
    return running.then(
      (result) => {
        round.finished = true;
        return this.#endRound(round, params, ctx, result, NO_FAULT);
      },
      (error) => {
        round.finished = true;
        return this.#endRound(round, params, ctx, undefined, error);
      },
    );
  }

  /** What `requestState` is bound to: the method, its params and the caller (`ServerOptions.principal`). */
  #binding(params: Record<string, unknown>, ctx: RequestContext): StateBinding {
    return { method: ctx.method, params, principal: this.#options.principal?.(ctx) };
  }

  /**
   * The end of a round's run: `input_required` when an ask found no answer
   * (even when the handler swallowed the signal), else the handler's result,
   * else its fault (`fault` is {@link NO_FAULT} when it returned), rethrown.
   */
  #endRound(round: Round, params: Record<string, unknown>, ctx: RequestContext, result: unknown, fault: unknown): Record<string, unknown> {
    if (round.ended) {
      if (this.keys.ephemeral && !this.#warnedEphemeral) {
        this.#warnedEphemeral = true;
        process.emitWarning(
          "requestState is sealed with a random per-process key: several server instances need a shared key (requestStateKeys or MCP_REQUEST_STATE_KEYS)",
          { code: "X_MCP_EPHEMERAL_STATE_KEY" },
        );
      }
      return {
        resultType: "input_required",
        inputRequests: round.pending,
        requestState: sealState(this.keys, round.used, this.#binding(params, ctx), this.#options.requestStateTtlMs ?? 600_000),
      };
    }
    if (fault !== NO_FAULT && !(fault instanceof InputRequiredSignal)) throw fault;
    return result as Record<string, unknown>;
  }

  /** True when some prompt or template declares a completer (`complete`): then `completions` is advertised. */
  #hasCompleters(): boolean {
    for (const p of this.#prompts.values()) if (p.config.complete && Object.keys(p.config.complete).length > 0) return true;
    for (const t of this.#templates.values()) if (t.config.complete && Object.keys(t.config.complete).length > 0) return true;
    return false;
  }

  #methodEnabled(method: string): boolean {
    switch (method) {
      case Method.ToolsList:
      case Method.ToolsCall:
        return this.#tools.size > 0;
      case Method.PromptsList:
      case Method.PromptsGet:
        return this.#prompts.size > 0;
      case Method.ResourcesList:
      case Method.ResourcesTemplatesList:
      case Method.ResourcesRead:
        return this.#resources.size > 0 || this.#templates.size > 0;
      case Method.CompletionComplete:
        return this.#hasCompleters();
      default:
        return true;
    }
  }

  #hints(method: CacheableMethod) {
    return this.#cache.get(method)!;
  }

  #discover(): Record<string, unknown> {
    const options: Parameters<typeof discoverResult>[0] = {
      name: this.info.name,
      version: this.info.version,
      capabilities: this.capabilities(),
      supportedVersions: this.supportedVersions,
    };
    if (this.info.title !== undefined) options.title = this.info.title;
    if (this.#options.instructions !== undefined) options.instructions = this.#options.instructions;
    const result = discoverResult(options) as unknown as Record<string, unknown>;
    // discoverResult names the server from name/version/title; keep every Implementation field.
    const meta = copyOwn(result._meta as object);
    meta[META_SERVER_INFO] = this.info;
    result._meta = meta;
    // The server's configured hints for server/discover apply, not the builder's defaults.
    result.ttlMs = undefined;
    result.cacheScope = undefined;
    return applyHints(result, this.#hints("server/discover"));
  }

  #toolList() {
    this.#toolDefinitions ??= [...this.#tools.values()].map((t) => t.definition);
    return this.#toolDefinitions;
  }

  async #resourceList() {
    const list: unknown[] = [...this.#resources.values()].map((r) => r.definition);
    for (const template of this.#templates.values()) {
      if (template.config.list) list.push(...(await template.config.list()));
    }
    return list;
  }

  #list(method: CacheableMethod, key: string, items: readonly unknown[], params: Record<string, unknown>): Record<string, unknown> {
    const slice = page(this.keys, method, items, params.cursor, this.#pageSize);
    const result: Record<string, unknown> = { resultType: "complete", [key]: slice.items };
    if (slice.nextCursor !== undefined) result.nextCursor = slice.nextCursor;
    return applyHints(result, this.#hints(method));
  }

  #callTool(params: Record<string, unknown>, ctx: RequestContext): Record<string, unknown> | Promise<Record<string, unknown>> {
    const name = params.name;
    if (typeof name !== "string") throw new McpError(ErrorCode.InvalidParams, "Invalid params: name must be a string");
    const args = params.arguments === undefined ? {} : params.arguments;
    if (!isObject(args)) throw new McpError(ErrorCode.InvalidParams, "Invalid params: arguments must be an object");
    const tool = this.#tools.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { name });
    checkRequiredCapabilities(tool.requiredClientCapabilities, ctx);
    return runTool(tool, args, ctx, this.#runOptions) as unknown as Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  async #getPrompt(params: Record<string, unknown>, ctx: RequestContext): Promise<Record<string, unknown>> {
    const name = params.name;
    if (typeof name !== "string") throw new McpError(ErrorCode.InvalidParams, "Invalid params: name must be a string");
    const prompt = this.#prompts.get(name);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`, { name });
    const args = checkPromptArguments(prompt, params.arguments);
    checkRequiredCapabilities(prompt.config.requiredClientCapabilities, ctx);
    const value = await prompt.handler(args, ctx);
    if (isInputRequired(value)) return value;
    return toGetPromptResult(value, prompt.config.description) as unknown as Record<string, unknown>;
  }

  async #readResource(params: Record<string, unknown>, ctx: RequestContext): Promise<Record<string, unknown>> {
    const uri = params.uri;
    if (typeof uri !== "string") throw new McpError(ErrorCode.InvalidParams, "Invalid params: uri must be a string");
    const resource = this.#resources.get(uri);
    if (resource) {
      checkRequiredCapabilities(resource.config.requiredClientCapabilities, ctx);
      const value = await resource.read(uri, ctx);
      if (isInputRequired(value)) return value;
      const result = toReadResult(value, uri, resource.config.mimeType);
      return applyHints(result as unknown as Record<string, unknown>, resource.cache ?? this.#hints("resources/read"));
    }
    for (const template of this.#templates.values()) {
      const variables = template.match(uri);
      if (!variables) continue;
      checkRequiredCapabilities(template.config.requiredClientCapabilities, ctx);
      const value = await template.read(uri, variables, ctx);
      if (isInputRequired(value)) return value;
      const result = toReadResult(value, uri, template.config.mimeType);
      return applyHints(result as unknown as Record<string, unknown>, template.cache ?? this.#hints("resources/read"));
    }
    throw new McpError(ErrorCode.InvalidParams, "Resource not found", { uri });
  }

  async #complete(params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const ref = params.ref;
    const argument = params.argument;
    if (!isObject(ref) || !isObject(argument) || typeof argument.name !== "string" || typeof argument.value !== "string") {
      throw new McpError(ErrorCode.InvalidParams, "Invalid params: ref and argument {name, value} are required");
    }
    const context =
      isObject(params.context) && isObject(params.context.arguments) ? (params.context.arguments as Record<string, string>) : {};
    let completers: Record<string, Completer> | undefined;
    if (ref.type === "ref/prompt") {
      const prompt = typeof ref.name === "string" ? this.#prompts.get(ref.name) : undefined;
      if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${String(ref.name)}`, { name: ref.name });
      if (!(prompt.config.arguments ?? []).some((a) => a.name === argument.name)) {
        throw new McpError(ErrorCode.InvalidParams, `Prompt ${prompt.name} has no argument ${argument.name}`, { argument: argument.name });
      }
      completers = prompt.config.complete;
    } else if (ref.type === "ref/resource") {
      const template = [...this.#templates.values()].find((t) => t.uriTemplate === ref.uri);
      if (!template) throw new McpError(ErrorCode.InvalidParams, `Unknown resource template: ${String(ref.uri)}`, { uri: ref.uri });
      completers = template.config.complete;
    } else {
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: unknown ref type ${String(ref.type)}`);
    }
    const completion = await complete(completers?.[argument.name], argument.value, context);
    return { resultType: "complete", completion };
  }

  #listen(params: Record<string, unknown>, ctx: RequestContext, transport: TransportInfo): Promise<Record<string, unknown>> {
    const filter = params.notifications;
    if (!isObject(filter)) throw new McpError(ErrorCode.InvalidParams, "Invalid params: notifications (a subscription filter) is required");
    if (!transport.notify)
      throw new McpError(ErrorCode.InternalError, "subscriptions/listen needs a transport that can stream notifications");
    if (this.#closed) throw new McpError(SERVER_BUSY, "Server is closing: no new subscriptions");
    const limit = this.#options.maxListenStreams ?? 1000;
    if (this.#subscriptions.size >= limit)
      throw new McpError(SERVER_BUSY, `Too many open subscriptions/listen streams (limit ${limit})`, { limit });
    const caps = this.capabilities();
    const granted: SubscriptionFilter = {};
    const want = (key: keyof SubscriptionFilter) => filter[key] === true;
    if (want("toolsListChanged") && caps.tools) granted.toolsListChanged = true;
    if (want("promptsListChanged") && caps.prompts) granted.promptsListChanged = true;
    if (want("resourcesListChanged") && caps.resources) granted.resourcesListChanged = true;
    if (Array.isArray(filter.resourceSubscriptions) && caps.resources) {
      granted.resourceSubscriptions = filter.resourceSubscriptions.filter((u): u is string => typeof u === "string");
    }
    const notify = transport.notify;
    return new Promise((resolve, reject) => {
      let unsubscribe: (() => void) | undefined;
      const finish = () => {
        unsubscribe?.();
        ctx.signal.removeEventListener("abort", finish);
        resolve({ resultType: "complete", _meta: { [META_SUBSCRIPTION_ID]: ctx.requestId } });
      };
      unsubscribe = this.#subscriptions.open(ctx.requestId, granted, notify, finish);
      if (!unsubscribe) {
        reject(new McpError(ErrorCode.InvalidRequest, "subscriptions/listen needs a streaming response: send Accept: text/event-stream"));
        return;
      }
      ctx.signal.addEventListener("abort", finish, { once: true });
    });
  }
}
