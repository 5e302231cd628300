export type { RequestContext, TransportInfo } from "./context.js";
export { isMcpError, isProtocolError, McpError, statusForEnvelopeError, statusForHandlerError } from "./errors.js";
export { type CompiledSchema, compileSchema, formatProblems, type SchemaProblem } from "./schema.js";
export {
  type Inbound,
  type JSONRPCResponse,
  McpServer,
  type Outcome,
  type ServerInfo,
  type ServerOptions,
} from "./server.js";
export type {
  InputSchema,
  OutputSchema,
  RegisteredTool,
  ToolConfig,
  ToolHandler,
  ToolHandlerResult,
} from "./tools.js";
export { checkRequestHeaders, decodeHeaderValue, type HeaderParam, headerParams } from "./transports/headers.js";
export {
  createFetchHandler,
  createHttpCore,
  createNodeHandler,
  type HttpAnswer,
  type HttpExchange,
  type HttpTransportOptions,
  type ListenOptions,
  listen,
  type NodeHandlerOptions,
  type RunningHttpServer,
} from "./transports/http.js";
export { type StdioOptions, serveStdio } from "./transports/stdio.js";
