/**
 * `@x/server/v2607`: an MCP server for protocol revision 2026-07-28 alone,
 * every request carrying its own version (no `initialize` handshake, no
 * sessions): the same `McpServer` registration API and transports as
 * `@x/server`, whose `McpServer` adds the versions of the `initialize` era
 * (2025-11-25 back to 2024-11-05). A program that imports only this entry
 * bundles none of that era's code. `protocolVersions` naming another
 * version than 2026-07-28 is a RangeError here. The tasks plug-in is on
 * `@x/server/tasks`.
 *
 * @module @x/server/v2607
 */
export type { CacheableMethod, CacheOptions } from "./cache.js";
export { LOG_LEVELS, RESERVED_ASSIGNS_PREFIX, type RequestContext, type TransportInfo } from "./context.js";
export type { Inbound, InboundRequest, JSONRPCResponse, Outcome } from "./dispatch.js";
export { ClientRequestError, isMcpError, isProtocolError, McpError, SERVER_BUSY } from "./errors.js";
export { type Completer, MAX_COMPLETION_VALUES } from "./features/completion.js";
export type { HandlerResult } from "./features/feature.js";
export type {
  PromptArguments,
  PromptArgumentsSchema,
  PromptArgumentValues,
  PromptConfig,
  PromptHandler,
  PromptHandlerResult,
} from "./features/prompts.js";
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
  type ElicitContentOf,
  isNotSupported,
  type JsonElicitAnswer,
  type NotSupported,
  type ReadonlyArrays,
  type RequestedSchemaLiteral,
  type RootsAnswer,
  type SampleAnswer,
  type StandardElicitAnswer,
  type StandardElicitResult,
} from "./mrtr/asks.js";
export { InputRequiredSignal } from "./route.js";
export type { ServerInfo, ServerOptions, TasksPlugin } from "./options.js";
export { BusTopic, type BusTopicName, type EventBus, MemoryEventBus } from "./bus.js";
/** The task store's contract (types only: the tasks plug-in and `MemoryTaskStore` are on `@x/server/tasks`). */
export type { TaskPage, TaskPatch, TaskRecord, TaskStore, TaskUpdate } from "./task-store.js";
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
export type { CorsOptions, HttpTransportOptions } from "./transports/http/options.js";
export { createFetchHandler } from "./transports/http/fetch.js";
export { type ListenOptions, listen, type RunningHttpServer } from "./transports/http/listen.js";
export { createNodeHandler, type NodeHandler, type NodeHandlerOptions } from "./transports/http/node.js";
export {
  configureNodeServer,
  NODE_SERVER_DEFAULTS,
  type NodeServerOptions,
  type NodeServerSettings,
  nodeServerSettings,
} from "./transports/http/node-server.js";
export { type StdioOptions, serveStdio } from "./transports/stdio.js";
