/**
 * The server object and its dispatcher (spec 2026-07-28: basic/index,
 * server/discover, server/tools, server/utilities/caching).
 *
 * One `McpServer` is built once and serves every request: a request is a
 * function of (message, per-request transport info) to a response, and no
 * server, protocol or transport object is created per request.
 */
import { type CacheHintOptions, cacheHints, discoverResult, listToolsResult } from "@x/builders";
import {
  ErrorCode,
  type Implementation,
  type JSONRPCErrorResponse,
  type JSONRPCResultResponse,
  META_SERVER_INFO,
  Method,
  type RequestId,
  type ServerCapabilities,
} from "@x/mcp-v2607";
import type { RequestContext, TransportInfo } from "./context.js";
import { isMcpError, McpError, statusForEnvelopeError, statusForHandlerError } from "./errors.js";
import { type EnvelopeMeta, type Revision, revision2607 } from "./revision.js";
import { defineTool, type RegisteredTool, runTool, type ToolConfig, type ToolHandler } from "./tools.js";

/** Who the server is: published in `server/discover` and in every result's `_meta`. */
export interface ServerInfo {
  /** Programmatic name (required). */
  name: string;
  /** Version string (required). */
  version: string;
  /** Optional display title. */
  title?: string;
  /** Optional URL of the server's website. */
  websiteUrl?: string;
}

/** Options of {@link McpServer}. */
export interface ServerOptions {
  /** Instructions for the client's model, published by `server/discover`. */
  instructions?: string;
  /**
   * Cache hints of `tools/list` results (`ttlMs` in milliseconds, integer >= 0;
   * `cacheScope` `"private"` or `"public"`). Default `{ ttlMs: 0, cacheScope: "private" }`.
   * Checked when the server is built: an invalid hint throws RangeError here, not when served.
   */
  toolsListCache?: CacheHintOptions;
}

/** A JSON-RPC response produced by the dispatcher. */
export type JSONRPCResponse = JSONRPCResultResponse | JSONRPCErrorResponse;

/** The outcome of one message: the response to send (none for a notification) and the HTTP status that goes with it. */
export interface Outcome {
  /** The JSON-RPC response; `undefined` when the message was a notification. */
  response: JSONRPCResponse | undefined;
  /** HTTP status for Streamable HTTP: 200, 202 (notification), 400 or 404 (see the transport). */
  status: number;
}

/** A message that passed the envelope check (stages 5 and 7 of the HTTP order). */
export type Inbound =
  | { kind: "notification"; method: string; params: Record<string, unknown> }
  | { kind: "request"; id: RequestId; method: string; params: Record<string, unknown>; envelope: EnvelopeMeta }
  | { kind: "error"; outcome: Outcome };

type MethodHandler = (params: Record<string, unknown>, ctx: RequestContext) => Promise<Record<string, unknown>> | Record<string, unknown>;

const NEVER_ABORTED = new AbortController().signal;
const EMPTY_ASSIGNS: Readonly<Record<string, unknown>> = Object.freeze({});

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isInteger(value));
}

function errorOutcome(id: RequestId | undefined, code: number, message: string, data: unknown, status: number): Outcome {
  const error: JSONRPCErrorResponse["error"] = { code, message };
  if (data !== undefined) error.data = data as JSONRPCErrorResponse["error"]["data"];
  const response: JSONRPCErrorResponse = { jsonrpc: "2.0", error };
  if (id !== undefined) response.id = id;
  return { response, status };
}

/**
 * An MCP server for protocol revision 2026-07-28.
 *
 * Register tools with {@link McpServer.registerTool}, then serve it with a
 * transport: `createFetchHandler` / `createNodeHandler` / `listen` (Streamable
 * HTTP) or `serveStdio`. The same object serves every request and every
 * transport at once.
 *
 * @example
 * const server = new McpServer({ name: "demo", version: "1.0.0" });
 * server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } },
 *   ({ text }) => String(text));
 */
export class McpServer {
  /** The `Implementation` stamped into every result's `_meta`. */
  readonly info: Implementation;
  readonly #options: ServerOptions;
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #revisions = new Map<string, Revision>([[revision2607.version, revision2607]]);
  readonly #methods = new Map<string, MethodHandler>();
  readonly #toolsListCache;
  #toolsList: Record<string, unknown> | undefined;

  /**
   * @throws TypeError when `info.name` or `info.version` is missing;
   *   RangeError when `options.toolsListCache` is not a valid cache hint.
   */
  constructor(info: ServerInfo, options: ServerOptions = {}) {
    if (typeof info?.name !== "string" || info.name === "") throw new TypeError("server name is required");
    if (typeof info.version !== "string" || info.version === "") throw new TypeError("server version is required");
    const implementation: Implementation = { name: info.name, version: info.version };
    if (info.title !== undefined) implementation.title = info.title;
    if (info.websiteUrl !== undefined) implementation.websiteUrl = info.websiteUrl;
    this.info = implementation;
    this.#options = options;
    this.#toolsListCache = cacheHints(options.toolsListCache);
    this.#methods.set(Method.ServerDiscover, () => this.#discover());
    this.#methods.set(Method.ToolsList, () => this.#listTools());
    this.#methods.set(Method.ToolsCall, (params, ctx) => this.#callTool(params, ctx));
  }

  /**
   * Registers a tool. Its schemas are compiled now, once; the `tools`
   * capability is advertised as soon as one tool is registered.
   *
   * @throws TypeError or Error naming the tool when the name is taken or
   *   empty, or a schema does not compile (including an unresolvable `$ref`).
   */
  registerTool<Args = Record<string, unknown>>(name: string, config: ToolConfig, handler: ToolHandler<Args>): this {
    if (this.#tools.has(name)) throw new Error(`tool ${name} is already registered`);
    this.#tools.set(name, defineTool(name, config, handler as ToolHandler<any>));
    this.#toolsList = undefined;
    return this;
  }

  /** The capabilities the registrations imply (spec: server/discover). */
  capabilities(): ServerCapabilities {
    const caps: ServerCapabilities = {};
    if (this.#tools.size > 0) caps.tools = {};
    return caps;
  }

  /** Protocol versions this server answers, newest first. */
  get supportedVersions(): string[] {
    return [...this.#revisions.keys()];
  }

  /** The registered tool of that name, or `undefined`. Used by transports to validate `Mcp-Param-*` headers. */
  tool(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  /**
   * Checks one decoded JSON message as a JSON-RPC request or notification
   * and reads its `_meta` (the HTTP order's stages 5 and 7).
   * Never throws: a bad message gives `{ kind: "error", outcome }` with a
   * -32600 or -32602 response and HTTP status 400.
   */
  inspect(message: unknown): Inbound {
    if (!isObject(message) || message.jsonrpc !== "2.0" || typeof message.method !== "string") {
      const id = isObject(message) && isRequestId(message.id) ? message.id : undefined;
      return { kind: "error", outcome: errorOutcome(id, ErrorCode.InvalidRequest, "Invalid request: expected a JSON-RPC 2.0 request or notification", undefined, 400) };
    }
    const params = message.params === undefined ? {} : message.params;
    if (!isObject(params)) {
      const id = isRequestId(message.id) ? message.id : undefined;
      return { kind: "error", outcome: errorOutcome(id, ErrorCode.InvalidRequest, "Invalid request: params must be an object", undefined, 400) };
    }
    if (!("id" in message)) return { kind: "notification", method: message.method, params };
    if (!isRequestId(message.id)) {
      return { kind: "error", outcome: errorOutcome(undefined, ErrorCode.InvalidRequest, "Invalid request: id must be a string or an integer", undefined, 400) };
    }
    try {
      const envelope = revision2607.readEnvelope(params);
      return { kind: "request", id: message.id, method: message.method, params, envelope };
    } catch (error) {
      const e = error as McpError;
      return { kind: "error", outcome: errorOutcome(message.id, e.code, e.message, e.data, 400) };
    }
  }

  /**
   * Answers an inspected request: checks the protocol version (400, -32022),
   * finds the method (404, -32601), runs it and stamps its result.
   * Never throws: a handler's fault becomes -32603 with status 200 (its
   * message is not sent), an `McpError` becomes that error (status from
   * `statusForHandlerError`: 400 for -32020/-32021/-32022, 404 for -32601, else 200).
   */
  async execute(request: Extract<Inbound, { kind: "request" }>, transport: TransportInfo = {}): Promise<Outcome> {
    const { id, method, params, envelope } = request;
    const revision = this.#revisions.get(envelope.protocolVersion);
    if (!revision) {
      return errorOutcome(id, ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${envelope.protocolVersion}`,
        { supported: this.supportedVersions, requested: envelope.protocolVersion }, 400);
    }
    const handler = this.#methods.get(method);
    if (!handler || !this.#methodEnabled(method)) {
      return errorOutcome(id, ErrorCode.MethodNotFound, `Method not found: ${method}`, { method }, statusForEnvelopeError(ErrorCode.MethodNotFound));
    }
    const ctx: RequestContext = {
      requestId: id,
      method,
      meta: envelope.meta,
      protocolVersion: envelope.protocolVersion,
      clientCapabilities: envelope.clientCapabilities,
      clientInfo: envelope.clientInfo,
      signal: transport.signal ?? NEVER_ABORTED,
      assigns: transport.assigns ?? EMPTY_ASSIGNS,
    };
    try {
      const result = await handler(params, ctx);
      const response: JSONRPCResultResponse = { jsonrpc: "2.0", id, result: revision.stamp(result, this.info) as JSONRPCResultResponse["result"] };
      return { response, status: 200 };
    } catch (error) {
      if (isMcpError(error)) return errorOutcome(id, error.code, error.message, error.data, statusForHandlerError(error.code));
      return errorOutcome(id, ErrorCode.InternalError, "Internal error", undefined, 200);
    }
  }

  /**
   * Answers one decoded JSON message with no transport checks beyond the
   * envelope (what stdio and in-memory transports use).
   * Never throws; resolves to `{ response: undefined, status: 202 }` for a notification.
   */
  async handle(message: unknown, transport: TransportInfo = {}): Promise<Outcome> {
    const inbound = this.inspect(message);
    if (inbound.kind === "error") return inbound.outcome;
    if (inbound.kind === "notification") return { response: undefined, status: 202 };
    return this.execute(inbound, transport);
  }

  #methodEnabled(method: string): boolean {
    if (method === Method.ToolsList || method === Method.ToolsCall) return this.#tools.size > 0;
    return true;
  }

  #discover(): Record<string, unknown> {
    const options: Parameters<typeof discoverResult>[0] = {
      name: this.info.name,
      version: this.info.version,
      capabilities: this.capabilities(),
      supportedVersions: this.supportedVersions,
    };
    if (this.info.title !== undefined) options.title = this.info.title;
    if (this.#options.instructions !== undefined) options.instructions = this.#options.instructions;
    const result = discoverResult(options) as unknown as Record<string, unknown>;
    // discoverResult names the server from name/version/title; keep every Implementation field.
    result._meta = { ...(result._meta as object), [META_SERVER_INFO]: this.info };
    return result;
  }

  #listTools(): Record<string, unknown> {
    // The list is built once per registration change; each response gets a shallow copy to stamp.
    this.#toolsList ??= listToolsResult(
      [...this.#tools.values()].map((t) => t.definition),
      this.#toolsListCache,
    ) as unknown as Record<string, unknown>;
    return { ...this.#toolsList };
  }

  async #callTool(params: Record<string, unknown>, ctx: RequestContext): Promise<Record<string, unknown>> {
    const name = params.name;
    if (typeof name !== "string") throw new McpError(ErrorCode.InvalidParams, "Invalid params: name must be a string");
    const args = params.arguments === undefined ? {} : params.arguments;
    if (!isObject(args)) throw new McpError(ErrorCode.InvalidParams, "Invalid params: arguments must be an object");
    const tool = this.#tools.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { name });
    return (await runTool(tool, args, ctx)) as unknown as Record<string, unknown>;
  }
}
