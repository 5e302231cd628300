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
export { Client } from "./client.js";
export type {
  CacheableOptions,
  CacheMode,
  CallToolAsTaskOptions,
  CallToolOptions,
  ClientOptions,
  Era,
  InputOptions,
  ListAllOptions,
  ListOptions,
  ProtocolChoice,
  RequestArguments,
  RequestOptions,
  RequestTail,
  ResumeTaskOptions,
  Subscription,
  ToolCallStart,
} from "./options.js";
export { type AuthStep, ClientErrorCode, errorCode, isMcpClientError, McpClientError, type TransportFailure } from "./errors.js";
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
  type StreamableHttpOptions,
  StreamableHttpTransport,
} from "./transports/http.js";
export { type InMemoryExchange, type InMemoryHandler, type InMemoryOptions, InMemoryTransport } from "./transports/memory.js";
export { type SseOptions, SseTransport } from "./transports/sse.js";
export { type StdioOptions, StdioTransport } from "./transports/stdio.js";
export {
  isTransientTaskFailure,
  TaskHandle,
  type TaskRequestOptions,
  type TasksOptions,
  type TaskWaitOptions,
} from "./tasks.js";
export type { CreateTaskResult, DetailedTask, GetTaskResult, Task, TaskStatus } from "@x/mcp-v2607/tasks";
export type { HttpCarrier, HttpFraming } from "./transports/http-framing.js";
export type { ResumeDelays, StreamCursor } from "./transports/sse-read.js";
export type { StdioCarrier, StdioFraming } from "./transports/stdio-framing.js";
export type { SendOptions, SessionFramings, Transport } from "./transports/transport.js";
