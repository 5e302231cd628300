/**
 * `@x/client`: an MCP client for protocol revision 2026-07-28 and the
 * `initialize` era (2024-11-05 to 2025-11-25) with one API: `protocol:
 * "auto"` (the default) probes with `server/discover` and falls back to the
 * `initialize` handshake; `client.era` and `client.protocolVersion` say what
 * was negotiated.
 *
 * - {@link Client}: per-request `_meta`, Multi Round-Trip Requests resolved
 *   through handlers, cache hints honoured, lists followed page by page,
 *   `structuredContent` checked against `outputSchema`, `subscriptions/listen`.
 * - Transports: {@link StreamableHttpTransport} (fetch, JSON and SSE),
 *   {@link StdioTransport} (a child process), {@link InMemoryTransport}
 *   (a function, for tests).
 * - The suspension bridge: {@link Request}, {@link Answer},
 *   {@link elicitationToRequest}, {@link answerToElicitResult},
 *   {@link WaitFor}, {@link runTool}, and {@link mcpTools}, which turns a
 *   server's tools into plain tools.
 * - The tasks extension (`io.modelcontextprotocol/tasks`): `tasks: true`
 *   lets `callTool` drive a task to its result; `callToolAsTask`,
 *   {@link TaskHandle}, `resumeTask`, `getTask`, `cancelTask` for the lifecycle.
 * - Errors: {@link McpClientError}, recognised by JSON-RPC code
 *   ({@link isMcpClientError}, {@link ClientErrorCode}).
 *
 * @module @x/client
 */
// The protocol types that appear in this package's API, so that users need no
// second import (all of them are in `@x/mcp-v2607`).
export type {
  CallToolResult,
  ClientCapabilities,
  ClientRequestMethod,
  CompleteResult,
  ContentBlock,
  CreateMessageRequestParams,
  CreateMessageResult,
  DiscoverResult,
  ElicitRequestParams,
  ElicitResult,
  GetPromptResult,
  Implementation,
  InputRequests,
  InputRequiredResult,
  InputResponses,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListRootsResult,
  ListToolsResult,
  LoggingLevel,
  ParamsOf,
  ProgressNotificationParams,
  Prompt,
  ReadResourceResult,
  Resource,
  ResponseResultOf,
  ResultOf,
  ResourceTemplate,
  SubscriptionFilter,
  Tool,
} from "@x/mcp-v2607";
export {
  type AuthorizeContext,
  type Challenge,
  type ClientCredentialsOptions,
  clientCredentials,
  FileTokenStore,
  type FileTokenStoreOptions,
  importPrivateKey,
  InMemoryTokenStore,
  type JwtBearerOptions,
  jwtBearer,
  type LoopbackOptions,
  LoopbackRedirectReceiver,
  type MachineGrant,
  type OAuthClientInformation,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  parseChallenges,
  type ResourceMetadata,
  type StoredAuthorization,
  type StoredTokens,
  type TokenStore,
} from "./auth/index.js";
export { mcpTools, type McpToolsOptions, toToolResult } from "./adapter.js";
export { CACHEABLE_METHODS, ResponseCache, type ResponseCacheOptions } from "./cache.js";
export {
  type CacheableOptions,
  type CacheMode,
  type CallToolAsTaskOptions,
  type CallToolOptions,
  Client,
  type ClientOptions,
  DEFAULT_MAX_INPUT_ROUNDS,
  MAX_SERVER_REQUESTS,
  DEFAULT_MAX_PAGES,
  DEFAULT_TIMEOUT_MS,
  type InputOptions,
  type ListAllOptions,
  type ListOptions,
  type RequestArguments,
  type RequestOptions,
  type RequestTail,
  type ResumeTaskOptions,
  type Subscription,
  type ToolCallStart,
} from "./client.js";
export {
  answerServerRequest,
  DEFAULT_PROBE_TIMEOUT_MS,
  type Era,
  MODERN_ERROR_CODES,
  type ProtocolChoice,
} from "./era.js";
export { type AuthStep, ClientErrorCode, errorCode, isMcpClientError, McpClientError, type TransportFailure } from "./errors.js";
export { encodeHeaderValue, type HeaderParam, paramHeaders, standardHeaders, type ToolHeaderCheck, toolHeaderParams } from "./headers.js";
export { answerInputRequests, checkAnswer, type InputContext, type InputHandlers } from "./mrtr.js";
export {
  type CompiledSchema,
  cfworkerValidator,
  compileOutputSchema,
  defaultValidator,
  formatProblems,
  type JsonSchemaValidator,
  MissingDependencyError,
  type SchemaLimits,
  type SchemaProblem,
} from "./schema.js";
export {
  type Answer,
  answerToElicitResult,
  elicitationToRequest,
  pendingOf,
  type Request,
  type RunEvent,
  type RunOptions,
  type RunResult,
  requestId,
  runTool,
  streamTool,
  suspend,
  type PlainTool,
  type ToolContext,
  type ToolResult,
  type WaitFor,
} from "./suspend.js";
export {
  DEFAULT_MAX_RESUME_ATTEMPTS,
  DEFAULT_RESUME_DELAY_MS,
  MAX_RESUME_DELAY_MS,
  type StreamableHttpOptions,
  StreamableHttpTransport,
} from "./transports/http.js";
export { type InMemoryExchange, type InMemoryHandler, type InMemoryOptions, InMemoryTransport } from "./transports/memory.js";
export { type SseOptions, SseTransport } from "./transports/sse.js";
export { type StdioOptions, StdioTransport } from "./transports/stdio.js";
export {
  DEFAULT_TASK_POLL_INTERVAL_MS,
  DEFAULT_TASK_WAIT_MS,
  isTransientTaskFailure,
  MAX_TASK_POLL_INTERVAL_MS,
  MIN_TASK_POLL_INTERVAL_MS,
  pollDelay,
  TASK_CANCEL_TIMEOUT_MS,
  TASK_POLL_ATTEMPTS,
  TASK_POLL_RETRY_DELAY_MS,
  TaskHandle,
  type TaskRequestOptions,
  type TasksOptions,
  type TaskWaitOptions,
} from "./tasks.js";
export type { CreateTaskResult, DetailedTask, GetTaskResult, Task, TaskStatus } from "@x/mcp-v2607/tasks";
export { DEFAULT_MAX_MESSAGE_BYTES, type SendOptions, type SessionHooks, type Transport } from "./transports/transport.js";
