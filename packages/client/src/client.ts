/**
 * The MCP client: one class with the whole API, composing the parts that
 * do the work. The features (`features/`: tools, resources, prompts,
 * completion, tasks, answering the server, the cache) read and check what
 * each method needs; the revision (`revisions/`: 2026-07-28, or the
 * `initialize` era), settled on `connect`, decides how requests are framed,
 * recovered, resolved and how the session (if any) is held; `channel.ts`
 * sends them. `Client` names no era: it asks the revision.
 */
import type {
  CallToolResult,
  ClientCapabilities,
  ClientRequestMethod,
  CompleteResult,
  DiscoverResult,
  GetPromptResult,
  Implementation,
  InputRequiredResult,
  InputResponses,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ResponseResultOf,
  SubscriptionFilter,
  Tool,
} from "@x/mcp-v2607";
import { type DetailedTask, declaresTasks } from "@x/mcp-v2607/tasks";
import { Channel } from "./channel.js";
import { transportError } from "./errors.js";
import { Answering } from "./features/answering.js";
import { CacheFeature } from "./features/cache.js";
import { complete } from "./features/completion.js";
import { PromptsFeature } from "./features/prompts.js";
import { ResourcesFeature } from "./features/resources.js";
import { TasksFeature, taskSettings, withTasks } from "./features/tasks.js";
import { ToolsFeature } from "./features/tools.js";
import type { InputHandlers } from "./mrtr.js";
import {
  type CacheableOptions,
  type CallToolAsTaskOptions,
  type CallToolOptions,
  type ClientOptions,
  checkClientOptions,
  DEFAULT_MAX_INPUT_ROUNDS,
  type Era,
  type InputOptions,
  type ListAllOptions,
  type ListOptions,
  type ProtocolChoice,
  type RequestArguments,
  type RequestOptions,
  type RequestTail,
  type Result,
  type ResumeTaskOptions,
  type Subscription,
  type ToolCallStart,
} from "./options.js";
import { isObject } from "./results.js";
import { checkEnvelope, versionsOf } from "./revisions/2026-07-28/index.js";
import { openRevision, PROTOCOL_CHOICES } from "./revisions/index.js";
import type { PeerInfo, RevisionContext } from "./revisions/revision.js";
import type { TaskHandle, TaskRequestOptions, TaskSettings } from "./tasks.js";
import type { Transport } from "./transports/transport.js";

/**
 * An MCP client. One client talks to one server through one transport; it
 * holds no session (the protocol has none) beyond what it learned: the
 * protocol version to speak, the tools it listed, and its cache.
 *
 * @example
 * const client = new Client({ name: "my-app", version: "1.0.0" }, {
 *   handlers: { elicitation: async (params) => ({ action: "accept", content: { name: "octocat" } }) },
 * });
 * await client.connect(new StreamableHttpTransport("http://127.0.0.1:3000/mcp"));
 * const tools = await client.listAllTools();
 * const result = await client.callTool("add", { a: 2, b: 40 });
 */
export class Client {
  /** The `io.modelcontextprotocol/clientInfo` sent with every request. */
  readonly clientInfo: Implementation;
  /** The capabilities declared on every request (of the 2026 era; `initialize` declares them without the tasks extension). */
  readonly capabilities: ClientCapabilities;
  /** `capabilities` with the tasks extension, for the requests that always declare it. */
  private readonly taskCapabilities: ClientCapabilities;
  private readonly options: ClientOptions;
  private readonly choice: ProtocolChoice;
  private readonly settings: TaskSettings;
  private readonly warn: (message: string) => void;
  private readonly answering: Answering;
  private readonly cache: CacheFeature;
  private readonly tools: ToolsFeature;
  private readonly resources: ResourcesFeature;
  private readonly prompts: PromptsFeature;
  private readonly tasks: TasksFeature;
  private channel: Channel | undefined;
  private peer: PeerInfo | undefined;

  /**
   * @param clientInfo `{ name, version }` (and optionally `title`, ...), sent as `io.modelcontextprotocol/clientInfo`.
   * @throws TypeError when `clientInfo` lacks a string `name` or `version`, an option (or a `tasks` setting) is
   *   one `ClientOptions` does not name (a misspelling), or a numeric option is out of range;
   *   also when `clientInfo`, `capabilities` or `logLevel` break the schema, which every server would refuse
   *   (-32602): the message names the member, as the server's would.
   */
  constructor(clientInfo: Implementation, options: ClientOptions = {}) {
    if (!isObject(clientInfo) || typeof clientInfo.name !== "string" || typeof clientInfo.version !== "string") {
      throw new TypeError("Client needs clientInfo with a string name and version");
    }
    checkClientOptions(options);
    this.clientInfo = { ...clientInfo };
    this.options = options;
    const choice = options.protocol ?? "auto";
    if (!PROTOCOL_CHOICES.includes(choice))
      throw new TypeError(`protocol must be ${PROTOCOL_CHOICES.map((c) => JSON.stringify(c)).join(", ")}, got ${JSON.stringify(choice)}`);
    this.choice = choice;
    this.warn = options.onWarning ?? ((message) => console.warn(`[@x/client] ${message}`));
    this.answering = new Answering(options);
    const capabilities = this.answering.declare(options.capabilities ?? {}, options);
    if (options.tasks !== undefined && options.tasks !== false && !isObject(options.tasks) && options.tasks !== true)
      throw new TypeError("tasks must be a boolean or an object of settings");
    this.capabilities = options.tasks === true || isObject(options.tasks) ? withTasks(capabilities) : capabilities;
    this.taskCapabilities = withTasks(this.capabilities);
    const settings = taskSettings(options.tasks, options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS);
    this.settings = settings;
    checkEnvelope(versionsOf(options)[0]!, capabilities, options, clientInfo);

    const channel = () => this.requireChannel();
    this.cache = new CacheFeature(options, channel, () => this.channel?.transport);
    this.tools = new ToolsFeature(options, channel, this.cache, this.warn);
    this.resources = new ResourcesFeature(options, channel, this.cache);
    this.prompts = new PromptsFeature(options, channel, this.cache);
    const listen = (filter: SubscriptionFilter, o: Omit<RequestOptions, "timeout" | "onProgress">) => this.listen(filter, o);
    this.tasks = new TasksFeature(options, channel, this.tools, this.answering, listen, settings, this.warn);
  }

  /**
   * The protocol version spoken now: in the 2026 era the one sent on
   * requests (it changes after a -32022 retry or a `discover`); in the
   * `initialize` era the one the server answered in `initialize`.
   */
  get protocolVersion(): string {
    return this.channel?.revisionNow()?.protocolVersion ?? versionsOf(this.options)[0]!;
  }

  /**
   * The era spoken with the server: `"modern"` (2026-07-28) or `"legacy"`
   * (the `initialize` handshake, 2024-11-05 to 2025-11-25); `undefined`
   * before `connect`.
   */
  get era(): Era | undefined {
    return this.channel?.revisionNow()?.era;
  }

  /** The server's capabilities: from `initialize` in the `initialize` era, else from the last `server/discover` (the probe of `"auto"` included); `undefined` before either. */
  get serverCapabilities(): Record<string, unknown> | undefined {
    return this.peer?.capabilities;
  }

  /** The server's `serverInfo` (`Implementation`), from `initialize` or the last `server/discover` (its `_meta` serverInfo; `{}` when it gave none); `undefined` before either. */
  get serverInfo(): Record<string, unknown> | undefined {
    return this.peer?.info;
  }

  /** The server's `instructions` from `initialize` or the last `server/discover`, if it gave any. */
  get instructions(): string | undefined {
    return this.peer?.instructions;
  }

  /** True when an input handler for `kind` is installed (`waitFor` installs the elicitation one). */
  hasInputHandler(kind: keyof InputHandlers): boolean {
    return this.answering.has(kind);
  }

  /**
   * Attaches the transport, starts it (a stdio transport spawns its process
   * here) and settles the era (see {@link ClientOptions.protocol}): with
   * `"2026-07-28"` nothing is sent; with `"auto"` a `server/discover` probe
   * decides; in the `initialize` era the handshake runs (`initialize`,
   * `notifications/initialized`, the GET stream).
   * @throws Error when a transport is already attached; McpClientError -32096
   *   when the server answers `initialize` with a version outside
   *   `INITIALIZE_ERA_VERSIONS` or the transport cannot carry that era (the
   *   transport is then closed); the probe's or handshake's errors.
   */
  async connect(transport: Transport): Promise<void> {
    if (this.channel) throw new Error("This client is already connected to a transport");
    const channel = new Channel(transport, this.options.timeout, (notification) => this.cache.invalidateFor(notification), this.warn);
    this.channel = channel;
    await transport.start?.();
    const context: RevisionContext = {
      transport,
      options: this.options,
      clientInfo: this.clientInfo,
      capabilities: this.capabilities,
      taskCapabilities: this.taskCapabilities,
      taskSettings: this.settings,
      channel,
      cache: this.cache,
      answering: this.answering,
      warn: this.warn,
      peer: (info) => (this.peer = info ?? this.peer),
      use: (revision) => channel.use(revision),
    };
    try {
      await openRevision(this.choice, context);
    } catch (error) {
      this.channel = undefined;
      await transport.close().catch(() => {});
      throw error;
    }
  }

  /** Closes the transport, ending the revision's session first if it has one (HTTP `DELETE`); waiting requests fail with reason `"closed"`. */
  async close(): Promise<void> {
    const channel = this.channel;
    this.channel = undefined;
    channel?.close();
    await channel?.revisionNow()?.close();
    this.answering.abortAll();
    await channel?.transport.close();
  }

  /** Drops every cached result (see `ResponseCache`). */
  clearCache(): void {
    this.cache.clear();
  }

  private requireChannel(): Channel {
    if (!this.channel) throw transportError("closed", "The client is not connected: call connect(transport) first");
    return this.channel;
  }

  /**
   * Sends one request and returns its result object, as is: no Multi
   * Round-Trip handling, no cache. Use it for methods this class has no
   * helper for. Params and result are typed by the method table of
   * `@x/mcp-v2607` (`request("tools/list")` resolves to a `ListToolsResult`;
   * a method that may answer `input_required` to the union with
   * `InputRequiredResult`, since this path does not resolve it). The result
   * is not validated against the schema. The `_meta` entries are added; on
   * `UnsupportedProtocolVersionError` (-32022) the request is retried once,
   * with a new id, in a version the server listed.
   *
   * @throws McpClientError with the server's code for an error response;
   *   -32000/-32001/-32800 for transport failure, timeout, cancel; -32094
   *   when the result is not an object.
   */
  async request<M extends ClientRequestMethod>(method: M, ...rest: RequestTail<M>): Promise<ResponseResultOf<M>>;
  /**
   * A method outside the schema's `ClientRequest` table (an extension, or a
   * method of another revision): params and result are plain objects.
   */
  async request<M extends string>(
    method: M & ([M] extends [ClientRequestMethod] ? never : unknown),
    params?: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<Result>;
  async request(method: string, params: Record<string, unknown> = {}, options: RequestOptions = {}): Promise<Result> {
    return this.requireChannel().send(method, params, options);
  }

  /**
   * Fulfils the `inputRequests` of an `InputRequiredResult` through this
   * client's handlers, for callers that drive the retry themselves
   * (`inputRequired: "return"`).
   * @throws McpClientError -32091 as `answerInputRequests` does.
   */
  async answerInputRequests(
    inputRequests: InputRequiredResult["inputRequests"],
    options: { signal?: AbortSignal; method?: string; params?: Record<string, unknown>; round?: number } = {},
  ): Promise<InputResponses> {
    return this.answering.answer(inputRequests, {
      method: options.method ?? "",
      params: options.params ?? {},
      round: options.round ?? 1,
      signal: options.signal ?? new AbortController().signal,
    });
  }

  /**
   * `server/discover` (spec: server/discover): the server's supported
   * versions, capabilities, info and instructions. Cached per its hints.
   * When the version in use is not among `supportedVersions`, the client
   * switches to the first of its own versions that is.
   */
  async discover(options: CacheableOptions = {}): Promise<DiscoverResult> {
    return this.requireChannel().revision().discover(options);
  }

  /**
   * One page of `tools/list`. Tools whose `x-mcp-header` annotations are
   * invalid are dropped with a warning when the transport carries headers
   * (spec: streamable-http "Schema Extension"); entries without a string
   * `name` are dropped too. Cached per the result's hints.
   * @throws McpClientError -32094 when `tools` is not an array.
   */
  async listTools(options: ListOptions = {}): Promise<ListToolsResult> {
    return this.tools.list(options);
  }

  /**
   * Every tool, following `nextCursor` until a page has none (an empty
   * string is a cursor, not the end).
   * @throws McpClientError -32095 (`ListTooLong`) past `maxPages` pages or on a repeated cursor.
   */
  async listAllTools(options: ListAllOptions = {}): Promise<Tool[]> {
    return this.tools.listAll(options);
  }

  /**
   * `tools/call`. Over a transport with headers, the `x-mcp-header`
   * arguments are mirrored into `Mcp-Param-{Name}` headers; on a
   * `HeaderMismatch` (-32020) the tools are listed afresh and the call
   * retried once. Input requests are resolved (see {@link InputOptions}),
   * and a complete, non-error result's `structuredContent` is checked
   * against the tool's `outputSchema`. With the tasks extension on
   * (`ClientOptions.tasks`), a task handle the server answers is driven to
   * its end (extension "Backwards Compatibility"; see `TaskHandle.result`)
   * and its result returned; a call that fails while its task runs sends
   * `tasks/cancel` first.
   *
   * @returns the `CallToolResult` (a tool error is a result with `isError`,
   *   not a throw); with `inputRequired: "return"`, possibly an `InputRequiredResult`.
   * @throws McpClientError: the server's error (-32602 unknown tool, ...; a
   *   failed task's inlined error likewise); -32602 for a tool rejected for
   *   invalid `x-mcp-header` annotations or an argument that cannot be
   *   mirrored; -32092 when `structuredContent` does not match
   *   (`data.problems`), a non-finite number in it (such as `1e400`, which
   *   JSON reads as Infinity) included; -32093 when the `outputSchema` cannot
   *   be used; -32090/-32091 from the input rounds; -32094 for a malformed
   *   or unasked-for task handle; -32098 for a task that ended cancelled;
   *   -32001 past `maxTaskWaitMs`; transport errors.
   */
  async callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: CallToolOptions & { inputRequired?: "resolve" },
  ): Promise<CallToolResult>;
  async callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: CallToolOptions,
  ): Promise<CallToolResult | InputRequiredResult>;
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: CallToolOptions = {},
  ): Promise<CallToolResult | InputRequiredResult> {
    // Only the parts the tools feature checked come back: a CallToolResult, or the InputRequiredResult asked for.
    return (await this.tasks.call(name, args, options, (this.channel?.revisionNow()?.tasks ?? true) && declaresTasks(this.capabilities))) as
      | CallToolResult
      | InputRequiredResult;
  }

  /**
   * `tools/call` declaring the tasks extension, for applications that want
   * the task's lifecycle (extension "Task Creation"): Multi Round-Trip rounds
   * before the task are resolved through the handlers, then the server's
   * answer is returned as it decided it: `{ task }`, a {@link TaskHandle}
   * (keep `task.taskId` to resume after a restart), or `{ result }`, the
   * complete result of a call it did not make a task of.
   * @throws McpClientError -32096 in the `initialize` era (2025-11-25 tasks
   *   are another, experimental design this client does not speak); -32094
   *   for a malformed task handle; everything `callTool` throws before a task.
   */
  async callToolAsTask(name: string, args: Record<string, unknown> = {}, options: CallToolAsTaskOptions = {}): Promise<ToolCallStart> {
    return this.tasks.callAsTask(name, args, options);
  }

  /**
   * A handle on a task known by its id, e.g. one kept across a restart
   * (extension "Task Polling": clients should persist task ids): one
   * `tasks/get`, then the handle with that state.
   * @throws McpClientError -32096 in the `initialize` era; the server's
   *   -32602 for an unknown, expired or foreign task; -32094 for a
   *   malformed answer.
   */
  async resumeTask(taskId: string, options: ResumeTaskOptions = {}): Promise<TaskHandle> {
    return this.tasks.resume(taskId, options);
  }

  /**
   * One `tasks/get`: the task's current state with what its status inlines.
   * @throws as {@link resumeTask}.
   */
  async getTask(taskId: string, options: TaskRequestOptions = {}): Promise<DetailedTask> {
    return this.tasks.get(taskId, options);
  }

  /**
   * One `tasks/cancel` (cooperative: the task may still finish, see
   * {@link TaskHandle.cancel}).
   * @throws McpClientError -32096 in the `initialize` era; the server's error; -32094 for a malformed acknowledgement.
   */
  async cancelTask(taskId: string, options: TaskRequestOptions = {}): Promise<void> {
    return this.tasks.cancel(taskId, options);
  }

  /** One page of `resources/list`, cached per its hints. @throws McpClientError -32094 when `resources` is not an array. */
  async listResources(options: ListOptions = {}): Promise<ListResourcesResult> {
    return this.resources.list(options);
  }

  /** Every resource, page after page (see {@link listAllTools}). */
  async listAllResources(options: ListAllOptions = {}): Promise<Resource[]> {
    return this.resources.listAll(options);
  }

  /** One page of `resources/templates/list`, cached per its hints. */
  async listResourceTemplates(options: ListOptions = {}): Promise<ListResourceTemplatesResult> {
    return this.resources.listTemplates(options);
  }

  /** Every resource template, page after page (see {@link listAllTools}). */
  async listAllResourceTemplates(options: ListAllOptions = {}): Promise<ResourceTemplate[]> {
    return this.resources.listAllTemplates(options);
  }

  /**
   * `resources/read`. May answer `input_required` (resolved as for
   * `callTool`). A result reached without input rounds is cached per its
   * hints; one reached through them never is.
   */
  async readResource(uri: string, options?: InputOptions & CacheableOptions & { inputRequired?: "resolve" }): Promise<ReadResourceResult>;
  async readResource(uri: string, options: InputOptions & CacheableOptions): Promise<ReadResourceResult | InputRequiredResult>;
  async readResource(uri: string, options: InputOptions & CacheableOptions = {}): Promise<ReadResourceResult | InputRequiredResult> {
    return this.resources.read(uri, options);
  }

  /** One page of `prompts/list`, cached per its hints. */
  async listPrompts(options: ListOptions = {}): Promise<ListPromptsResult> {
    return this.prompts.list(options);
  }

  /** Every prompt, page after page (see {@link listAllTools}). */
  async listAllPrompts(options: ListAllOptions = {}): Promise<Prompt[]> {
    return this.prompts.listAll(options);
  }

  /** `prompts/get` with string arguments. May answer `input_required` (resolved as for `callTool`). */
  async getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: InputOptions & { inputRequired?: "resolve" },
  ): Promise<GetPromptResult>;
  async getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    options: InputOptions,
  ): Promise<GetPromptResult | InputRequiredResult>;
  async getPrompt(name: string, args?: Record<string, string>, options: InputOptions = {}): Promise<GetPromptResult | InputRequiredResult> {
    return this.prompts.get(name, args, options);
  }

  /** `completion/complete`: suggestions for a prompt or resource-template argument. */
  async complete(params: RequestArguments<"completion/complete">, options: RequestOptions = {}): Promise<CompleteResult> {
    return complete(this.requireChannel(), params, options);
  }

  /**
   * `resources/subscribe` (the `initialize` era; spec 2025-11-25:
   * server/resources "Subscriptions"): the server then sends
   * `notifications/resources/updated` for `uri`, delivered to
   * `ClientOptions.onNotification` and to `listen` streams. The subscription
   * is renewed when the session is. In the 2026 era, use
   * `listen({ resourceSubscriptions: [uri] })`.
   * @throws McpClientError -32096 in the 2026 era; the server's error (e.g. -32601 without the `subscribe` capability).
   */
  async subscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    const revision = this.requireChannel().revision();
    if (typeof uri !== "string") throw new TypeError("subscribeResource: uri must be a string");
    await revision.subscribe(uri, options);
  }

  /** `resources/unsubscribe` (the `initialize` era). @throws as {@link subscribeResource}. */
  async unsubscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    await this.requireChannel().revision().unsubscribe(uri, options);
  }

  /**
   * Opens a `subscriptions/listen` stream for the notifications in `filter`
   * and returns it as an async iterator (spec: basic/patterns/subscriptions).
   * The acknowledgement is not yielded (see `acknowledged`); every other
   * notification carrying this subscription's id is, in order. Change
   * notifications also invalidate the cache. The stream has no timeout;
   * `close()`, breaking out of a `for await`, or `options.signal` ends it.
   * At most 1000 notifications wait unread; older ones are dropped with a
   * warning. In the `initialize` era the same API is served by the session's
   * notifications and `resources/subscribe` (`revisions/initialize/listen.ts`).
   */
  listen(filter: SubscriptionFilter, options: Omit<RequestOptions, "timeout" | "onProgress"> = {}): Subscription {
    return this.requireChannel().revision().listen(filter, options);
  }
}
