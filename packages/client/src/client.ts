/**
 * The MCP client of revision 2026-07-28: every request carries its own
 * `_meta` (protocol version, client capabilities, client info; spec:
 * basic/index "_meta"), results are read by `resultType` first, Multi
 * Round-Trip Requests are resolved through handlers (basic/patterns/mrtr),
 * cache hints are honoured (server/utilities/caching), and lists are
 * followed page by page (server/utilities/pagination).
 *
 * The same client speaks the `initialize` era (2024-11-05 to 2025-11-25,
 * spec 2025-11-25: basic/lifecycle) with the same API: `protocol: "auto"`
 * probes with `server/discover` and falls back to the handshake
 * (2026-07-28: basic/versioning "Backward Compatibility"); the session's
 * server-to-client requests are answered by the same handlers (`era.ts`).
 */
import { stringifyJson } from "@x/jsonrpc";
import type {
  CallToolRequestParams,
  CallToolResult,
  ClientCapabilities,
  ClientRequestMethod,
  CompleteResult,
  DiscoverResult,
  GetPromptResult,
  Implementation,
  InputRequiredResult,
  InputResponses,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  LoggingLevel,
  NotificationParamsOf,
  ParamsOf,
  ProgressNotificationParams,
  Prompt,
  ReadResourceResult,
  RequestId,
  Resource,
  ResourceTemplate,
  ResponseResultOf,
  SubscriptionFilter,
  Tool,
} from "@x/mcp-v2607";
import {
  ErrorCode,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_LOG_LEVEL,
  META_PROTOCOL_VERSION,
  META_SUBSCRIPTION_ID,
  Method,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@x/mcp-v2607/constants";
import { readEnvelope, requestMeta } from "@x/mcp-v2607/wire";
import {
  type DetailedTask,
  declaresTasks,
  isTerminalTaskStatus,
  RESULT_TYPE_TASK,
  TASK_AUGMENTABLE_METHODS,
  TASKS_EXTENSION,
  TaskMethod,
} from "@x/mcp-v2607/tasks";
import { CACHEABLE_METHODS, ResponseCache, type ResponseCacheOptions } from "./cache.js";
import { ClientErrorCode, clip, isMcpClientError, McpClientError, transportError } from "./errors.js";
import { type HeaderParam, paramHeaders, toolHeaderParams } from "./headers.js";
import { answerInputRequests, type InputHandlers } from "./mrtr.js";
import {
  type CompiledSchema,
  compileOutputSchema,
  formatProblems,
  type JsonSchemaValidator,
  MissingDependencyError,
  nonFiniteProblem,
  type SchemaLimits,
} from "./schema.js";
import {
  answerServerRequest,
  DEFAULT_PROBE_TIMEOUT_MS,
  type Era,
  MODERN_ERROR_CODES,
  type ProtocolChoice,
  readInitializeResult,
} from "./era.js";
import { answerToElicitResult, elicitationToRequest, type WaitFor } from "./suspend.js";
import {
  cancelTask,
  DEFAULT_TASK_WAIT_MS,
  gaveUpTransiently,
  MAX_TASK_POLL_INTERVAL_MS,
  MIN_TASK_POLL_INTERVAL_MS,
  readCreateTaskResult,
  readDetailedTask,
  TASK_CANCEL_TIMEOUT_MS,
  TASK_POLL_ATTEMPTS,
  TASK_POLL_RETRY_DELAY_MS,
  TaskHandle,
  type TaskPort,
  type TaskRequestOptions,
  type TaskSettings,
  type TasksOptions,
} from "./tasks.js";
import { callsAsLegacyTask, callToolAsLegacyTask, type LegacyTaskCallOptions, type LegacyTaskPort } from "./features/tasks-2511.js";
import {
  answerAs,
  type ClientVersion,
  checkPinned,
  isProtocolChoice,
  loadClientVersion,
  PINNABLE_VERSIONS,
  proposedVersion,
} from "./revisions/initialize/versions.js";
import type { Transport } from "./transports/transport.js";

/** Default bound on Multi Round-Trip rounds per request. */
export const DEFAULT_MAX_INPUT_ROUNDS = 10;
/** Default timeout of one round trip, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/**
 * Most server-to-client requests (the `initialize` era) answered at once;
 * past it, a request is answered -32603 at once, so that a server cannot
 * make the client hold unbounded state.
 */
export const MAX_SERVER_REQUESTS = 64;
/** Default page cap of the `listAll*` helpers. */
export const DEFAULT_MAX_PAGES = 100;

/**
 * Marks a request whose client capabilities declare the tasks extension
 * whatever the client's default (`tasks/*`, `callToolAsTask`, a listen for
 * task statuses). Module-private, so no caller can set it.
 */
const DECLARE_TASKS: unique symbol = Symbol("declareTasks");
/** {@link RequestOptions} as the client passes them inside. */
type SendingOptions = RequestOptions & { [DECLARE_TASKS]?: boolean };

/** Options of a {@link Client}. */
export interface ClientOptions {
  /**
   * Which protocol to speak (see {@link ProtocolChoice}). `"auto"` (default):
   * `connect` probes with `server/discover` (bounded by `probeTimeout`) and
   * falls back to `initialize` when the server is of the earlier era: over
   * HTTP on a 4xx or JSON-RPC error that is not one of the 2026 errors
   * (-32020, -32021, -32022) or on a result that is not a `DiscoverResult`;
   * over stdio also on silence, on the same process. A transport that cannot
   * carry a session (`InMemoryTransport`) is not probed and speaks 2026-07-28.
   * `"2026-07-28"` sends nothing on `connect`; `"2025-11-25"` goes straight
   * to `initialize`.
   */
  protocol?: ProtocolChoice;
  /**
   * Milliseconds the `server/discover` probe of `protocol: "auto"` waits
   * (`DEFAULT_PROBE_TIMEOUT_MS`, 3000). Over stdio, silence this long means a
   * server of the earlier era; 0 waits without limit.
   */
  probeTimeout?: number;
  /**
   * Receives every notification of an `initialize`-era session (progress,
   * `notifications/message` log entries, list changes, resource updates),
   * whether it came on a request's stream or on the session's own (HTTP
   * GET). Per-request notifications also reach that request's
   * `onNotification`/`onProgress`.
   */
  onNotification?: (notification: JSONRPCNotification) => void;
  /**
   * Freshness, in milliseconds, given to cacheable results of the
   * `initialize` era, whose results carry no `ttlMs`. Default 0: such
   * results are never cached. Entries are private to the authorization
   * context, and list-changed and resource-updated notifications drop them.
   */
  legacyCacheTtlMs?: number;
  /**
   * Capabilities declared on every request. Capabilities for the handlers
   * given (`elicitation`, `sampling`, `roots`) are added when absent.
   */
  capabilities?: ClientCapabilities;
  /** Handlers for the input requests of Multi Round-Trip Requests. */
  handlers?: InputHandlers;
  /**
   * The suspension bridge: when set, and no `handlers.elicitation` is given,
   * every `elicitation/create` is mapped to a `Request`
   * (`elicitationToRequest`), answered by `waitFor`, and mapped back
   * (`answerToElicitResult`); the `elicitation` capability (form and URL
   * modes) is then declared. Without it (and without an elicitation handler)
   * the capability is never declared (A74).
   */
  waitFor?: WaitFor;
  /** Most Multi Round-Trip retries of one request before it fails with -32090. Default 10. */
  maxInputRounds?: number;
  /** Default timeout of one round trip in milliseconds; 0 for none. Default 60000. */
  timeout?: number;
  /**
   * The protocol versions this client speaks, preferred first. Default
   * `["2026-07-28"]`. The first is sent until a server's
   * `UnsupportedProtocolVersionError` (-32022) or `DiscoverResult` says
   * otherwise.
   */
  protocolVersions?: readonly string[];
  /** The result cache: its options, an instance to share, or `false` for none. Default: a cache of 500 entries. */
  cache?: false | ResponseCacheOptions | ResponseCache;
  /**
   * The authorization context private cache entries are keyed by. Default:
   * the transport's (a digest of the HTTP `Authorization` header).
   */
  authContext?: string | (() => string | undefined);
  /** Validate `structuredContent` against the tool's `outputSchema`. Default true. */
  validateOutput?: boolean;
  /** Bounds on an `outputSchema` before it is compiled. */
  schemaLimits?: SchemaLimits;
  /**
   * The JSON Schema validator of `outputSchema`s: `cfworkerValidator` (no
   * code generation, exported here) or `ajvValidator` (`@x/client/ajv`).
   * Default: `defaultValidator()`, ajv on Node, Bun and Deno,
   * `@cfworker/json-schema` under the workerd, worker and browser conditions
   * and where code generation is forbidden.
   */
  validator?: JsonSchemaValidator;
  /** Page cap of the `listAll*` helpers. Default 100. */
  maxPages?: number;
  /** The `io.modelcontextprotocol/logLevel` to request on every request (default: none, so no log notifications). */
  logLevel?: LoggingLevel;
  /**
   * Before calling a tool it has not seen in a `tools/list`, list the tools
   * (through the cache) to learn its `x-mcp-header` annotations and
   * `outputSchema`. Default true. A listing that fails is warned about and
   * the call goes on without the definition, except when the call would
   * meet the same failure: a cancel, a timeout, a failed transport or
   * authorization (other than a refused scope), or a missing package; then
   * the call rejects with that error.
   */
  lookupTools?: boolean;
  /** Receives warnings, e.g. a tool dropped for invalid `x-mcp-header` annotations. Default: `console.warn`. */
  onWarning?: (message: string) => void;
  /**
   * The tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28 only):
   * `true` (or settings, see {@link TasksOptions}) declares it in the client
   * capabilities of every request, so that a server may answer `tools/call`
   * with a task handle, which `callTool` then drives to its end. Default
   * off: a server must not make a task for a request that does not declare
   * the extension, and a tool that requires one is refused with -32021.
   * Declaring the extension in `capabilities` yourself turns it on too.
   * `callToolAsTask` and the `tasks/*` requests declare it whatever this says;
   * the settings (polling bounds, wait bound, streaming) apply to them too.
   * Never declared in the `initialize` era, where the extension does not apply.
   */
  tasks?: boolean | TasksOptions;
}

/** Options every request method accepts. */
export interface RequestOptions {
  /** Cancels the request: it rejects with -32800 (`RequestCancelled`), at once even while an input handler is still answering (whose `context.signal` aborts). */
  signal?: AbortSignal;
  /**
   * Milliseconds to wait for each round trip; 0 for no limit. Default: the client's. Expiry rejects with -32001.
   * The time an input handler takes to answer (2026-07-28 rounds and task input) is not a round trip and is not counted.
   */
  timeout?: number;
  /** Called with each notification that arrives for this request (progress, log messages, ...). */
  onNotification?: (notification: JSONRPCNotification) => void;
  /** Called with each `notifications/progress` of this request; setting it sends a `progressToken`. */
  onProgress?: (progress: ProgressNotificationParams) => void;
  /** The log level to request for this request (overrides the client's). */
  logLevel?: LoggingLevel;
  /** Extra `_meta` entries (the protocol's own keys cannot be replaced). */
  meta?: Record<string, unknown>;
}

/** How a cacheable request uses the cache: `"default"` reads and stores, `"refresh"` only stores, `"bypass"` neither. */
export type CacheMode = "default" | "refresh" | "bypass";

/** Options of the cacheable requests (`discover`, the lists, `readResource`). */
export interface CacheableOptions extends RequestOptions {
  cache?: CacheMode;
}

/** Options of the list requests: one page, from `cursor`. */
export interface ListOptions extends CacheableOptions {
  /** Where to start; an empty string is a cursor like any other. */
  cursor?: string;
}

/** Options of the `listAll*` helpers. */
export interface ListAllOptions extends CacheableOptions {
  /** Most pages to fetch before failing with -32095. Default: the client's `maxPages`. */
  maxPages?: number;
}

/** Options of the requests that may answer `input_required` (`callTool`, `getPrompt`, `readResource`). */
export interface InputOptions extends RequestOptions {
  /**
   * `"resolve"` (default): fulfil input requests through the handlers and
   * retry until the result is complete. `"return"`: hand back the first
   * `InputRequiredResult` as it is.
   */
  inputRequired?: "resolve" | "return";
  /** Most retries before failing with -32090. Default: the client's `maxInputRounds`. */
  maxInputRounds?: number;
  /** `inputResponses` for the first send, to continue an exchange returned earlier with `inputRequired: "return"`. */
  inputResponses?: InputResponses;
  /** `requestState` for the first send, echoed from an earlier `InputRequiredResult`. */
  requestState?: string;
}

/** Options of {@link Client.callTool}. */
export interface CallToolOptions extends InputOptions, LegacyTaskCallOptions {
  /** Validate `structuredContent` against the tool's `outputSchema` (default: the client's). */
  validateOutput?: boolean;
  /**
   * Called once when the server answers with a task handle (tasks
   * extension), with the handle `callTool` goes on to drive: keep its
   * `taskId` to resume after a restart.
   */
  onTask?: (task: TaskHandle) => void;
  /** Called with each new state of such a task (see `TaskWaitOptions.onStatus`). */
  onTaskStatus?: (task: DetailedTask) => void;
  /** Most milliseconds to wait for such a task to end; 0 for no bound but `signal`. Default: the client's `tasks.maxWaitMs` (one hour). */
  maxTaskWaitMs?: number;
}

/** Options of {@link Client.callToolAsTask}: those of `callTool`, but Multi Round-Trip rounds before the task are always resolved. */
export type CallToolAsTaskOptions = Omit<CallToolOptions, "inputRequired" | "onTask" | "onTaskStatus" | "maxTaskWaitMs" | "task">;

/**
 * What {@link Client.callToolAsTask} resolves with: the server decides per
 * request whether to make a task (extension "Capability Negotiation"), so
 * either a handle on the task, or the tool's complete result.
 */
export type ToolCallStart = { task: TaskHandle; result?: undefined } | { task?: undefined; result: CallToolResult };

/** Options of {@link Client.resumeTask}. */
export interface ResumeTaskOptions extends TaskRequestOptions {
  /** The tool the task runs, if known: its `outputSchema` then checks the result. */
  tool?: string;
}

/** A live `subscriptions/listen` stream (spec: basic/patterns/subscriptions). */
export interface Subscription extends AsyncIterable<JSONRPCNotification> {
  /** Resolves with the filter the server agreed to honour (its `notifications/subscriptions/acknowledged`). */
  readonly acknowledged: Promise<SubscriptionFilter>;
  /** Resolves when the stream ends: `graceful` when the server ended it with a result, false when the client closed it. Rejects on a failure. */
  readonly ended: Promise<{ graceful: boolean }>;
  /** Ends the subscription (HTTP: closes the stream; stdio: `notifications/cancelled`). */
  close(): Promise<void>;
}

interface KnownTool {
  tool: Tool;
  headers: HeaderParam[];
  validator?: CompiledSchema | McpClientError;
}

/**
 * A result object as it came off the wire: only known to be an object. Not
 * the schema's `Result`, which requires `resultType`: a server of an older
 * revision leaves it out, and that must still read as complete.
 */
type Result = Record<string, unknown>;

/** `T` without its `_meta` member, keeping the other members and the index signature. */
type WithoutMeta<T> = { [K in keyof T as K extends "_meta" ? never : K]: T[K] };

/**
 * The params of request method `M` as a caller of {@link Client.request}
 * passes them: the schema's params type (`ParamsOf<M>`) without `_meta`,
 * which the client writes itself (protocol version, capabilities, client
 * info; spec: basic/index "_meta").
 */
export type RequestArguments<M extends ClientRequestMethod> = WithoutMeta<NonNullable<ParamsOf<M>>>;

/** The arguments after the method of {@link Client.request}: the params may be left out when none is required. */
export type RequestTail<M extends ClientRequestMethod> =
  {} extends RequestArguments<M>
    ? [params?: RequestArguments<M>, options?: RequestOptions]
    : [params: RequestArguments<M>, options?: RequestOptions];

/** The methods that may answer `input_required` (spec: basic/patterns/mrtr), by the schema's response types. */
type InputMethod = { [M in ClientRequestMethod]: InputRequiredResult extends ResponseResultOf<M> ? M : never }[ClientRequestMethod];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalidResult(message: string, data?: Record<string, unknown>): McpClientError {
  return new McpClientError(ClientErrorCode.InvalidResult, message, data);
}

/**
 * Reads `resultType` first (spec: basic/index "ResultType"): absent means
 * `"complete"` (a server of an older revision). `"task"` (the tasks
 * extension's handle) is valid only for a method that may have one and a
 * request that declared the extension (`tasksDeclared`); the extension
 * makes any other an invalid response ("Capability Negotiation"). Any other
 * kind is invalid.
 */
function kindOf(result: Result, method: string, tasksDeclared = false): "complete" | "input_required" | "task" {
  if (!Object.hasOwn(result, "resultType")) return "complete";
  const kind = result.resultType;
  if (kind === "complete" || kind === "input_required") return kind;
  if (kind === RESULT_TYPE_TASK) {
    if (!TASK_AUGMENTABLE_METHODS.has(method)) {
      throw invalidResult(
        `The server answered ${method} with a task handle (resultType "task"), which only ${[...TASK_AUGMENTABLE_METHODS].join(", ")} may answer`,
        { resultType: kind },
      );
    }
    if (!tasksDeclared) {
      throw invalidResult(
        `The server answered ${method} with a task handle (resultType "task"), but the request did not declare the ${TASKS_EXTENSION} extension`,
        { resultType: kind },
      );
    }
    return "task";
  }
  throw invalidResult(`The result of ${method} has an unknown resultType ${clip(stringifyJson(kind) ?? String(kind))}`, {
    resultType: kind,
  });
}

/** {@link kindOf} as a type guard: true for `input_required`; throws on an unknown kind. */
function isInputRequired<R extends Result>(
  result: R | InputRequiredResult,
  method: string,
  tasksDeclared = false,
): result is InputRequiredResult {
  return kindOf(result, method, tasksDeclared) === "input_required";
}

/** `capabilities` without the tasks extension (what the `initialize` handshake declares). */
function withoutTasks(capabilities: ClientCapabilities): ClientCapabilities {
  if (!isObject(capabilities.extensions) || !Object.hasOwn(capabilities.extensions, TASKS_EXTENSION)) return capabilities;
  const { [TASKS_EXTENSION]: _, ...extensions } = capabilities.extensions;
  const copy: ClientCapabilities = { ...capabilities, extensions };
  if (Object.keys(extensions).length === 0) delete copy.extensions;
  return copy;
}

/** `capabilities` with the tasks extension declared. */
function withTasks(capabilities: ClientCapabilities): ClientCapabilities {
  if (declaresTasks(capabilities)) return capabilities;
  return { ...capabilities, extensions: { ...(isObject(capabilities.extensions) ? capabilities.extensions : {}), [TASKS_EXTENSION]: {} } };
}

/** Resolves {@link ClientOptions.tasks} and `maxInputRounds` into what a task handle reads. @throws TypeError for a bad bound. */
function taskSettings(tasks: ClientOptions["tasks"], maxInputRounds: number): TaskSettings {
  const given: TasksOptions = isObject(tasks) ? tasks : {};
  const settings: TaskSettings = {
    minPollIntervalMs: given.minPollIntervalMs ?? MIN_TASK_POLL_INTERVAL_MS,
    maxPollIntervalMs: given.maxPollIntervalMs ?? MAX_TASK_POLL_INTERVAL_MS,
    maxWaitMs: given.maxWaitMs ?? DEFAULT_TASK_WAIT_MS,
    stream: given.stream === true,
    maxInputRounds,
    pollAttempts: given.pollAttempts ?? TASK_POLL_ATTEMPTS,
    pollRetryDelayMs: given.pollRetryDelayMs ?? TASK_POLL_RETRY_DELAY_MS,
  };
  for (const key of ["minPollIntervalMs", "maxPollIntervalMs", "maxWaitMs", "pollAttempts", "pollRetryDelayMs"] as const) {
    const value = settings[key];
    if (!Number.isSafeInteger(value) || value < (key === "maxWaitMs" ? 0 : 1))
      throw new TypeError(`tasks.${key} must be ${key === "maxWaitMs" ? "a non-negative" : "a positive"} integer, got ${value}`);
  }
  if (settings.maxPollIntervalMs < settings.minPollIntervalMs)
    throw new TypeError(
      `tasks.maxPollIntervalMs (${settings.maxPollIntervalMs}) is below tasks.minPollIntervalMs (${settings.minPollIntervalMs})`,
    );
  return settings;
}

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
  private readonly taskSettings: TaskSettings;
  private readonly taskPort: TaskPort;
  private transport: Transport | undefined;
  private nextId = 1;
  private readonly versions: readonly string[];
  private version: string;
  private readonly handlers: InputHandlers;
  private readonly cache: ResponseCache | undefined;
  private readonly known = new Map<string, KnownTool>();
  private readonly rejected = new Map<string, string>();
  private readonly options: ClientOptions;
  private readonly warn: (message: string) => void;
  private readonly choice: ProtocolChoice;
  private eraNow: Era | undefined;
  private server: { capabilities: Record<string, unknown>; info: Record<string, unknown>; instructions?: string } | undefined;
  private renewing: Promise<void> | undefined;
  /** The `initialize`-era version spoken, which everything sent is reduced to (`undefined` in the 2026 era). */
  private legacy: ClientVersion | undefined;
  /** Server-to-client requests being answered, by id, so that `notifications/cancelled` can stop them. */
  private readonly answering = new Map<RequestId, AbortController>();
  private readonly sessionListeners = new Set<(notification: JSONRPCNotification) => void>();
  private readonly subscribedUris = new Set<string>();

  /**
   * @param clientInfo `{ name, version }` (and optionally `title`, ...), sent as `io.modelcontextprotocol/clientInfo`.
   * @throws TypeError when `clientInfo` lacks a string `name` or `version`, or a numeric option is out of range;
   *   also when `clientInfo`, `capabilities` or `logLevel` break the schema, which every server would refuse
   *   (-32602): the message names the member, as the server's would.
   */
  constructor(clientInfo: Implementation, options: ClientOptions = {}) {
    if (!isObject(clientInfo) || typeof clientInfo.name !== "string" || typeof clientInfo.version !== "string") {
      throw new TypeError("Client needs clientInfo with a string name and version");
    }
    for (const key of ["maxInputRounds", "timeout", "maxPages", "probeTimeout", "legacyCacheTtlMs"] as const) {
      const value = options[key];
      if (value !== undefined && (!Number.isSafeInteger(value) || value < 0))
        throw new TypeError(`${key} must be a non-negative integer, got ${value}`);
    }
    this.clientInfo = { ...clientInfo };
    this.options = options;
    const choice = options.protocol ?? "auto";
    if (!isProtocolChoice(choice))
      throw new TypeError(`protocol must be "auto" or one of ${PINNABLE_VERSIONS.join(", ")}, got ${String(choice)}`);
    this.choice = choice;
    this.versions = options.protocolVersions?.length ? [...options.protocolVersions] : [...SUPPORTED_PROTOCOL_VERSIONS];
    this.version = this.versions[0]!;
    this.warn = options.onWarning ?? ((message) => console.warn(`[@x/client] ${message}`));

    const handlers: InputHandlers = { ...options.handlers };
    const waitFor = options.waitFor;
    if (!handlers.elicitation && waitFor) {
      handlers.elicitation = async (params, context) =>
        answerToElicitResult(await waitFor(elicitationToRequest(params), { signal: context.signal }));
    }
    this.handlers = handlers;

    const capabilities: ClientCapabilities = structuredClone(options.capabilities ?? {});
    if (handlers.elicitation && !capabilities.elicitation)
      capabilities.elicitation = waitFor && !options.handlers?.elicitation ? { form: {}, url: {} } : { form: {} };
    if (handlers.sampling && !capabilities.sampling) capabilities.sampling = {};
    if (handlers.roots && !capabilities.roots) capabilities.roots = {};
    if (options.tasks !== undefined && options.tasks !== false && !isObject(options.tasks) && options.tasks !== true)
      throw new TypeError("tasks must be a boolean or an object of settings");
    this.capabilities = options.tasks === true || isObject(options.tasks) ? withTasks(capabilities) : capabilities;
    this.taskCapabilities = withTasks(this.capabilities);
    this.taskSettings = taskSettings(options.tasks, options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS);
    this.taskPort = this.makeTaskPort();
    // The server's own rule for the request _meta, applied once here rather
    // than learnt from a -32602 on every request (a check that could not run,
    // -32603, is left to the server).
    const envelope = readEnvelope({
      _meta: requestMeta({ protocolVersion: this.version, clientCapabilities: capabilities, clientInfo, logLevel: options.logLevel }),
    });
    if (!envelope.ok && envelope.code === ErrorCode.InvalidParams) throw new TypeError(envelope.message);

    if (options.cache === false) this.cache = undefined;
    else if (options.cache instanceof ResponseCache) this.cache = options.cache;
    else this.cache = new ResponseCache(options.cache ?? {});
  }

  /**
   * The protocol version spoken now: in the 2026 era the one sent on
   * requests (it changes after a -32022 retry or a `discover`); in the
   * `initialize` era the one the server answered in `initialize`.
   */
  get protocolVersion(): string {
    return this.version;
  }

  /**
   * The era spoken with the server: `"modern"` (2026-07-28) or `"legacy"`
   * (the `initialize` handshake, 2024-11-05 to 2025-11-25); `undefined`
   * before `connect`.
   */
  get era(): Era | undefined {
    return this.eraNow;
  }

  /** The server's capabilities: from `initialize` in the `initialize` era, else from the last `server/discover` (the probe of `"auto"` included); `undefined` before either. */
  get serverCapabilities(): Record<string, unknown> | undefined {
    return this.server?.capabilities;
  }

  /** The server's `serverInfo` (`Implementation`), from `initialize` or the last `server/discover` (its `_meta` serverInfo; `{}` when it gave none); `undefined` before either. */
  get serverInfo(): Record<string, unknown> | undefined {
    return this.server?.info;
  }

  /** The server's `instructions` from `initialize` or the last `server/discover`, if it gave any. */
  get instructions(): string | undefined {
    return this.server?.instructions;
  }

  /** True when an input handler for `kind` is installed (`waitFor` installs the elicitation one). */
  hasInputHandler(kind: keyof InputHandlers): boolean {
    return typeof this.handlers[kind] === "function";
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
    if (this.transport) throw new Error("This client is already connected to a transport");
    this.transport = transport;
    await transport.start?.();
    try {
      if (this.choice === "2026-07-28" || (this.choice === "auto" && !transport.beginSession)) this.eraNow = "modern";
      else if (this.choice !== "auto") await this.initialize();
      else if (await this.probe()) this.eraNow = "modern";
      else await this.initialize();
    } catch (error) {
      this.transport = undefined;
      this.eraNow = undefined;
      this.legacy = undefined;
      await transport.close().catch(() => {});
      throw error;
    }
  }

  /** Closes the transport, ending an `initialize`-era session first (HTTP `DELETE`); waiting requests fail with reason `"closed"`. */
  async close(): Promise<void> {
    const transport = this.transport;
    this.transport = undefined;
    if (this.eraNow === "legacy") await transport?.endSession?.().catch(() => {});
    for (const controller of this.answering.values()) controller.abort(transportError("closed", "The client was closed"));
    this.answering.clear();
    this.eraNow = undefined;
    this.legacy = undefined;
    await transport?.close();
  }

  /**
   * The `server/discover` probe (spec 2026-07-28: versioning "Backward
   * Compatibility"): true for a modern server (a `DiscoverResult`, or one of
   * the 2026 errors), false for one of the earlier era.
   */
  private async probe(): Promise<boolean> {
    const transport = this.requireTransport();
    const timeout = this.options.probeTimeout ?? DEFAULT_PROBE_TIMEOUT_MS;
    try {
      const result = await this.discover({ timeout, cache: "refresh" });
      // A legacy server may answer any method with an empty result; only a DiscoverResult names a modern one.
      const modern = Array.isArray(result.supportedVersions) && result.supportedVersions.length > 0 && isObject(result.capabilities);
      if (modern) this.rememberServer(result);
      return modern;
    } catch (error) {
      if (!isMcpClientError(error)) throw error;
      const e = error as McpClientError;
      if (e.source === "server") {
        if (!MODERN_ERROR_CODES.has(e.code)) return false;
        if (e.code === ErrorCode.UnsupportedProtocolVersion) throw error;
        return true;
      }
      const status = (e.data as { status?: unknown } | undefined)?.status;
      if (e.code === ClientErrorCode.TransportFailed && typeof status === "number" && status >= 400 && status < 500) return false;
      if (e.code === ClientErrorCode.InvalidResult) return false;
      if (e.code === ClientErrorCode.RequestTimeout && transport.kind === "stdio") return false;
      throw error;
    }
  }

  /** Keeps what a `DiscoverResult` says of the server, for {@link serverInfo}, {@link serverCapabilities} and {@link instructions}. */
  private rememberServer(result: DiscoverResult): void {
    if (!isObject(result.capabilities)) return;
    const info = result._meta?.["io.modelcontextprotocol/serverInfo"];
    this.server = { capabilities: result.capabilities as Record<string, unknown>, info: isObject(info) ? info : {} };
    if (typeof result.instructions === "string") this.server.instructions = result.instructions;
  }

  /**
   * The `initialize` handshake (spec 2025-11-25: basic/lifecycle): proposes
   * 2025-11-25, accepts any version of the era the server answers, enters
   * the session on the transport, sends `notifications/initialized`, opens
   * the GET stream, and restores the log level and resource subscriptions.
   */
  private async initialize(): Promise<void> {
    const transport = this.requireTransport();
    if (!transport.beginSession) {
      throw new McpClientError(
        ClientErrorCode.VersionUnsupported,
        `The ${transport.kind} transport cannot carry the initialize era (it has no session support)`,
      );
    }
    this.eraNow = "legacy";
    this.version = proposedVersion(this.choice);
    this.legacy = await loadClientVersion(this.version);
    const timeout = this.options.timeout ?? DEFAULT_TIMEOUT_MS;
    const result = await this.sendOnce(
      "initialize",
      // Tasks in 2025-11-25 were another, experimental design: the extension is not declared there.
      {
        protocolVersion: this.version,
        capabilities: this.legacy.capabilities(withoutTasks(this.capabilities)),
        clientInfo: this.clientInfo,
      },
      { timeout },
      {},
    );
    const outcome = await readInitializeResult(result);
    checkPinned(this.choice, outcome.protocolVersion);
    this.legacy = await loadClientVersion(outcome.protocolVersion);
    this.version = outcome.protocolVersion;
    this.server = { capabilities: outcome.capabilities, info: outcome.serverInfo };
    if (outcome.instructions !== undefined) this.server.instructions = outcome.instructions;
    transport.beginSession({
      protocolVersion: outcome.protocolVersion,
      onRequest: (request) => this.onServerRequest(request),
      onNotification: (notification) => this.onSessionNotification(notification),
    });
    await transport.notify?.({ jsonrpc: "2.0", method: "notifications/initialized" });
    await transport.openEventStream?.();
    const level = this.options.logLevel;
    if (level !== undefined && outcome.capabilities.logging !== undefined) {
      await this.sendOnce("logging/setLevel", { level }, { timeout }, {}).catch((error) =>
        this.warn(`logging/setLevel failed: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
    for (const uri of this.subscribedUris) {
      await this.sendOnce("resources/subscribe", { uri }, { timeout }, {}).catch((error) =>
        this.warn(`Could not renew the subscription to ${uri}: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  }

  /** A new session after the server ended the last one (HTTP 404), shared by every request that saw it end. */
  private renewSession(): Promise<void> {
    this.renewing ??= (async () => {
      try {
        await this.transport?.endSession?.();
        await this.initialize();
      } finally {
        this.renewing = undefined;
      }
    })();
    return this.renewing;
  }

  private async onServerRequest(request: JSONRPCRequest): Promise<JSONRPCResponse | undefined> {
    if (this.answering.size >= MAX_SERVER_REQUESTS || this.answering.has(request.id)) {
      const message =
        this.answering.size >= MAX_SERVER_REQUESTS
          ? `This client answers at most ${MAX_SERVER_REQUESTS} server requests at a time`
          : `A request with id ${JSON.stringify(request.id)} is already being answered`;
      return { jsonrpc: "2.0", id: request.id, error: { code: ErrorCode.InternalError, message } } as unknown as JSONRPCResponse;
    }
    const controller = new AbortController();
    this.answering.set(request.id, controller);
    try {
      return await answerAs(this.legacy, request, () => answerServerRequest(request, this.handlers, controller.signal));
    } finally {
      if (this.answering.get(request.id) === controller) this.answering.delete(request.id);
    }
  }

  private onSessionNotification(notification: JSONRPCNotification): void {
    if (notification.method === Method.NotificationsCancelled) {
      const id = (notification.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) this.answering.get(id)?.abort(new Error("The server cancelled the request"));
    }
    this.invalidateFor(notification);
    for (const listener of [this.options.onNotification, ...this.sessionListeners]) {
      try {
        listener?.(notification);
      } catch (error) {
        this.warn(`A notification listener threw: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /** Whether `Mcp-Param-*` headers are mirrored: an HTTP transport in the 2026 era (the earlier era has no such headers). */
  private mirrors(transport: Transport | undefined = this.transport): boolean {
    return (transport?.mirrorsHeaders ?? false) && this.eraNow !== "legacy";
  }

  /** Drops every cached result (see `ResponseCache`). */
  clearCache(): void {
    this.cache?.clear();
  }

  private async authContext(): Promise<string | undefined> {
    const own = this.options.authContext;
    if (own !== undefined) return typeof own === "function" ? own() : own;
    return this.transport?.authContext?.();
  }

  private requireTransport(): Transport {
    if (!this.transport) throw transportError("closed", "The client is not connected: call connect(transport) first");
    return this.transport;
  }

  // ---------------------------------------------------------------- sending

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
    return this.sendAny(method, params, options, {});
  }

  /**
   * {@link sendAny} typed by the method table. The result is only checked to
   * be an object on the way in; each helper checks the members it reads.
   */
  private async send<M extends ClientRequestMethod>(
    method: M,
    params: RequestArguments<M>,
    options: RequestOptions,
    headers: Record<string, string>,
    onRequestId?: (id: RequestId) => void,
  ): Promise<ResponseResultOf<M>> {
    // The one place where the wire result takes the type the schema gives the method: nothing has validated it.
    return (await this.sendAny(method, params, options, headers, onRequestId)) as ResponseResultOf<M>;
  }

  private async sendAny(
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions,
    headers: Record<string, string>,
    onRequestId?: (id: RequestId) => void,
  ): Promise<Result> {
    if (this.renewing) await this.renewing;
    if (this.eraNow === "legacy") {
      try {
        return await this.sendOnce(method, params, options, headers, onRequestId);
      } catch (error) {
        const reason = (error as McpClientError).data as { reason?: unknown } | undefined;
        if (!isMcpClientError(error, ClientErrorCode.TransportFailed) || reason?.reason !== "session_ended") throw error;
        // The server ended the session (404): a new one, and this request once more (spec 2025-11-25: "Session Management").
        await this.renewSession();
        return this.sendOnce(method, params, options, headers, onRequestId);
      }
    }
    try {
      return await this.sendOnce(method, params, options, headers, onRequestId);
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
      return this.sendOnce(method, params, options, headers, onRequestId);
    }
  }

  private meta(options: SendingOptions, progressToken: string | undefined): Record<string, unknown> {
    const meta: Record<string, unknown> = { ...options.meta };
    meta[META_PROTOCOL_VERSION] = this.version;
    meta[META_CLIENT_CAPABILITIES] = options[DECLARE_TASKS] ? this.taskCapabilities : this.capabilities;
    meta[META_CLIENT_INFO] = this.clientInfo;
    const level = options.logLevel ?? this.options.logLevel;
    if (level !== undefined) meta[META_LOG_LEVEL] = level;
    if (progressToken !== undefined) meta.progressToken = progressToken;
    return meta;
  }

  /** The params of an `initialize`-era request: no envelope, a `_meta` only for a progress token or the caller's entries. */
  private legacyParams(
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions,
    progressToken: string | undefined,
  ): Record<string, unknown> {
    const meta: Record<string, unknown> = { ...options.meta };
    if (progressToken !== undefined) meta.progressToken = progressToken;
    const own = Object.keys(meta).length > 0 ? { ...params, _meta: meta } : { ...params };
    return this.legacy ? this.legacy.request(method, own) : own;
  }

  private async sendOnce(
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions,
    headers: Record<string, string>,
    onRequestId?: (id: RequestId) => void,
  ): Promise<Result> {
    const transport = this.requireTransport();
    const id = this.nextId++;
    const progressToken = options.onProgress ? `progress-${id}` : undefined;
    const message: JSONRPCRequest = {
      jsonrpc: "2.0",
      id,
      method,
      params: (this.eraNow === "legacy"
        ? this.legacyParams(method, params, options, progressToken)
        : { ...params, _meta: this.meta(options, progressToken) }) as JSONRPCRequest["params"],
    };
    onRequestId?.(id);

    const userSignal = options.signal;
    if (userSignal?.aborted) throw this.cancelled(method, userSignal.reason);
    const controller = new AbortController();
    const onAbort = () => controller.abort(userSignal?.reason);
    userSignal?.addEventListener("abort", onAbort, { once: true });
    const timeout = options.timeout ?? this.options.timeout ?? DEFAULT_TIMEOUT_MS;
    let timedOut = false;
    const expire = () => {
      timedOut = true;
      controller.abort(
        new McpClientError(ClientErrorCode.RequestTimeout, `The ${method} request timed out after ${timeout} ms`, { timeout }),
      );
    };
    let timer = timeout > 0 ? setTimeout(expire, timeout) : undefined;
    // An authorization the user completes in a browser is not the server's time.
    const pauseTimeout = () => {
      if (timer === undefined) return () => {};
      clearTimeout(timer);
      timer = undefined;
      return () => {
        if (!timedOut && !controller.signal.aborted && timer === undefined) timer = setTimeout(expire, timeout);
      };
    };

    let response: Awaited<ReturnType<Transport["send"]>>;
    try {
      response = await transport.send(message, {
        signal: controller.signal,
        headers,
        onNotification: (notification) => this.onNotification(notification, options, progressToken),
        pauseTimeout,
      });
    } catch (error) {
      if (timedOut)
        throw new McpClientError(
          ClientErrorCode.RequestTimeout,
          `The ${method} request timed out after ${timeout} ms`,
          { timeout },
          "client",
          { cause: error },
        );
      if (userSignal?.aborted) throw this.cancelled(method, userSignal.reason);
      // A package that is not installed is the installation's problem: said as it is, not as a broken stream.
      if (isMcpClientError(error) || error instanceof MissingDependencyError) throw error;
      throw transportError(
        "stream_broken",
        `The ${method} request failed: ${error instanceof Error ? error.message : String(error)}`,
        {},
        error,
      );
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      userSignal?.removeEventListener("abort", onAbort);
    }

    if ("error" in response) {
      const e = response.error as { code?: unknown; message?: unknown; data?: unknown };
      const code = Number.isInteger(e?.code) ? (e.code as number) : ErrorCode.InternalError;
      const text = typeof e?.message === "string" ? e.message : "The server answered with an error without a message";
      throw new McpClientError(code, text, e?.data, "server");
    }
    const result = (response as { result?: unknown }).result;
    if (!isObject(result)) throw invalidResult(`The result of ${method} is not an object`, { result });
    return result;
  }

  private cancelled(method: string, reason: unknown): McpClientError {
    return new McpClientError(
      ClientErrorCode.RequestCancelled,
      `The ${method} request was cancelled`,
      { reason: reason instanceof Error ? reason.message : reason },
      "client",
      {
        cause: reason,
      },
    );
  }

  private onNotification(notification: JSONRPCNotification, options: RequestOptions, progressToken: string | undefined): void {
    this.invalidateFor(notification);
    try {
      if (notification.method === Method.NotificationsProgress && options.onProgress) {
        // The method names the params type; like every incoming message, they are not validated.
        const params = notification.params as NotificationParamsOf<typeof Method.NotificationsProgress> | undefined;
        if (params && params.progressToken === progressToken) options.onProgress(params);
      }
      options.onNotification?.(notification);
    } catch (error) {
      this.warn(`A notification listener threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Invalidates cached results that a change notification makes stale (spec: caching "Interaction with Notifications"). */
  private invalidateFor(notification: JSONRPCNotification): void {
    const cache = this.cache;
    if (!cache) return;
    switch (notification.method) {
      case Method.NotificationsToolsListChanged:
        cache.invalidate(Method.ToolsList);
        break;
      case Method.NotificationsPromptsListChanged:
        cache.invalidate(Method.PromptsList);
        break;
      case Method.NotificationsResourcesListChanged:
        cache.invalidate(Method.ResourcesList);
        cache.invalidate(Method.ResourcesTemplatesList);
        break;
      case Method.NotificationsResourcesUpdated: {
        const uri = (notification.params as { uri?: unknown } | undefined)?.uri;
        cache.invalidate(Method.ResourcesRead, (params) => params.uri === uri);
        break;
      }
    }
  }

  /** A complete result: reads `resultType`, refusing `input_required` (only three methods may send it). */
  private completed<R extends Result>(result: R | InputRequiredResult, method: string): R {
    if (isInputRequired(result, method)) {
      throw invalidResult(
        `The server answered ${method} with input_required, which only tools/call, prompts/get and resources/read may use`,
      );
    }
    return result;
  }

  private async cached<M extends ClientRequestMethod>(
    method: M,
    params: RequestArguments<M>,
    options: CacheableOptions,
    prepare: (result: ResponseResultOf<M>) => ResponseResultOf<M>,
  ): Promise<ResponseResultOf<M>> {
    const mode = options.cache ?? "default";
    const auth = this.cache && mode !== "bypass" ? await this.authContext() : undefined;
    if (this.cache && mode === "default") {
      const hit = this.cache.get(method, params, auth);
      // The cache keys entries by method and holds only what `store` put there for it.
      if (hit) return hit as ResponseResultOf<M>;
    }
    const result = prepare(this.completed(await this.send(method, params, options, {}), method));
    await this.store(method, params, auth, result, mode);
    return result;
  }

  /**
   * Stores a result fetched in the authorization context `auth`, unless the
   * context changed while the request was out (the result might then belong
   * to the new one).
   */
  private async store(
    method: string,
    params: Record<string, unknown>,
    auth: string | undefined,
    result: Result,
    mode: CacheMode,
  ): Promise<void> {
    if (!this.cache || mode === "bypass") return;
    if ((await this.authContext()) !== auth) return;
    if (this.eraNow === "legacy") {
      // The earlier era has no cache hints: stored only for the freshness the user chose.
      this.cache.set(method, params, auth, result, { ttlMs: this.options.legacyCacheTtlMs ?? 0, cacheScope: "private" });
      return;
    }
    this.cache.set(method, params, auth, result);
  }

  // ------------------------------------------------------ Multi Round-Trip

  /**
   * Sends a request that may answer `input_required` and resolves it:
   * `resultType` is read first; the input requests are fulfilled through the
   * handlers and the request retried with a new id, the same params, the
   * `inputResponses` under the keys asked, and the `requestState` echoed
   * byte for byte (left out when none came), up to `maxInputRounds` retries.
   */
  private async resolving<M extends InputMethod>(
    method: M,
    params: RequestArguments<M>,
    options: InputOptions,
    send: (params: RequestArguments<M>) => Promise<ResponseResultOf<M>>,
    tasksDeclared = false,
  ): Promise<{ result: ResponseResultOf<M>; rounds: number }> {
    const maxRounds = options.maxInputRounds ?? this.options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    let current: RequestArguments<M> = { ...params };
    if (options.inputResponses !== undefined) current.inputResponses = options.inputResponses;
    if (options.requestState !== undefined) current.requestState = options.requestState;
    for (let rounds = 0; ; rounds++) {
      const result = await send(current);
      if (!isInputRequired(result, method, tasksDeclared)) return { result, rounds };
      const inputRequests = result.inputRequests;
      const requestState = result.requestState;
      if (inputRequests === undefined && requestState === undefined) {
        throw invalidResult(`The server answered ${method} with input_required but neither inputRequests nor requestState`);
      }
      if (requestState !== undefined && typeof requestState !== "string")
        throw invalidResult(`The requestState of ${method}'s input_required result is not a string`);
      if (options.inputRequired === "return") return { result, rounds };
      if (rounds >= maxRounds) {
        throw new McpClientError(
          ClientErrorCode.InputRoundsExceeded,
          `The server still asked for input on ${method} after ${maxRounds} rounds`,
          { rounds: maxRounds, lastResult: result },
        );
      }
      const next: RequestArguments<M> = { ...params };
      if (inputRequests !== undefined) {
        // Only the caller's signal cuts a handler short: `timeout` bounds each round trip, not the
        // time a person takes to answer (as with the pause for an authorization in a browser).
        const signal = options.signal ?? new AbortController().signal;
        try {
          next.inputResponses = await answerInputRequests(inputRequests, this.handlers, { method, params, round: rounds + 1, signal });
        } catch (error) {
          if (signal.aborted) throw this.cancelled(method, signal.reason);
          throw error;
        }
      }
      if (requestState !== undefined) next.requestState = requestState;
      current = next;
    }
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
    return answerInputRequests(inputRequests, this.handlers, {
      method: options.method ?? "",
      params: options.params ?? {},
      round: options.round ?? 1,
      signal: options.signal ?? new AbortController().signal,
    });
  }

  // ------------------------------------------------------------- discover

  /**
   * `server/discover` (spec: server/discover): the server's supported
   * versions, capabilities, info and instructions. Cached per its hints.
   * When the version in use is not among `supportedVersions`, the client
   * switches to the first of its own versions that is.
   */
  async discover(options: CacheableOptions = {}): Promise<DiscoverResult> {
    if (this.eraNow === "legacy") {
      throw new McpClientError(
        ClientErrorCode.VersionUnsupported,
        "server/discover is a 2026-07-28 method; in the initialize era read client.serverInfo, serverCapabilities and instructions",
      );
    }
    const result = await this.cached(Method.ServerDiscover, {}, options, (r) => r);
    this.rememberServer(result);
    const supported = Array.isArray(result.supportedVersions) ? result.supportedVersions : [];
    if (supported.length > 0 && !supported.includes(this.version)) {
      const mutual = this.versions.find((v) => supported.includes(v));
      if (mutual !== undefined) this.version = mutual;
    }
    return result;
  }

  // ----------------------------------------------------------------- tools

  /**
   * One page of `tools/list`. Tools whose `x-mcp-header` annotations are
   * invalid are dropped with a warning when the transport carries headers
   * (spec: streamable-http "Schema Extension"); entries without a string
   * `name` are dropped too. Cached per the result's hints.
   * @throws McpClientError -32094 when `tools` is not an array.
   */
  async listTools(options: ListOptions = {}): Promise<ListToolsResult> {
    const params = options.cursor === undefined ? {} : { cursor: options.cursor };
    const result = await this.cached(Method.ToolsList, params, options, (r) => this.prepareTools(r));
    // Remember the definitions, from the server or from a (possibly shared) cache.
    for (const tool of result.tools) {
      const before = this.known.get(tool.name);
      if (before && stringifyJson(before.tool) === stringifyJson(tool)) continue;
      const check = toolHeaderParams(tool);
      this.known.set(tool.name, { tool, headers: check.ok ? check.params : [] });
    }
    return result;
  }

  private prepareTools(result: ListToolsResult): ListToolsResult {
    if (!Array.isArray(result.tools)) throw invalidResult("The tools/list result has no tools array");
    const mirrors = this.mirrors();
    const kept: Tool[] = [];
    // Typed by the schema, but unchecked: entries are checked one by one here.
    for (const entry of result.tools as unknown[]) {
      if (!isObject(entry) || typeof entry.name !== "string") {
        this.warn(`Dropped a tools/list entry that is not a tool: ${clip(stringifyJson(entry) ?? String(entry), 120)}`);
        continue;
      }
      // A tool has more members than `name`, but only `name` and the `x-mcp-header` annotations matter here; toolHeaderParams checks those.
      const tool = entry as Tool;
      const check = toolHeaderParams(tool);
      if (!check.ok && mirrors) {
        this.rejected.set(tool.name, check.reason);
        this.known.delete(tool.name);
        this.warn(`Rejected tool ${JSON.stringify(tool.name)}: ${check.reason}`);
        continue;
      }
      this.rejected.delete(tool.name);
      kept.push(tool);
    }
    return { ...result, tools: kept };
  }

  /**
   * Every tool, following `nextCursor` until a page has none (an empty
   * string is a cursor, not the end).
   * @throws McpClientError -32095 (`ListTooLong`) past `maxPages` pages or on a repeated cursor.
   */
  async listAllTools(options: ListAllOptions = {}): Promise<Tool[]> {
    return this.listAll<Tool>("tools", (cursor) => this.listTools({ ...options, cursor }), options);
  }

  private async listAll<T>(field: string, page: (cursor: string | undefined) => Promise<unknown>, options: ListAllOptions): Promise<T[]> {
    const maxPages = options.maxPages ?? this.options.maxPages ?? DEFAULT_MAX_PAGES;
    const items: T[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let pages = 0; ; pages++) {
      if (pages >= maxPages) {
        throw new McpClientError(ClientErrorCode.ListTooLong, `The ${field} list has more than ${maxPages} pages`, {
          field,
          maxPages,
          items: items.length,
        });
      }
      const result = (await page(cursor)) as Record<string, unknown>;
      const list = result[field];
      if (!Array.isArray(list)) throw invalidResult(`A ${field} page has no ${field} array`);
      items.push(...(list as T[]));
      const next = result.nextCursor;
      if (next === undefined || next === null) return items;
      if (typeof next !== "string") throw invalidResult(`The nextCursor of a ${field} page is not a string`);
      if (seen.has(next))
        throw new McpClientError(
          ClientErrorCode.ListTooLong,
          `The server repeated the cursor ${clip(JSON.stringify(next), 80)} while listing ${field}`,
          { field, cursor: next },
        );
      seen.add(next);
      cursor = next;
    }
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
   * `tasks/cancel` first. On a 2025-11-25 session, a tool whose
   * `execution.taskSupport` is `"required"` (or `"optional"`, with `task`)
   * is called as a task of that revision and followed to its result.
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
    if (
      this.eraNow === "legacy" &&
      callsAsLegacyTask(this.version, this.server?.capabilities, (await this.lookupTool(name, options))?.tool, options.task)
    ) {
      const port: LegacyTaskPort = {
        send: (method, params, sending) => this.sendAny(method, params, sending, {}),
        finish: (result) => this.finishToolResult(name, result, this.known.get(name), options.validateOutput),
        serverCapabilities: this.server?.capabilities,
        settings: this.taskSettings,
        warn: (message) => this.warn(message),
      };
      return callToolAsLegacyTask(port, name, args, options);
    }
    const declared = this.eraNow !== "legacy" && declaresTasks(this.capabilities);
    const { result, known } = await this.sendToolCall(name, args, options, declared);
    if (isInputRequired(result, Method.ToolsCall, declared)) return result;
    if (kindOf(result, Method.ToolsCall, declared) !== "task") return this.finishToolResult(name, result, known, options.validateOutput);
    // The extension's backward compatibility: a caller of callTool sees only the final result.
    const task = this.taskHandle(result, name, args);
    try {
      options.onTask?.(task);
    } catch (error) {
      this.warn(`An onTask listener threw: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      return await task.result({
        signal: options.signal,
        timeout: options.timeout,
        maxWaitMs: options.maxTaskWaitMs,
        maxInputRounds: options.maxInputRounds,
        onStatus: options.onTaskStatus,
        validateOutput: options.validateOutput,
      });
    } catch (error) {
      if (gaveUpTransiently(error)) {
        // The server could not be reached or read for a while; nothing says the task failed, and a
        // tasks/cancel would most likely fail the same way: it is left running for a later resume.
        this.warn(`Task ${JSON.stringify(task.taskId)} was left running: ${error instanceof Error ? error.message : String(error)}`);
        throw error;
      }
      // Nobody else knows of the task unless onTask kept it: do not leave it running.
      if (!isTerminalTaskStatus(task.status)) {
        await task
          .cancel({ timeout: Math.min(TASK_CANCEL_TIMEOUT_MS, this.options.timeout || TASK_CANCEL_TIMEOUT_MS) })
          .catch((e) => this.warn(`Could not cancel task ${JSON.stringify(task.taskId)}: ${e instanceof Error ? e.message : String(e)}`));
      }
      throw error;
    }
  }

  /**
   * `tools/call` declaring the tasks extension, for applications that want
   * the task's lifecycle (extension "Task Creation"): Multi Round-Trip rounds
   * before the task are resolved through the handlers, then the server's
   * answer is returned as it decided it: `{ task }`, a {@link TaskHandle}
   * (keep `task.taskId` to resume after a restart), or `{ result }`, the
   * complete result of a call it did not make a task of.
   * @throws McpClientError -32096 in the `initialize` era (2025-11-25 tasks
   *   are another, experimental design, which only `callTool` follows); -32094
   *   for a malformed task handle; everything `callTool` throws before a task.
   */
  async callToolAsTask(name: string, args: Record<string, unknown> = {}, options: CallToolAsTaskOptions = {}): Promise<ToolCallStart> {
    this.requireTasksEra("callToolAsTask");
    const { result, known } = await this.sendToolCall(name, args, { ...options, inputRequired: "resolve" }, true);
    if (kindOf(result, Method.ToolsCall, true) === "task") return { task: this.taskHandle(result, name, args) };
    // Resolved above: never an InputRequiredResult here.
    return { result: this.finishToolResult(name, result as CallToolResult, known, options.validateOutput) };
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
    const view = await this.getTask(taskId, options);
    // The definition (its outputSchema) checks the result, as for callTool.
    if (options.tool !== undefined) await this.lookupTool(options.tool, options);
    return new TaskHandle(this.taskPort, view, view, options.tool, options.tool === undefined ? {} : { name: options.tool });
  }

  /**
   * One `tasks/get`: the task's current state with what its status inlines.
   * @throws as {@link resumeTask}.
   */
  async getTask(taskId: string, options: TaskRequestOptions = {}): Promise<DetailedTask> {
    this.requireTasksEra(TaskMethod.Get);
    if (typeof taskId !== "string" || taskId.length === 0) throw new TypeError("getTask: taskId must be a non-empty string");
    return readDetailedTask(await this.taskPort.send(TaskMethod.Get, { taskId }, options), taskId, TaskMethod.Get);
  }

  /**
   * One `tasks/cancel` (cooperative: the task may still finish, see
   * {@link TaskHandle.cancel}).
   * @throws McpClientError -32096 in the `initialize` era; the server's error; -32094 for a malformed acknowledgement.
   */
  async cancelTask(taskId: string, options: TaskRequestOptions = {}): Promise<void> {
    this.requireTasksEra(TaskMethod.Cancel);
    if (typeof taskId !== "string" || taskId.length === 0) throw new TypeError("cancelTask: taskId must be a non-empty string");
    await cancelTask(this.taskPort, taskId, options);
  }

  private requireTasksEra(what: string): void {
    this.requireTransport();
    if (this.eraNow === "legacy") {
      throw new McpClientError(
        ClientErrorCode.VersionUnsupported,
        `${what}: the tasks extension (${TASKS_EXTENSION}) is a 2026-07-28 extension, and this server speaks the initialize era (${this.version}), whose tasks were another, experimental design, which only callTool follows`,
        { protocolVersion: this.version, extension: TASKS_EXTENSION },
      );
    }
  }

  /** Reads a task handle answered to `tools/call` of `name` and makes its {@link TaskHandle}. @throws McpClientError -32094. */
  private taskHandle(result: Result, name: string, args: Record<string, unknown>): TaskHandle {
    return new TaskHandle(this.taskPort, readCreateTaskResult(result, Method.ToolsCall), undefined, name, { name, arguments: args });
  }

  /** What task handles need of this client (see {@link TaskPort}). */
  private makeTaskPort(): TaskPort {
    return {
      send: (method, params, options) => this.sendAny(method, params, { ...options, [DECLARE_TASKS]: true } as SendingOptions, {}),
      answer: (inputRequests, context) => answerInputRequests(inputRequests, this.handlers, context),
      listen: (filter, options) => this.listen(filter, options),
      finish: (result, tool, validateOutput) => {
        if (Object.hasOwn(result, "resultType") && result.resultType !== "complete") {
          throw invalidResult(`The result inlined in a completed task has resultType ${clip(stringifyJson(result.resultType) ?? "")}`, {
            resultType: result.resultType,
          });
        }
        return this.finishToolResult(tool, result, tool === undefined ? undefined : this.known.get(tool), validateOutput);
      },
      settings: this.taskSettings,
      warn: (message) => this.warn(message),
    };
  }

  /**
   * Sends `tools/call` (headers mirrored, a -32020 retried once, Multi
   * Round-Trip rounds resolved) declaring the tasks extension when
   * `declareTasks`; the result as the server gave it.
   */
  private async sendToolCall(
    name: string,
    args: Record<string, unknown>,
    options: CallToolOptions,
    declareTasks: boolean,
  ): Promise<{ result: ResponseResultOf<"tools/call">; known: KnownTool | undefined }> {
    if (typeof name !== "string") throw new TypeError("callTool: name must be a string");
    if (!isObject(args)) throw new TypeError("callTool: args must be an object");
    let known = await this.lookupTool(name, options);
    let retriedHeaders = false;
    const sending: SendingOptions = declareTasks ? { ...options, [DECLARE_TASKS]: true } : options;
    const send = async (params: RequestArguments<"tools/call">): Promise<ResponseResultOf<"tools/call">> => {
      const transport = this.requireTransport();
      const headers = this.mirrors(transport) && known ? paramHeaders(known.headers, args) : {};
      try {
        return await this.send(Method.ToolsCall, params, sending, headers);
      } catch (error) {
        if (retriedHeaders || !isMcpClientError(error, ErrorCode.HeaderMismatch) || !this.mirrors(transport)) throw error;
        retriedHeaders = true;
        await this.listAllTools({ signal: options.signal, timeout: options.timeout, cache: "refresh" });
        const reason = this.rejected.get(name);
        if (reason !== undefined) throw this.rejectedTool(name, reason);
        known = this.known.get(name);
        const fresh = known ? paramHeaders(known.headers, args) : {};
        return this.send(Method.ToolsCall, params, sending, fresh);
      }
    };
    // `args` keeps its wider public type (any object, sent through JSON.stringify as before); the schema types it as JSON.
    const { result } = await this.resolving(
      Method.ToolsCall,
      { name, arguments: args as CallToolRequestParams["arguments"] },
      options,
      send,
      declareTasks,
    );
    return { result, known };
  }

  /** Checks a complete `tools/call` result: a `content` array, and `structuredContent` against the tool's `outputSchema`. */
  private finishToolResult(
    name: string | undefined,
    result: Result,
    known: KnownTool | undefined,
    validateOutput: boolean | undefined,
  ): CallToolResult {
    if (!Array.isArray(result.content))
      throw invalidResult(`The result of ${name === undefined ? "the task's tool" : `tool ${JSON.stringify(name)}`} has no content array`);
    // Checked just above for what callers rely on; the rest is the server's, unvalidated, as for every result.
    const checked = result as unknown as CallToolResult;
    if ((validateOutput ?? this.options.validateOutput ?? true) && known?.tool.outputSchema && checked.isError !== true) {
      this.checkOutput(known, checked);
    }
    return checked;
  }

  private rejectedTool(name: string, reason: string): McpClientError {
    return new McpClientError(
      ClientErrorCode.InvalidArguments,
      `Tool ${JSON.stringify(name)} was rejected and cannot be called: ${reason}`,
      { tool: name, reason },
    );
  }

  private async lookupTool(name: string, options: RequestOptions): Promise<KnownTool | undefined> {
    const reason = this.rejected.get(name);
    if (reason !== undefined) throw this.rejectedTool(name, reason);
    let known = this.known.get(name);
    if (!known && (this.options.lookupTools ?? true)) {
      try {
        await this.listAllTools({ signal: options.signal, timeout: options.timeout });
      } catch (error) {
        // A server that cannot list its tools can still be called: go on without
        // the definition. A cancel, a timeout or a dead transport ends the call, and so
        // does what the call would meet again: a failed authorization (the user is not
        // sent through it twice) and a package left out of the installation. A refused
        // scope is the list's own: the call may need another one.
        const code = isMcpClientError(error) ? error.code : undefined;
        if (
          code === ClientErrorCode.RequestCancelled ||
          code === ClientErrorCode.RequestTimeout ||
          code === ClientErrorCode.TransportFailed ||
          (code === ClientErrorCode.AuthorizationFailed &&
            (error as { data?: { reason?: unknown } }).data?.reason !== "insufficient_scope") ||
          error instanceof MissingDependencyError
        )
          throw error;
        this.warn(
          `Could not list the tools before calling ${JSON.stringify(name)}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const after = this.rejected.get(name);
      if (after !== undefined) throw this.rejectedTool(name, after);
      known = this.known.get(name);
    }
    return known;
  }

  private checkOutput(known: KnownTool, result: CallToolResult): void {
    const name = known.tool.name;
    if (known.validator === undefined) {
      try {
        known.validator = compileOutputSchema(known.tool.outputSchema, this.options.schemaLimits, this.options.validator);
      } catch (error) {
        if (error instanceof MissingDependencyError) throw error;
        known.validator = isMcpClientError(error)
          ? new McpClientError(error.code, `Tool ${JSON.stringify(name)}: ${error.message}`, { tool: name, ...(error.data as object) })
          : new McpClientError(ClientErrorCode.OutputSchemaUnusable, `Tool ${JSON.stringify(name)}: its outputSchema cannot be compiled`, {
              tool: name,
            });
      }
    }
    if (known.validator instanceof McpClientError) throw known.validator;
    if (!Object.hasOwn(result, "structuredContent")) {
      throw new McpClientError(
        ClientErrorCode.OutputSchemaMismatch,
        `Tool ${JSON.stringify(name)} has an outputSchema but its result has no structuredContent`,
        {
          tool: name,
          problems: [{ path: "", message: "structuredContent is missing" }],
        },
      );
    }
    // JSON reads an overflowing literal (1e400) as Infinity, which a schema's number check passes.
    const nonFinite = nonFiniteProblem(result.structuredContent);
    const problems = nonFinite ? [nonFinite, ...known.validator(result.structuredContent)] : known.validator(result.structuredContent);
    if (problems.length > 0) {
      throw new McpClientError(
        ClientErrorCode.OutputSchemaMismatch,
        `The structuredContent of tool ${JSON.stringify(name)} does not match its outputSchema: ${formatProblems(problems.slice(0, 5))}`,
        { tool: name, problems },
      );
    }
  }

  // ------------------------------------------------------------- resources

  /** One page of `resources/list`, cached per its hints. @throws McpClientError -32094 when `resources` is not an array. */
  async listResources(options: ListOptions = {}): Promise<ListResourcesResult> {
    const params = options.cursor === undefined ? {} : { cursor: options.cursor };
    return this.cached(Method.ResourcesList, params, options, (r) => expectArray(r, "resources"));
  }

  /** Every resource, page after page (see {@link listAllTools}). */
  async listAllResources(options: ListAllOptions = {}): Promise<Resource[]> {
    return this.listAll<Resource>("resources", (cursor) => this.listResources({ ...options, cursor }), options);
  }

  /** One page of `resources/templates/list`, cached per its hints. */
  async listResourceTemplates(options: ListOptions = {}): Promise<ListResourceTemplatesResult> {
    const params = options.cursor === undefined ? {} : { cursor: options.cursor };
    return this.cached(Method.ResourcesTemplatesList, params, options, (r) => expectArray(r, "resourceTemplates"));
  }

  /** Every resource template, page after page (see {@link listAllTools}). */
  async listAllResourceTemplates(options: ListAllOptions = {}): Promise<ResourceTemplate[]> {
    return this.listAll<ResourceTemplate>("resourceTemplates", (cursor) => this.listResourceTemplates({ ...options, cursor }), options);
  }

  /**
   * `resources/read`. May answer `input_required` (resolved as for
   * `callTool`). A result reached without input rounds is cached per its
   * hints; one reached through them never is.
   */
  async readResource(uri: string, options?: InputOptions & CacheableOptions & { inputRequired?: "resolve" }): Promise<ReadResourceResult>;
  async readResource(uri: string, options: InputOptions & CacheableOptions): Promise<ReadResourceResult | InputRequiredResult>;
  async readResource(uri: string, options: InputOptions & CacheableOptions = {}): Promise<ReadResourceResult | InputRequiredResult> {
    if (typeof uri !== "string") throw new TypeError("readResource: uri must be a string");
    const params = { uri };
    const mode = options.cache ?? "default";
    const auth = this.cache && mode !== "bypass" ? await this.authContext() : undefined;
    const resuming = options.inputResponses !== undefined || options.requestState !== undefined;
    if (this.cache && mode === "default" && !resuming) {
      const hit = this.cache.get(Method.ResourcesRead, params, auth);
      // The cache keys entries by method and holds only what `store` put there for it.
      if (hit) return hit as ReadResourceResult;
    }
    const { result, rounds } = await this.resolving(Method.ResourcesRead, params, options, (p) =>
      this.send(Method.ResourcesRead, p, options, {}),
    );
    if (isInputRequired(result, Method.ResourcesRead)) return result;
    expectArray(result, "contents");
    if (rounds === 0 && !resuming && CACHEABLE_METHODS.has(Method.ResourcesRead))
      await this.store(Method.ResourcesRead, params, auth, result, mode);
    return result;
  }

  // --------------------------------------------------------------- prompts

  /** One page of `prompts/list`, cached per its hints. */
  async listPrompts(options: ListOptions = {}): Promise<ListPromptsResult> {
    const params = options.cursor === undefined ? {} : { cursor: options.cursor };
    return this.cached(Method.PromptsList, params, options, (r) => expectArray(r, "prompts"));
  }

  /** Every prompt, page after page (see {@link listAllTools}). */
  async listAllPrompts(options: ListAllOptions = {}): Promise<Prompt[]> {
    return this.listAll<Prompt>("prompts", (cursor) => this.listPrompts({ ...options, cursor }), options);
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
    if (typeof name !== "string") throw new TypeError("getPrompt: name must be a string");
    const params: RequestArguments<"prompts/get"> = { name };
    if (args !== undefined) params.arguments = args;
    const { result } = await this.resolving(Method.PromptsGet, params, options, (p) => this.send(Method.PromptsGet, p, options, {}));
    if (isInputRequired(result, Method.PromptsGet)) return result;
    return expectArray(result, "messages");
  }

  // ------------------------------------------------------------ completion

  /** `completion/complete`: suggestions for a prompt or resource-template argument. */
  async complete(params: RequestArguments<"completion/complete">, options: RequestOptions = {}): Promise<CompleteResult> {
    const result = this.completed(await this.send(Method.CompletionComplete, params, options, {}), Method.CompletionComplete);
    if (!isObject(result.completion) || !Array.isArray(result.completion.values))
      throw invalidResult("The completion/complete result has no completion.values array");
    return result;
  }

  // ---------------------------------------------------------- subscriptions

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
    this.requireLegacy("resources/subscribe");
    if (typeof uri !== "string") throw new TypeError("subscribeResource: uri must be a string");
    await this.sendAny("resources/subscribe", { uri }, options, {});
    this.subscribedUris.add(uri);
  }

  /** `resources/unsubscribe` (the `initialize` era). @throws as {@link subscribeResource}. */
  async unsubscribeResource(uri: string, options: RequestOptions = {}): Promise<void> {
    this.requireLegacy("resources/unsubscribe");
    this.subscribedUris.delete(uri);
    await this.sendAny("resources/unsubscribe", { uri }, options, {});
  }

  private requireLegacy(method: string): void {
    if (this.eraNow !== "legacy") {
      throw new McpClientError(
        ClientErrorCode.VersionUnsupported,
        `${method} belongs to the initialize era; in 2026-07-28 use listen({ resourceSubscriptions })`,
        { method },
      );
    }
  }

  /**
   * `listen` in the `initialize` era: the session's notifications that
   * `filter` asks for, with `resources/subscribe` for each URI of
   * `resourceSubscriptions` (and `resources/unsubscribe` on close). The
   * acknowledged filter keeps what the server's capabilities offer.
   */
  private listenLegacy(filter: SubscriptionFilter, options: Omit<RequestOptions, "timeout" | "onProgress">): Subscription {
    const queue: JSONRPCNotification[] = [];
    let wake: (() => void) | undefined;
    let finished = false;
    const notify = () => {
      wake?.();
      wake = undefined;
    };
    const uris = new Set(Array.isArray(filter.resourceSubscriptions) ? filter.resourceSubscriptions : []);
    const wanted = (n: JSONRPCNotification): boolean => {
      switch (n.method) {
        case Method.NotificationsToolsListChanged:
          return filter.toolsListChanged === true;
        case Method.NotificationsPromptsListChanged:
          return filter.promptsListChanged === true;
        case Method.NotificationsResourcesListChanged:
          return filter.resourcesListChanged === true;
        case Method.NotificationsResourcesUpdated:
          return uris.has((n.params as { uri?: string } | undefined)?.uri ?? "");
        default:
          return false;
      }
    };
    const listener = (n: JSONRPCNotification) => {
      if (finished || !wanted(n)) return;
      options.onNotification?.(n);
      queue.push(n);
      if (queue.length > 1000) {
        queue.shift();
        this.warn("A subscription dropped its oldest unread notification (more than 1000 waiting)");
      }
      notify();
    };
    this.sessionListeners.add(listener);
    const caps = this.server?.capabilities ?? {};
    const offers = (feature: string, flag: string) => isObject(caps[feature]) && (caps[feature] as Record<string, unknown>)[flag] === true;
    const acknowledged = (async (): Promise<SubscriptionFilter> => {
      for (const uri of uris) await this.subscribeResource(uri, { signal: options.signal });
      const agreed: SubscriptionFilter = {};
      if (filter.toolsListChanged && offers("tools", "listChanged")) agreed.toolsListChanged = true;
      if (filter.promptsListChanged && offers("prompts", "listChanged")) agreed.promptsListChanged = true;
      if (filter.resourcesListChanged && offers("resources", "listChanged")) agreed.resourcesListChanged = true;
      if (uris.size > 0) agreed.resourceSubscriptions = [...uris];
      return agreed;
    })();
    let endNow: (value: { graceful: boolean }) => void = () => {};
    const ended = new Promise<{ graceful: boolean }>((resolve) => (endNow = resolve));
    const close = async () => {
      if (finished) return;
      finished = true;
      this.sessionListeners.delete(listener);
      notify();
      await acknowledged.catch(() => {});
      for (const uri of uris) if (this.eraNow === "legacy") await this.unsubscribeResource(uri).catch(() => {});
      endNow({ graceful: false });
    };
    acknowledged.catch(() => close());
    options.signal?.addEventListener("abort", () => void close(), { once: true });
    return {
      acknowledged,
      ended,
      close,
      [Symbol.asyncIterator]: () => ({
        next: async (): Promise<IteratorResult<JSONRPCNotification>> => {
          while (queue.length === 0 && !finished) await new Promise<void>((resolve) => (wake = resolve));
          if (queue.length > 0) return { value: queue.shift()!, done: false };
          return { value: undefined, done: true };
        },
        return: async (): Promise<IteratorResult<JSONRPCNotification>> => {
          await close();
          return { value: undefined, done: true };
        },
      }),
    };
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
   * notifications and `resources/subscribe` (see `listenLegacy`).
   */
  listen(filter: SubscriptionFilter, options: Omit<RequestOptions, "timeout" | "onProgress"> = {}): Subscription {
    if (this.eraNow === "legacy") return this.listenLegacy(filter, options);
    const queue: JSONRPCNotification[] = [];
    let wake: (() => void) | undefined;
    let finished = false;
    let failure: unknown;
    let currentId: RequestId | undefined;
    let acknowledge: (filter: SubscriptionFilter) => void = () => {};
    let refuse: (error: unknown) => void = () => {};
    const acknowledged = new Promise<SubscriptionFilter>((resolve, reject) => {
      acknowledge = resolve;
      refuse = reject;
    });
    acknowledged.catch(() => {});
    const controller = new AbortController();
    const outer = options.signal;
    const onOuterAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted) controller.abort(outer.reason);
    outer?.addEventListener("abort", onOuterAbort, { once: true });
    const notify = () => {
      wake?.();
      wake = undefined;
    };
    const onNotification = (notification: JSONRPCNotification) => {
      const meta = (notification.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
      const owner = meta?.[META_SUBSCRIPTION_ID];
      if (owner !== undefined && owner !== currentId) return;
      if (notification.method === Method.NotificationsSubscriptionsAcknowledged) {
        acknowledge(
          ((notification.params as { notifications?: SubscriptionFilter } | undefined)?.notifications ?? {}) as SubscriptionFilter,
        );
        return;
      }
      options.onNotification?.(notification);
      queue.push(notification);
      if (queue.length > 1000) {
        queue.shift();
        this.warn("A subscription dropped its oldest unread notification (more than 1000 waiting)");
      }
      notify();
    };
    const tasksAsked = Array.isArray(filter.taskIds) && filter.taskIds.length > 0;
    const ended = this.send(
      Method.SubscriptionsListen,
      { notifications: filter },
      { ...options, signal: controller.signal, timeout: 0, onNotification, [DECLARE_TASKS]: tasksAsked } as SendingOptions,
      {},
      (id) => {
        currentId = id;
      },
    ).then(
      (result) => {
        finished = true;
        outer?.removeEventListener("abort", onOuterAbort);
        refuse(invalidResult("The subscription ended before it was acknowledged"));
        notify();
        kindOf(result, Method.SubscriptionsListen);
        return { graceful: true };
      },
      (error) => {
        finished = true;
        outer?.removeEventListener("abort", onOuterAbort);
        refuse(error);
        notify();
        if (isMcpClientError(error, ClientErrorCode.RequestCancelled)) return { graceful: false };
        failure = error;
        throw error;
      },
    );
    ended.catch(() => {});
    const close = async () => {
      controller.abort();
      await ended.catch(() => {});
    };
    return {
      acknowledged,
      ended,
      close,
      [Symbol.asyncIterator]: () => ({
        next: async (): Promise<IteratorResult<JSONRPCNotification>> => {
          while (queue.length === 0 && !finished) await new Promise<void>((resolve) => (wake = resolve));
          if (queue.length > 0) return { value: queue.shift()!, done: false };
          if (failure !== undefined) throw failure;
          return { value: undefined, done: true };
        },
        return: async (): Promise<IteratorResult<JSONRPCNotification>> => {
          await close();
          return { value: undefined, done: true };
        },
      }),
    };
  }
}

function expectArray<R extends Result>(result: R, field: string): R {
  if (!Array.isArray(result[field])) throw invalidResult(`The result has no ${field} array`, { field });
  return result;
}
