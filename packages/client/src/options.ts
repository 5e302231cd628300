/**
 * The options of a {@link Client} and of its requests, and the types its
 * methods take, in one place that the client, its features and its
 * revisions import.
 */
import type {
  CallToolResult,
  ClientCapabilities,
  ClientRequestMethod,
  InputRequiredResult,
  InputResponses,
  JSONRPCNotification,
  LoggingLevel,
  ParamsOf,
  ProgressNotificationParams,
  ResponseResultOf,
  SubscriptionFilter,
} from "@x/mcp-v2607";
import type { InitializeEraVersion } from "@x/mcp-v2511/wire";
import type { DetailedTask } from "@x/mcp-v2607/tasks";
import { rejectUnknown } from "./auth/options.js";
import type { LegacyTaskCallOptions } from "./revisions/initialize/tasks.js";
import type { ResponseCache, ResponseCacheOptions } from "./cache.js";
import type { InputHandlers } from "./mrtr.js";
import type { JsonSchemaValidator, SchemaLimits } from "./schema.js";
import type { WaitFor } from "./suspend.js";
import type { TaskHandle, TaskRequestOptions, TasksOptions } from "./tasks.js";

/**
 * Which protocol a {@link Client} speaks: `"auto"` probes with
 * `server/discover` and falls back to `initialize` when the server is of the
 * earlier era (spec 2026-07-28: basic/versioning "Backward Compatibility");
 * a version pins it without probing: `"2026-07-28"`, or one of the
 * `initialize` era (`"2025-11-25"`, `"2025-06-18"`, `"2025-03-26"`,
 * `"2024-11-05"`), which `initialize` then asks for and the server must
 * answer (another answer fails `connect` with -32096). A client that
 * negotiated a version sends only what it defines.
 */
export type ProtocolChoice = "auto" | "2026-07-28" | InitializeEraVersion;

/**
 * The era a connected client speaks: `"modern"` (2026-07-28, a `_meta`
 * envelope on every request, no session) or `"legacy"` (the `initialize`
 * handshake and a session), the spec's own terms (basic/versioning "Terminology").
 */
export type Era = "modern" | "legacy";

/** Default of `ClientOptions.maxInputRounds`: Multi Round-Trip rounds per request. */
export const DEFAULT_MAX_INPUT_ROUNDS = 10;
/** Default of `ClientOptions.timeout`: one round trip, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/**
 * Most server-to-client requests (the `initialize` era) answered at once;
 * past it, a request is answered -32603 at once, so that a server cannot
 * make the client hold unbounded state.
 */
export const MAX_SERVER_REQUESTS = 64;
/** Default of `ClientOptions.maxPages`: the page cap of the `listAll*` helpers. */
export const DEFAULT_MAX_PAGES = 100;

/**
 * Marks a request whose client capabilities declare the tasks extension
 * whatever the client's default (`tasks/*`, `callToolAsTask`, a listen for
 * task statuses). Not exported from the package, so no caller can set it.
 */
export const DECLARE_TASKS: unique symbol = Symbol("declareTasks");
/** {@link RequestOptions} as the client passes them inside. */
export type SendingOptions = RequestOptions & { [DECLARE_TASKS]?: boolean };

/** Options of a {@link Client}. */
export interface ClientOptions {
  /**
   * Which protocol to speak (see {@link ProtocolChoice}). `"auto"` (default):
   * `connect` probes with `server/discover` (bounded by `probeTimeout`) and
   * falls back to `initialize` when the server is of the earlier era: over
   * HTTP on a 4xx or JSON-RPC error that is not one of the 2026 errors
   * (-32020, -32021, -32022) or on a result that is not a `DiscoverResult`;
   * over stdio also on silence, on the same process. A transport that cannot
   * carry a session (`InMemoryTransport`) is not probed and speaks 2026-07-28;
   * the HTTP+SSE transport of 2024-11-05 (`SseTransport`) is not probed either
   * and goes straight to `initialize`.
   * `"2026-07-28"` sends nothing on `connect`; a version of the `initialize`
   * era goes straight to `initialize`, asking for that version.
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
  /**
   * Most server-to-client requests (the `initialize` era) answered at once;
   * past it, a request is answered -32603 at once, so that a server cannot
   * make the client hold unbounded state. Default 64.
   */
  maxServerRequests?: number;
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

/** Every member of {@link ClientOptions}: a member added there must be added here to compile. */
const CLIENT_OPTIONS: Record<keyof ClientOptions, true> = {
  protocol: true,
  probeTimeout: true,
  onNotification: true,
  legacyCacheTtlMs: true,
  capabilities: true,
  handlers: true,
  waitFor: true,
  maxServerRequests: true,
  maxInputRounds: true,
  timeout: true,
  protocolVersions: true,
  cache: true,
  authContext: true,
  validateOutput: true,
  schemaLimits: true,
  validator: true,
  maxPages: true,
  logLevel: true,
  lookupTools: true,
  onWarning: true,
  tasks: true,
};

/**
 * Checks the options of a `Client` where they are given.
 * @throws TypeError naming a member `ClientOptions` does not have (a misspelling is otherwise ignored), or a bound that is not a non-negative integer.
 */
export function checkClientOptions(options: ClientOptions): void {
  rejectUnknown("Client", options, Object.keys(CLIENT_OPTIONS));
  for (const key of ["maxInputRounds", "timeout", "maxPages", "probeTimeout", "legacyCacheTtlMs", "maxServerRequests"] as const) {
    const value = options[key];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 0))
      throw new TypeError(`${key} must be a non-negative integer, got ${value}`);
  }
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

/**
 * A result object as it came off the wire: only known to be an object. Not
 * the schema's `Result`, which requires `resultType`: a server of an older
 * revision leaves it out, and that must still read as complete.
 */
export type Result = Record<string, unknown>;

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
export type InputMethod = { [M in ClientRequestMethod]: InputRequiredResult extends ResponseResultOf<M> ? M : never }[ClientRequestMethod];
