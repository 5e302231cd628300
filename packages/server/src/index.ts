/**
 * `@x/server`: an MCP server for protocol revision 2026-07-28. The public
 * names, and only those: the server and its options, the handler types of
 * each feature, the request context, Multi Round-Trip asks, errors, and the
 * transports. Action tools are on `@x/server/actions`, token verifiers on `@x/server/auth`, diagnostics channels
 * on `@x/server/telemetry`, test helpers on `@x/server/testing`.
 *
 * @module @x/server
 */
export type { CacheableMethod, CacheOptions } from "./cache.js";
export { LOG_LEVELS, RESERVED_ASSIGNS_PREFIX, type RequestContext, type TransportInfo } from "./context.js";
export type { Inbound, InboundRequest, JSONRPCResponse, Outcome } from "./dispatch.js";
export { isMcpError, isProtocolError, McpError, SERVER_BUSY } from "./errors.js";
export { type Completer, MAX_COMPLETION_VALUES } from "./features/completion.js";
export type { PromptArguments, PromptConfig, PromptHandler, PromptHandlerResult } from "./features/prompts.js";
export type {
  ReadHandler,
  ReadHandlerResult,
  ResourceConfig,
  ResourceContents,
  ResourceMetadata,
  ResourceTemplateConfig,
  TemplateReadHandler,
  TemplateVariables,
} from "./features/resources.js";
export {
  DEFAULT_TOOL_TIMEOUT_MS,
  type InputSchema,
  type OutputSchema,
  type SchemaType,
  type ToolArguments,
  type ToolConfig,
  type ToolHandler,
  type ToolHandlerResult,
  type ToolConfigCheck,
  type ToolResultOf,
  type TypedToolResult,
  type WithBigIntegers,
} from "./features/tools/define.js";
export type { BigIntegers } from "./numbers.js";
export { TOOL_NAME_PATTERN } from "./features/tools/index.js";
export type { KeyRing } from "./keys.js";
export {
  type Ask,
  type AskOptions,
  type ElicitAnswer,
  type ElicitationSchema,
  type ElicitContent,
  isNotSupported,
  type NotSupported,
  type RootsAnswer,
  type SampleAnswer,
  type StandardElicitAnswer,
  type StandardElicitResult,
} from "./mrtr/asks.js";
export { InputRequiredSignal } from "./route.js";
export type { ServerInfo, ServerOptions, TasksOptions } from "./options.js";
export { BusTopic, type BusTopicName, type EventBus, MemoryEventBus } from "./bus.js";
export {
  DEFAULT_MAX_STORED_TASKS,
  MemoryTaskStore,
  TaskLimitError,
  type TaskPage,
  type TaskPatch,
  type TaskRecord,
  type TaskStore,
  type TaskUpdate,
} from "./tasks/store.js";
export { MissingDependencyError } from "./runtime-deps.js";
/**
 * The JSON Schema validators (see `ServerOptions.validator`): the one that
 * generates no code. ajv's is on `@x/server/ajv`, so that a bundle that does
 * not name it carries no ajv.
 */
export { cfworkerValidator, type JsonSchemaValidator, type ValidatorProblem } from "@x/json-schema";
export { defaultValidator } from "./schema.js";
export { McpServer } from "./server.js";
export type { AuthInfo } from "./authorization.js";
export {
  type AuthOptions,
  type AuthRequest,
  PROTECTED_RESOURCE_WELL_KNOWN,
  type ProtectedResourceMetadata,
  type VerifyAccessToken,
} from "./transports/http/auth.js";
export type { CorsOptions, HttpTransportOptions } from "./transports/http/core.js";
export { createFetchHandler } from "./transports/http/fetch.js";
export { DEFAULT_SSE_RETRY_MS, type LegacyHttpOptions } from "./transports/http/legacy.js";
export {
  DEFAULT_MAX_REQUESTS_PER_SESSION,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
  DEFAULT_SESSION_IDLE_MS,
} from "./transports/http/session-table.js";
export {
  DEFAULT_MAX_EVENTS_PER_SESSION,
  type EventStore,
  MemoryEventStore,
  MemorySessionStore,
  type SessionStore,
  type StoredEvent,
} from "./transports/http/sessions.js";
export {
  ClientRequestError,
  DEFAULT_CLIENT_REQUEST_TIMEOUT_MS,
  LegacySession,
  MAX_PENDING_CLIENT_REQUESTS,
} from "./revisions/initialize/session.js";
export { MAX_BATCH_MESSAGES } from "./revisions/initialize/batch.js";
export { type ListenOptions, listen, type RunningHttpServer } from "./transports/http/listen.js";
export { createNodeHandler, type NodeHandler, type NodeHandlerOptions } from "./transports/http/node.js";
export {
  configureNodeServer,
  NODE_SERVER_DEFAULTS,
  type NodeServerOptions,
  type NodeServerSettings,
  nodeServerSettings,
} from "./transports/http/node-server.js";
export { MAX_EARLY_MESSAGES, type StdioOptions, serveStdio } from "./transports/stdio.js";
