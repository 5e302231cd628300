/**
 * The server object (spec 2026-07-28, basic/index): the registry of its
 * features and their dispatch table. The features live in `features/`
 * (tools, prompts, resources, completion, subscriptions, discover), the
 * dispatcher in `dispatch.ts`, Multi Round-Trip Requests in `mrtr/`, and the
 * transports in `transports/`; beside it, its constructor's checks
 * (`server-checks.ts`), its bus (`server-notifications.ts`) and answers
 * through an `execute` override (`server-execute.ts`).
 *
 * One `McpServer` is built once and serves every request: a request is a
 * function of (message, per-request transport info) to a response, and no
 * server, protocol or transport object is created per request.
 */
import type { ServerParts } from "./server-parts.js";
import type { Implementation, ServerCapabilities } from "@x/mcp-v2607";
import { resolveCacheOptions } from "./cache.js";
import type { RequestContext, TransportInfo } from "./context.js";
import { Dispatcher, type Inbound, type InboundRequest, type Outcome, rejected } from "./dispatch.js";
import type { StatusOf } from "./transports/messages.js";
import { answersObserved, observeAnswer, publishInbound, type TrafficTransport, trafficObserved } from "./traffic.js";
import { type ClassifiedResponse, isResponseShaped, type NoUnknownKeys } from "@x/jsonrpc";
import { CompletionFeature } from "./features/completion.js";
import { DiscoverFeature } from "./features/discover.js";
import type { Feature, MethodEntry, ServerHost } from "./features/feature.js";
import { type PromptArguments, type PromptConfig, type PromptHandler, PromptsFeature } from "./features/prompts.js";
import {
  type ReadHandler,
  type ResourceConfig,
  ResourcesFeature,
  type ResourceTemplateConfig,
  type TemplateReadHandler,
} from "./features/resources.js";
import { ListenFeature, Subscriptions } from "./features/subscriptions.js";
import {
  checkTimeout,
  type ToolArguments,
  type ToolConfig,
  type ToolConfigCheck,
  type ToolHandler,
  type ToolHandlerResult,
  type ToolResultOf,
} from "./features/tools/define.js";
import { ToolsFeature } from "./features/tools/index.js";
import { KeyRing } from "./keys.js";
import { keysFrom, servedVersions, tasksPluginOf } from "./server-checks.js";
import { answerByOverride } from "./server-execute.js";
import { ServerNotifications } from "./server-notifications.js";
import { revision2607 } from "./revisions/2026-07-28/index.js";
import type { PluggedRevision, RevisionPlugin } from "./revisions/plugin.js";
import type { Binding } from "./revisions/revision.js";
import { isObject } from "./objects.js";
import { checkServerOptionNames, type ServerInfo, type ServerOptions, serverImplementation } from "./options.js";
import { errorCodeOf, publishMessageIgnored } from "./telemetry.js";
import { tokenPrincipal } from "./authorization.js";
import { BusTopic, MemoryEventBus } from "./bus.js";
import type { TaskStore } from "./task-store.js";

/** The internals of `server` (internal: this package's transports and plug-ins use it). */
export let partsOf: (server: McpServer) => ServerParts;

/**
 * {@link McpServer.inspect} for this package's transports: a refusal is
 * published with `status`, the transport's HTTP status of an outcome
 * (Streamable HTTP), or none (stdio).
 */
export let inspectWith: (
  server: McpServer,
  message: unknown,
  binding: Binding | undefined,
  status: ((outcome: Outcome) => number) | undefined,
) => Inbound;

/**
 * Answers an inspected request like {@link McpServer.execute}, but an answer
 * that is ready at once comes back as a value, not a promise (internal: this
 * package's transports use it). A server whose class overrides `execute` is
 * answered by its `execute`.
 */
export let answerNow: (server: McpServer, request: InboundRequest, transport: TransportInfo) => Outcome | Promise<Outcome>;

/**
 * An MCP server for protocol revision 2026-07-28 (the one of
 * `@x/server/v2607`; the `McpServer` of `@x/server` extends it with the
 * versions of the `initialize` handshake).
 *
 * Register tools, prompts, resources and resource templates, then serve it
 * with a transport: `createFetchHandler` / `createNodeHandler` / `listen`
 * (Streamable HTTP) or `serveStdio`. The same object serves every request
 * and every transport at once. Registering or removing anything at run time
 * notifies `subscriptions/listen` streams. Action tools plug in from
 * `@x/server/actions` (`registerActionTool(server, tool)`), tasks from
 * `@x/server/tasks` (`tasks: tasks()` in the options).
 *
 * @example
 * const server = new McpServer({ name: "demo", version: "1.0.0" });
 * server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } },
 *   ({ text }) => String(text));
 */
export class McpServer {
  /** The `Implementation` stamped into every result's `_meta` (frozen: the {@link ServerInfo} as given). */
  readonly info: Implementation;
  /** The key ring that signs cursors and seals `requestState`. */
  readonly keys: KeyRing;
  readonly #logging: boolean;
  readonly #subscriptions = new Subscriptions();
  readonly #tools: ToolsFeature;
  readonly #prompts: PromptsFeature;
  readonly #resources: ResourcesFeature;
  readonly #listen: ListenFeature;
  readonly #features: readonly Feature[];
  readonly #dispatcher: Dispatcher;
  readonly #plugged: readonly PluggedRevision[];
  readonly #notifications: ServerNotifications;
  readonly #owner: (ctx: RequestContext) => string;
  /** What plug-ins add to the capabilities of `server/discover`. */
  readonly #discover: ((caps: ServerCapabilities) => void)[] = [];
  /** What plug-ins end when the server closes. */
  readonly #closers: (() => void)[] = [];
  /** The tasks plug-in's store; `undefined` without the plug-in. */
  readonly #taskStore: TaskStore | undefined;
  readonly #pageSize: number;

  /**
   * @throws TypeError when `info.name` or `info.version` is missing, an option is not one of {@link ServerOptions} (named, with the nearest option), `info.title`, `info.description` or `info.websiteUrl` is not a string, or an option has the wrong type
   *   (the removed `bigIntegers` included: a tool opts in with its own; `tasks` takes the plug-in of `@x/server/tasks`);
   *   RangeError when a cache hint, `pageSize`, `toolTimeoutMs` or a key is invalid, when
   *   `protocolVersions` names a version this class does not serve (or leaves out 2026-07-28), and
   *   when an option of a revision it serves is invalid (`clientRequestTimeoutMs` with the `initialize` era).
   */
  constructor(info: ServerInfo, options: ServerOptions = {}) {
    // Frozen (every 2026-07-28 answer carries it, and its JSON text is written once and kept).
    const implementation = serverImplementation(info);
    checkServerOptionNames(options);
    this.info = implementation;
    this.#logging = options.logging === true;
    const cache = resolveCacheOptions(options.cache);
    const pageSize = options.pageSize ?? 100;
    if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new RangeError(`pageSize must be an integer >= 1, got ${options.pageSize}`);
    this.#pageSize = pageSize;
    this.keys = new KeyRing(keysFrom(options.requestStateKeys));
    if (options.toolTimeoutMs !== undefined) checkTimeout("toolTimeoutMs", options.toolTimeoutMs);
    // Refused rather than ignored: a server that relied on it would get doubles silently.
    if (options.bigIntegers !== undefined) {
      throw new TypeError(
        'ServerOptions.bigIntegers was removed: a tool opts in with its own bigIntegers ("bigint" or "string") in registerTool\'s config; every other handler receives an integer beyond 2^53 as the double JSON.parse gives',
      );
    }
    const host: ServerHost = {
      info: implementation,
      keys: this.keys,
      pageSize,
      hints: (method) => cache.get(method)!,
      listChanged: (kind) => this.#notifications.emit(BusTopic.ListChanged, { kind }),
      capabilities: () => this.capabilities(),
    };
    this.#tools = new ToolsFeature(host, options);
    this.#prompts = new PromptsFeature(host);
    this.#resources = new ResourcesFeature(host);
    const principal = options.principal ?? tokenPrincipal;
    this.#owner = (ctx: RequestContext) => principal(ctx) ?? "";
    this.#listen = new ListenFeature(host, this.#subscriptions, options.maxListenStreams ?? 1000);
    this.#notifications = new ServerNotifications(
      options.eventBus ?? new MemoryEventBus(),
      this.#subscriptions,
      this.#listen,
      options.onError,
    );
    // The order of the features is the order of their capabilities in server/discover.
    this.#features = [
      new DiscoverFeature(host, () => this.supportedVersions, options.instructions),
      this.#tools,
      this.#prompts,
      this.#resources,
      new CompletionFeature(this.#prompts, this.#resources),
      this.#listen,
    ];
    const table = new Map<string, MethodEntry>();
    for (const feature of this.#features) {
      for (const [method, entry] of Object.entries(feature.methods)) if (entry !== undefined) table.set(method, entry);
    }
    const plugins = (new.target as typeof McpServer).revisionPlugins();
    const versions = servedVersions(options.protocolVersions, plugins);
    const tools = this.#tools;
    this.#dispatcher = new Dispatcher(
      table,
      {
        info: implementation,
        keys: this.keys,
        principal: options.principal ?? tokenPrincipal,
        ttlMs: options.requestStateTtlMs ?? 600_000,
        loggingEnabled: this.#logging,
        validator: options.validator,
        tools: () => tools.list(),
        onError: options.onError,
      },
      [revision2607, ...plugins.map((plugin) => plugin.revision)],
    );
    const dispatcher = this.#dispatcher;
    this.#plugged = plugins.map((plugin) =>
      plugin.install({
        info: implementation,
        options,
        versions,
        capabilities: () => this.capabilities(),
        contribute: (methods) => dispatcher.contribute(plugin.revision, methods),
      }),
    );
    this.#notifications.plugged = this.#plugged;
    if (options.tasks !== undefined) this.#taskStore = tasksPluginOf(options.tasks).install(this);
  }

  /**
   * The revision plug-ins a server of this class serves beside 2026-07-28
   * (the `initialize` era for the `McpServer` of `@x/server`; none here).
   * @internal
   */
  protected static revisionPlugins(): readonly RevisionPlugin[] {
    return [];
  }

  /**
   * Registers a tool. Its schemas are compiled now, once; the `tools`
   * capability is advertised as soon as one tool is registered, and listeners
   * of `toolsListChanged` are told.
   *
   * Typing: without a type argument the handler's arguments are the type of a
   * literal `inputSchema` (written inline or `as const`; `JsonObject` when
   * the schema is not a literal), and with a literal `outputSchema` the
   * handler must return `structuredContent` of that schema's type (or an
   * error result). An explicit `registerTool<Args>` types the arguments as
   * `Args` instead, trusting the caller, and leaves the result untyped.
   *
   * Either schema may be a Standard Schema (zod 4.2+, arktype, or valibot
   * wrapped with `toStandardJsonSchema` of `@valibot/to-json-schema`): the
   * tool publishes the library's own JSON Schema conversion, its library
   * checks the values, the handler's arguments are typed as the schema's
   * output (and receive it: defaults filled, transforms applied), and
   * `structuredContent` as the output schema's input.
   *
   * Numbers: what `JSON.parse` gives, unless the config opts in with
   * `bigIntegers` (see {@link ToolConfig.bigIntegers}). A config member that is
   * not an option (`inputschema`, tmcp's `schema`) does not compile, and throws.
   *
   * The published definition is a deep-frozen copy of what is given (unless
   * it holds more than plain JSON data: a class instance, getter or
   * `toJSON`), so later changes to the given objects do not reach
   * `tools/list`, whose pages are made once per set of tools.
   *
   * @throws TypeError or Error naming the tool when the name is taken, empty,
   *   reserved (`help`, once action tools are registered) or outside the spec's
   *   rule (unless `strictToolNames: false`), a schema does not compile
   *   (including an unresolvable `$ref`), a Standard Schema has no JSON Schema
   *   conversion or its conversion fails, the input schema's root is not
   *   `type: "object"`, an `x-mcp-header` annotation breaks the spec's
   *   constraints, or `taskSupport` allows tasks on a server built without the
   *   tasks plug-in (`tasks()` of `@x/server/tasks`).
   */
  registerTool<const Config extends ToolConfig & { outputSchema: object }, const Result extends ToolResultOf<Config>>(
    name: string,
    config: Config & ToolConfigCheck<Config>,
    handler: ToolHandler<ToolArguments<Config>, Result>,
  ): this;
  registerTool<Args = never, const Config extends ToolConfig = ToolConfig>(
    name: string,
    config: Config & ToolConfigCheck<Config>,
    handler: ToolHandler<
      [Args] extends [never] ? ToolArguments<Config> : NoInfer<Args>,
      [Args] extends [never] ? ToolResultOf<Config> : ToolHandlerResult
    >,
  ): this;
  registerTool(name: string, config: ToolConfig, handler: ToolHandler<any, any>): this {
    this.#tools.register(name, config, handler as ToolHandler<any>);
    return this;
  }

  /**
   * Removes a tool; returns false when there was none. Listeners of
   * `toolsListChanged` are told. `help` goes with the last action tool and
   * cannot be removed on its own.
   */
  removeTool(name: string): boolean {
    if (this.#tools.isReserved(name)) return false;
    return this.#tools.remove(name);
  }

  /**
   * Registers a prompt (spec: server/prompts); arguments typed from a literal list or a Standard Schema (`PromptConfig.arguments`).
   * @throws TypeError or Error naming the prompt: name taken or empty, a member that is no option (`argsSchema`), a malformed declaration.
   */
  registerPrompt<const C extends PromptConfig>(
    name: string,
    config: C & NoUnknownKeys<C, PromptConfig>,
    handler: PromptHandler<PromptArguments<C>>,
  ): this {
    this.#prompts.register(name, config, handler as PromptHandler);
    return this;
  }

  /** Removes a prompt; returns false when there was none. Listeners of `promptsListChanged` are told. */
  removePrompt(name: string): boolean {
    return this.#prompts.remove(name);
  }

  /**
   * Registers a static resource at `uri` (spec: server/resources).
   * @throws TypeError or Error when the URI is taken or empty or a config member is not an option; RangeError when `config.cache` is invalid.
   */
  registerResource(name: string, uri: string, config: ResourceConfig, read: ReadHandler): this {
    this.#resources.register(name, uri, config, read);
    return this;
  }

  /** Removes a static resource by URI; returns false when there was none. Listeners of `resourcesListChanged` are told. */
  removeResource(uri: string): boolean {
    return this.#resources.remove(uri);
  }

  /**
   * Registers a resource template (RFC 6570, levels 1 to 4). A read whose URI
   * matches no static resource is tried against the templates in registration order.
   * @throws TypeError or Error when the name is taken, the template does not parse or a config member is not an option; RangeError when `config.cache` is invalid.
   */
  registerResourceTemplate(name: string, uriTemplate: string, config: ResourceTemplateConfig, read: TemplateReadHandler): this {
    this.#resources.registerTemplate(name, uriTemplate, config, read);
    return this;
  }

  /** Removes a resource template by name; returns false when there was none. */
  removeResourceTemplate(name: string): boolean {
    return this.#resources.removeTemplate(name);
  }

  /**
   * Tells the `subscriptions/listen` streams subscribed to `uri` that the
   * resource changed (`notifications/resources/updated`).
   */
  notifyResourceUpdated(uri: string): void {
    this.#notifications.emit(BusTopic.ResourceUpdated, { uri });
  }

  /**
   * The store this server keeps its tasks in (`tasks({ store })`, else the
   * plug-in's own in-memory one); `undefined` on a server without the tasks plug-in.
   */
  get taskStore(): TaskStore | undefined {
    return this.#taskStore;
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
    this.#listen.closed = true;
    this.#subscriptions.closeAll();
    for (const close of this.#closers) close();
    this.#notifications.close();
    for (const plugged of this.#plugged) plugged.close();
  }

  /** The capabilities the registrations imply (spec: server/discover). */
  capabilities(): ServerCapabilities {
    const caps: ServerCapabilities = {};
    for (const feature of this.#features) feature.capabilities(caps);
    for (const add of this.#discover) add(caps);
    if (this.#logging) caps.logging = {};
    return caps;
  }

  /** Protocol versions this server answers, newest first. */
  get supportedVersions(): string[] {
    return this.#dispatcher.versions;
  }

  /**
   * Checks one decoded JSON message as a JSON-RPC request or notification
   * and reads its `_meta` (the HTTP order's stages 6 and 8). With `binding`
   * (an `initialize`-era session, internal), the envelope is the session's,
   * and a JSON-RPC response is the transport's to settle (a response no
   * request of the session awaits is then published as unsolicited there).
   * Never throws: a bad message gives `{ kind: "error", outcome }` with a
   * -32600 or -32602 response decided at stage `"message"` (HTTP 400). A
   * JSON-RPC response gives `{ kind: "response" }`, a malformed one `{ kind:
   * "invalid-response" }`, both to be dropped unanswered (published on
   * `x-mcp:message:ignored`; over Streamable HTTP the malformed one is refused with 400).
   */
  inspect(message: unknown, binding?: Binding): Inbound {
    return this.#inspect(message, binding, undefined, "direct");
  }

  /** {@link McpServer.inspect}, a refusal published with the status the transport answers it with (`status`; none for `inspect`). */
  #inspect(message: unknown, binding: Binding | undefined, status: StatusOf, via: TrafficTransport): Inbound {
    this.#notifications.serving = true;
    if (Array.isArray(message) && message.length > 0 && message.every(isResponseShaped))
      return this.#inspectBatch(message, binding, status, via);
    const inbound = this.#dispatcher.inspect(message, binding);
    if (inbound.kind !== "request" && trafficObserved()) publishInbound(inbound, message, binding, via);
    if (inbound.kind === "error") {
      rejected(inbound.outcome, isObject(message) && typeof message.method === "string" ? message.method : undefined, status);
    } else if (inbound.kind === "invalid-response") {
      // Malformed: no session could use it either.
      publishMessageIgnored({ reason: "invalid-response", requestId: inbound.id, code: errorCodeOf(message) });
    } else if (inbound.kind === "response" && !binding) {
      publishMessageIgnored({ reason: "unsolicited-response", requestId: inbound.id, code: errorCodeOf(inbound) });
    }
    return inbound;
  }

  /**
   * A batch (JSON-RPC 2.0 section 6) whose members are all shaped as
   * responses: `"responses"` when each is well formed, else the first
   * `"invalid-response"` for the whole batch. Either way nothing is answered;
   * each member is reported as one message would be. Any other batch is
   * refused by the dispatcher (-32600).
   */
  #inspectBatch(batch: unknown[], binding: Binding | undefined, status: StatusOf, via: TrafficTransport): Inbound {
    const responses: ClassifiedResponse[] = [];
    let invalid: Inbound | undefined;
    for (const member of batch) {
      const inbound = this.#inspect(member, binding, status, via);
      if (inbound.kind === "response") responses.push(inbound);
      else invalid ??= inbound;
    }
    return invalid ?? { kind: "responses", responses };
  }

  /**
   * Answers an inspected request: checks the protocol version (-32022),
   * finds the method (-32601), runs it and stamps its result.
   * Never throws: a handler's fault becomes -32603 (its message is not
   * sent), an `McpError` becomes that error. This package's transports
   * answer every request through it: a subclass may override it to gate or
   * observe requests (call `super.execute` to answer, or resolve an
   * {@link Outcome} of its own, which may ask the HTTP transport for a
   * `status`); when not overridden, the transports take a synchronous answer
   * without a promise.
   */
  execute(request: InboundRequest, transport: TransportInfo = {}): Promise<Outcome> {
    const outcome = this.#answer(request, transport);
    return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
  }

  /**
   * Answers one decoded JSON message with no transport checks beyond the
   * envelope (what stdio and in-memory transports use).
   * Never throws; resolves to `{ response: undefined }` for a notification
   * or a JSON-RPC response (which is not answered).
   */
  async handle(message: unknown, transport: TransportInfo = {}): Promise<Outcome> {
    const inbound = this.inspect(message);
    if (inbound.kind === "error") return inbound.outcome;
    if (inbound.kind !== "request") return { response: undefined, stage: "message" };
    return this.execute(inbound, transport);
  }

  /** {@link McpServer.execute}, but an answer ready at once comes back as a value. */
  #answer(request: InboundRequest, transport: TransportInfo): Outcome | Promise<Outcome> {
    // No extra promise per request unless someone watches x-mcp:traffic or x-mcp:request:rejected.
    if (!answersObserved()) return this.#dispatcher.answer(request, transport);
    return observeAnswer(request, transport, () => this.#dispatcher.answer(request, transport));
  }

  static {
    const ownExecute = McpServer.prototype.execute;
    partsOf = (server) => ({
      dispatcher: server.#dispatcher,
      tools: server.#tools,
      listen: server.#listen,
      plugged: server.#plugged,
      requiredScopes: (request) => server.#dispatcher.requiredScopes(request),
      pageSize: server.#pageSize,
      bus: server.#notifications.bus,
      owner: server.#owner,
      follow: (topic, listener) => server.#notifications.on(topic, listener),
      onClose: (close) => server.#closers.push(close),
      report: (error, what) => server.#notifications.report(error, what),
      discover: (add) => server.#discover.push(add),
    });
    inspectWith = (server, message, binding, status) => server.#inspect(message, binding, status, status ? "http" : "stdio");
    // A subclass that overrides execute() (an access gate, logging...) is
    // answered through its override.
    answerNow = (server, request, transport) => {
      if (server.execute === ownExecute) return server.#answer(request, transport);
      return answerByOverride(
        () => server.execute(request, transport),
        (error) => server.#dispatcher.failed(error, request.id, request.method),
        server,
      );
    };
  }
}
