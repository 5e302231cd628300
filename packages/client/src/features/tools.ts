/**
 * Tools (spec: server/tools): `tools/list` with the `x-mcp-header`
 * annotations checked (spec 2026-07-28: streamable-http "Schema
 * Extension"), the definitions learnt from it, `tools/call` with its
 * arguments mirrored into `Mcp-Param-*` headers (from `@x/mcp-v2607/wire`,
 * shared with the server) and its `structuredContent` checked against the
 * tool's `outputSchema`.
 */
import { stringifyJson } from "@x/jsonrpc";
import type { CallToolRequestParams, CallToolResult, ListToolsResult, ResponseResultOf, Tool } from "@x/mcp-v2607";
import { ErrorCode, Method } from "@x/mcp-v2607/constants";
import { type HeaderParam, toolHeaderParams } from "@x/mcp-v2607/wire";
import type { Channel } from "../channel.js";
import { ClientErrorCode, clip, isMcpClientError, McpClientError } from "../errors.js";
import { paramHeaders } from "../headers.js";
import {
  type CallToolOptions,
  type ClientOptions,
  DECLARE_TASKS,
  DEFAULT_MAX_PAGES,
  type ListAllOptions,
  type ListOptions,
  type RequestArguments,
  type RequestOptions,
  type Result,
  type SendingOptions,
} from "../options.js";
import { invalidResult, isObject, listAll } from "../results.js";
import type { ToolCall } from "../revisions/revision.js";
import { type CompiledSchema, compileOutputSchema, formatProblems, MissingDependencyError, nonFiniteProblem } from "../schema.js";
import type { CacheFeature } from "./cache.js";

/** A tool as the client learnt it from `tools/list`: its header mirrors and, once compiled, its output check. */
export interface KnownTool {
  tool: Tool;
  headers: HeaderParam[];
  validator?: CompiledSchema | McpClientError;
}

function rejectedTool(name: string, reason: string): McpClientError {
  return new McpClientError(ClientErrorCode.InvalidArguments, `Tool ${JSON.stringify(name)} was rejected and cannot be called: ${reason}`, {
    tool: name,
    reason,
  });
}

/** The tools feature of one client (see the module comment). */
export class ToolsFeature {
  private readonly known = new Map<string, KnownTool>();
  private readonly rejected = new Map<string, string>();

  constructor(
    private readonly options: ClientOptions,
    private readonly channel: () => Channel,
    private readonly cache: CacheFeature,
    private readonly warn: (message: string) => void,
  ) {}

  /** The definition learnt for `name`, if any. */
  knownTool(name: string): KnownTool | undefined {
    return this.known.get(name);
  }

  /** Whether `Mcp-Param-*` headers are mirrored: the revision's say (the transport's included). */
  private mirrors(): boolean {
    return this.channel().revision().mirrorsHeaders;
  }

  /**
   * One page of `tools/list`. Tools whose `x-mcp-header` annotations are
   * invalid are dropped with a warning when the transport carries headers
   * (spec: streamable-http "Schema Extension"); entries without a string
   * `name` are dropped too. Cached per the result's hints.
   * @throws McpClientError -32094 when `tools` is not an array.
   */
  async list(options: ListOptions = {}): Promise<ListToolsResult> {
    const params = options.cursor === undefined ? {} : { cursor: options.cursor };
    const result = await this.cache.cached(Method.ToolsList, params, options, (r) => this.prepare(r));
    // Remember the definitions, from the server or from a (possibly shared) cache.
    for (const tool of result.tools) {
      const before = this.known.get(tool.name);
      if (before && stringifyJson(before.tool) === stringifyJson(tool)) continue;
      const check = toolHeaderParams(tool);
      this.known.set(tool.name, { tool, headers: check.ok ? check.params : [] });
    }
    return result;
  }

  private prepare(result: ListToolsResult): ListToolsResult {
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

  /** Every tool, page after page. @throws McpClientError -32095 past `maxPages` pages or on a repeated cursor. */
  listAll(options: ListAllOptions = {}): Promise<Tool[]> {
    return listAll<Tool>(
      "tools",
      (cursor) => this.list({ ...options, cursor }),
      options.maxPages ?? this.options.maxPages ?? DEFAULT_MAX_PAGES,
    );
  }

  /**
   * Sends `tools/call` (headers mirrored, a -32020 retried once, Multi
   * Round-Trip rounds resolved) declaring the tasks extension when
   * `declareTasks`; the result as the server gave it.
   */
  async send(
    name: string,
    args: Record<string, unknown>,
    options: CallToolOptions,
    declareTasks: boolean,
  ): Promise<{ result: ResponseResultOf<"tools/call">; known: KnownTool | undefined }> {
    if (typeof name !== "string") throw new TypeError("callTool: name must be a string");
    if (!isObject(args)) throw new TypeError("callTool: args must be an object");
    let known = await this.lookup(name, options);
    let retriedHeaders = false;
    const sending: SendingOptions = declareTasks ? { ...options, [DECLARE_TASKS]: true } : options;
    const send = async (params: RequestArguments<"tools/call">): Promise<ResponseResultOf<"tools/call">> => {
      const headers = this.mirrors() && known ? paramHeaders(known.headers, args) : {};
      try {
        return await this.channel().request(Method.ToolsCall, params, sending, headers);
      } catch (error) {
        if (retriedHeaders || !isMcpClientError(error, ErrorCode.HeaderMismatch) || !this.mirrors()) throw error;
        retriedHeaders = true;
        await this.listAll({ signal: options.signal, timeout: options.timeout, cache: "refresh" });
        const reason = this.rejected.get(name);
        if (reason !== undefined) throw rejectedTool(name, reason);
        known = this.known.get(name);
        const fresh = known ? paramHeaders(known.headers, args) : {};
        return this.channel().request(Method.ToolsCall, params, sending, fresh);
      }
    };
    // `args` keeps its wider public type (any object, sent through JSON.stringify as before); the schema types it as JSON.
    const params = { name, arguments: args as CallToolRequestParams["arguments"] };
    const revision = this.channel().revision();
    const call: ToolCall = {
      name,
      tool: known?.tool,
      args,
      options,
      send: async () => (await revision.resolve(Method.ToolsCall, params, options, send, declareTasks)).result,
    };
    // The one place a revision may run a call its own way (a task-augmented call); else the ordinary path.
    const result = await (revision.runToolCall?.(call) ?? call.send());
    return { result, known };
  }

  /** Checks a complete `tools/call` result: a `content` array, and `structuredContent` against the tool's `outputSchema`. */
  finish(name: string | undefined, result: Result, known: KnownTool | undefined, validateOutput: boolean | undefined): CallToolResult {
    if (!Array.isArray(result.content))
      throw invalidResult(`The result of ${name === undefined ? "the task's tool" : `tool ${JSON.stringify(name)}`} has no content array`);
    // Checked just above for what callers rely on; the rest is the server's, unvalidated, as for every result.
    const checked = result as unknown as CallToolResult;
    if ((validateOutput ?? this.options.validateOutput ?? true) && known?.tool.outputSchema && checked.isError !== true) {
      this.checkOutput(known, checked);
    }
    return checked;
  }

  async lookup(name: string, options: RequestOptions): Promise<KnownTool | undefined> {
    const reason = this.rejected.get(name);
    if (reason !== undefined) throw rejectedTool(name, reason);
    let known = this.known.get(name);
    if (!known && (this.options.lookupTools ?? true)) {
      try {
        await this.listAll({ signal: options.signal, timeout: options.timeout });
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
      if (after !== undefined) throw rejectedTool(name, after);
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
}
