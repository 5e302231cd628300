/**
 * `@x/server/core`: the MCP server without action tools, for servers that
 * want the smallest bundle. Everything of `@x/server` except
 * `registerActionTool`, `defineActionTool` and the other action-tool exports;
 * its `McpServer` is the class that `@x/server`'s `McpServer` extends, and
 * every transport takes either.
 */
export { HELP_TOOL } from "./actions/gates.js";
export type { CacheableMethod, CacheOptions } from "./cache.js";
export { type Completer, MAX_COMPLETION_VALUES } from "./completion.js";
export { filterAssigns, LOG_LEVELS, RESERVED_ASSIGNS_PREFIX, type RequestContext, type TransportInfo } from "./context.js";
export { isMcpError, isProtocolError, McpError, statusForEnvelopeError, statusForHandlerError } from "./errors.js";
export { KeyRing } from "./keys.js";
export { MissingDependencyError } from "./runtime-deps.js";
export {
  type Ask,
  type AskOptions,
  type ElicitAnswer,
  InputRequiredSignal,
  isNotSupported,
  type NotSupported,
  type RootsAnswer,
  type SampleAnswer,
} from "./mrtr.js";
export type { PromptConfig, PromptHandler, PromptHandlerResult, RegisteredPrompt } from "./prompts.js";
export type {
  ReadHandler,
  ReadHandlerResult,
  RegisteredResource,
  RegisteredTemplate,
  ResourceConfig,
  ResourceContents,
  ResourceMetadata,
  ResourceTemplateConfig,
  TemplateReadHandler,
  TemplateVariables,
} from "./resources.js";
export { type CompiledSchema, compileSchema, formatProblems, type SchemaProblem } from "./schema.js";
export {
  type Inbound,
  type JSONRPCResponse,
  McpServer,
  missingCapabilities,
  type Outcome,
  SERVER_BUSY,
  type ServerInfo,
  type ServerOptions,
  TOOL_NAME_PATTERN,
} from "./server.js";
export {
  CHANNELS,
  dispatchError,
  type ErrorKind,
  type HelpEvent,
  publishRequestRejected,
  readTraceContext,
  type RequestRejectedEvent,
  type ToolCallEvent,
  type ToolOutcome,
  type TraceContext,
} from "./telemetry.js";
export { checkHeaderAnnotations, DEFAULT_TOOL_TIMEOUT_MS } from "./tools.js";
export type {
  InputSchema,
  OutputSchema,
  RegisteredTool,
  RunToolOptions,
  ToolConfig,
  ToolHandler,
  ToolHandlerResult,
} from "./tools.js";
export { checkRequestHeaders, decodeHeaderValue, type HeaderParam, headerParams } from "./transports/headers.js";
export {
  acceptable,
  type CorsOptions,
  createFetchHandler,
  createHttpCore,
  createNodeHandler,
  type HttpAnswer,
  type HttpCore,
  type HttpExchange,
  type HttpTransportOptions,
  jsonDepthExceeds,
  type ListenOptions,
  listen,
  type NodeHandler,
  type NodeHandlerOptions,
  type RunningHttpServer,
} from "./transports/http.js";
export { ChunkQueue, SSE_KEEPALIVE, sseEvent } from "./transports/sse.js";
export { type StdioOptions, serveStdio } from "./transports/stdio.js";
