/**
 * The server's identity and options (spec 2026-07-28, server/discover for
 * the identity; each option names the part of the spec it configures).
 */
import type { JsonSchemaValidator } from "@x/json-schema";
import { rejectUnknown } from "@x/jsonrpc";
import type { Implementation, RequestId } from "@x/mcp-v2607";
import type { CacheOptions } from "./cache.js";
import type { EventBus, MemoryEventBus } from "./bus.js";
import type { RequestContext } from "./context.js";
import type { McpServer } from "./server.js";
import type { TaskStore } from "./task-store.js";

/**
 * Who the server is: the spec's `Implementation` (2026-07-28 and
 * 2025-11-25): `name` and `version` (required), `title`, `description`,
 * `websiteUrl` and `icons` (each a `src` URI, optional `mimeType`, `sizes`,
 * `theme`). Published in `server/discover`, in every 2026-07-28 result's
 * `_meta` and as `InitializeResult.serverInfo`, reduced there to what the
 * negotiated version defines (`name` and `version` alone before 2025-06-18;
 * `title` from 2025-06-18; `description`, `websiteUrl` and `icons` from
 * 2025-11-25). The members are picked, so that a misspelt one does not
 * compile (the spec's `Implementation` is open to any member).
 */
export type ServerInfo = Pick<Implementation, "name" | "version" | "title" | "description" | "websiteUrl" | "icons">;

const INFO_TEXTS = ["title", "description", "websiteUrl"] as const;

/**
 * The `Implementation` the server publishes, frozen: every 2026-07-28 answer
 * carries it, and its JSON text is written once and kept. Icons are taken
 * as given, as a prompt's or a resource's are (typed by the spec's `Icon`).
 *
 * @throws TypeError when `name` or `version` is missing or empty, or `title`,
 *   `description` or `websiteUrl` is not a string.
 */
export function serverImplementation(info: ServerInfo): Readonly<Implementation> {
  if (typeof info?.name !== "string" || info.name === "") throw new TypeError("server name is required");
  if (typeof info.version !== "string" || info.version === "") throw new TypeError("server version is required");
  const implementation: Implementation = { name: info.name, version: info.version };
  // Strings only: the text is kept, so a URL object changed later would leave it stale.
  for (const key of INFO_TEXTS) {
    const value = info[key];
    if (value === undefined) continue;
    if (typeof value !== "string") throw new TypeError(`server ${key} must be a string`);
    implementation[key] = value;
  }
  if (info.icons !== undefined) implementation.icons = info.icons;
  return Object.freeze(implementation);
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
   * Refuse, at registration, a tool schema (`inputSchema`, `outputSchema`)
   * with a keyword its dialect does not define, such as a misspelt
   * `properies` (JSON Schema would ignore it, and its check with it).
   * Keywords starting with `x-` are extensions and always allowed.
   * Default true; set false to allow other keywords. A Standard Schema's
   * JSON Schema conversion is not checked this way: its library wrote it.
   */
  strictSchemas?: boolean;
  /**
   * The JSON Schema validator of the user schemas this server compiles (a
   * tool's `inputSchema` and `outputSchema`, an elicitation's
   * `requestedSchema`): `cfworkerValidator` (no code generation, exported
   * here) or `ajvValidator` (`@x/server/ajv`). A bundle carries the one named
   * here and no other. Default: `defaultValidator()`, looked up at the first
   * JSON Schema: on Node, Bun and Deno ajv (the cfworker validator where code
   * generation is forbidden), found at run time beside `@x/server` and never
   * bundled, so a bundled server naming none has none and `registerTool` of
   * a JSON Schema tool throws a TypeError naming this option; under the
   * workerd, worker and browser conditions `@cfworker/json-schema`, which the
   * bundle carries. A server whose tools all take Standard Schemas needs
   * none. The protocol's own messages are checked without a validator
   * (`documentCheck` of `@x/json-schema`).
   */
  validator?: JsonSchemaValidator;
  /**
   * Declare the `logging` capability so that `ctx.log` sends `notifications/message`.
   * @deprecated Logging is deprecated by the 2026-07-28 spec.
   */
  logging?: boolean;
  /**
   * Most `subscriptions/listen` streams open at once; past it a listen is refused with -32000. Default 1000.
   * Over HTTP each open stream is also one of the transport's `maxConcurrentRequests` (default 1024,
   * 503 past it): raising this above about 1000 needs that raised too.
   */
  maxListenStreams?: number;
  /**
   * Who is asking, for binding `requestState` to a principal (for example the
   * subject of a verified bearer token in `ctx.assigns`). A state sealed for one
   * principal is refused for another. Default: the subject and client of
   * the request's verified bearer token (`ctx.auth`, HTTP `auth` option), or
   * a digest of the token when it names neither, else no principal.
   */
  principal?: (ctx: RequestContext) => string | undefined;
  /** How long a sealed `requestState` stays valid, in milliseconds. Default 600 000 (10 minutes). */
  requestStateTtlMs?: number;
  /**
   * Called with every error a handler threw that is answered as -32603
   * "Internal error" (its text is never sent to the client). Default: one
   * line on stderr with the error's stack, and nothing for an error whose
   * `reported` member is `true` (a task store or event bus that reported its
   * outage once already, as `@x/redis` does). Tool faults are not errors of
   * this kind: they are answered as `isError` results (see `toolTimeoutMs`
   * and the `x-mcp:tool:error` channel).
   * Also called, with `requestId` undefined and `method` saying what failed,
   * for a failure no request awaits: a task's store write after its handle
   * was sent, or an event bus that cannot publish or subscribe.
   */
  onError?: (error: unknown, info: { method: string; requestId: RequestId | undefined }) => void;
  /**
   * How long a tool call may run, in milliseconds, before it is answered with
   * a `tool_fault` result and its `ctx.signal` is aborted (a tool's own
   * `timeoutMs` wins). 0 turns the limit off. Default 60 000. Time the tool
   * waits on the client (an ask sent as a request on a session) does not count:
   * `clientRequestTimeoutMs` bounds that.
   */
  toolTimeoutMs?: number;
  /**
   * Removed: a tool opts in to exact integers with its own
   * `ToolConfig.bigIntegers`, whose handler type follows; every other
   * handler receives an integer beyond ±(2^53 − 1) as the double `JSON.parse`
   * gives (README "Numbers"). A server-wide choice could not change the
   * types of handlers registered on it.
   * @deprecated Set `bigIntegers` on each tool that needs exact integers.
   * @throws TypeError (from the constructor) for any value.
   */
  bigIntegers?: never;
  /**
   * The protocol versions served, any of `"2026-07-28"` (required) and the
   * `initialize` era's `"2025-11-25"`, `"2025-06-18"`, `"2025-03-26"`,
   * `"2024-11-05"`. Default: all five. With only `["2026-07-28"]` the
   * deployment refuses the earlier era as a 2026-only server does (spec
   * 2026-07-28, basic/versioning and basic/transports "Backward
   * Compatibility"): `initialize` is answered -32022 naming the supported
   * versions (HTTP 400), GET and DELETE get 405, `Mcp-Session-Id` is ignored.
   * The `McpServer` of `@x/server/v2607` serves `"2026-07-28"` alone: its
   * default, and the only version it accepts here.
   * @throws RangeError (from the constructor) for any other value.
   */
  protocolVersions?: readonly string[];
  /**
   * How long a server-to-client request of an `initialize`-era session
   * (`ctx.elicit`, `ctx.createMessage`, `ctx.listRoots`) waits for the
   * client's answer, in milliseconds, before the handler's ask fails with a
   * `ClientRequestError` (-32001) whose message names the method, the
   * elicitation's message (or the request's id) and this limit
   * (`notifications/cancelled` is sent). The tool's own limit
   * (`toolTimeoutMs`) is held during the wait. 0: no limit. Default 60 000.
   * Read by the `initialize` era only (not by the `McpServer` of `@x/server/v2607`).
   * @throws RangeError (from the constructor) unless an integer of at least 0.
   */
  clientRequestTimeoutMs?: number;
  /**
   * The tasks plug-in: `tasks({ store, ttlMs, ... })` of `@x/server/tasks`
   * (the tasks extension, `io.modelcontextprotocol/tasks`, on 2026-07-28,
   * and the tasks of 2025-11-25 on `initialize`-era sessions). Tools opt in
   * with `taskSupport`, which `registerTool` refuses (TypeError) on a server
   * without it; the extension is announced in `server/discover` once a tool
   * allows tasks. Default: none, and a bundle carries no task code.
   * @throws TypeError (from the constructor) for anything but the plug-in (the options object it replaced included).
   */
  tasks?: TasksPlugin;
  /**
   * The bus that carries list changes, resource updates, task statuses and
   * task controls between the instances of one deployment. Default: one
   * process ({@link MemoryEventBus}). Several instances behind a balancer
   * share one (`@x/redis`).
   */
  eventBus?: EventBus;
}

/** Every member of {@link ServerOptions}: a member added there must be added here to compile. */
const SERVER_OPTIONS: Record<keyof ServerOptions, true> = {
  instructions: true,
  cache: true,
  pageSize: true,
  requestStateKeys: true,
  strictToolNames: true,
  strictSchemas: true,
  validator: true,
  logging: true,
  maxListenStreams: true,
  principal: true,
  requestStateTtlMs: true,
  onError: true,
  toolTimeoutMs: true,
  bigIntegers: true,
  protocolVersions: true,
  clientRequestTimeoutMs: true,
  tasks: true,
  eventBus: true,
};
const SERVER_OPTION_KEYS = Object.keys(SERVER_OPTIONS);

/** @throws TypeError naming a member of `options` that is not a server option (and the option it is closest to). */
export function checkServerOptionNames(options: ServerOptions): void {
  rejectUnknown("McpServer", options, SERVER_OPTION_KEYS);
}

/**
 * The tasks plug-in as a server takes it (`ServerOptions.tasks`): made by
 * `tasks()` of `@x/server/tasks`, which is the only maker of one.
 */
export interface TasksPlugin {
  /**
   * Installs the plug-in on `server` while its constructor runs (once per
   * server): its task methods, its capabilities, its say in tool calls.
   * Called by `McpServer`; never call it yourself.
   * @returns the store the server keeps its tasks in (`McpServer.taskStore`).
   */
  install(server: McpServer): TaskStore;
}
