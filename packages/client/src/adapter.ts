/**
 * Turns the tools of an MCP server into plain {@link PlainTool}s,
 * `execute(args, ctx?)` → {@link ToolResult}, for hosts that run tools from
 * many sources the same way (A65–A67, A73).
 */
import { stringifyJson } from "@x/jsonrpc";
import type { CallToolResult, ContentBlock, InputRequiredResult, InputResponses } from "@x/mcp-v2607";
import { isInputRequiredResult, Method } from "@x/mcp-v2607/constants";
import type { Client } from "./client.js";
import type { ListAllOptions } from "./options.js";
import { ClientErrorCode, isMcpClientError } from "./errors.js";
import { answerToElicitResult, elicitationToRequest, suspend, type PlainTool, type ToolContext, type ToolResult } from "./suspend.js";

/** Options of {@link mcpTools}. */
export interface McpToolsOptions {
  /** Prepended to every tool name, e.g. `"weather."`. Default none. */
  prefix?: string;
  /** Options of the `tools/list` calls (signal, timeout, cache mode, page cap). */
  list?: ListAllOptions;
  /** Most suspensions kept waiting for an answer; the oldest are forgotten first. Default 100. */
  maxParked?: number;
}

interface Parked {
  key: string;
  requestState: string | undefined;
  others: InputResponses;
}

const MAX_STATE_ROUNDS = 10;

/** The text of a `CallToolResult` for a model: text blocks as they are, other blocks as a short tag, joined by newlines. */
function outputOf(result: CallToolResult): string {
  const parts = (result.content ?? []).map((block: ContentBlock) => {
    switch (block.type) {
      case "text":
        return block.text;
      case "image":
      case "audio":
        return `[${block.type} ${block.mimeType}]`;
      case "resource_link":
        return `[resource ${block.uri}]`;
      case "resource":
        return "text" in block.resource && typeof block.resource.text === "string"
          ? block.resource.text
          : `[resource ${block.resource.uri}]`;
      default:
        return `[${(block as { type?: string }).type ?? "content"}]`;
    }
  });
  const text = parts.join("\n");
  if (text === "" && result.structuredContent !== undefined) return stringifyJson(result.structuredContent);
  return text;
}

/** Maps a `CallToolResult` onto a {@link ToolResult}: `output` its text, `isError` its flag, `metadata` its `content`, `structuredContent` and `_meta`. */
export function toToolResult(result: CallToolResult): ToolResult {
  const metadata: Record<string, unknown> = { content: result.content };
  if (result.structuredContent !== undefined) metadata.structuredContent = result.structuredContent;
  if (result._meta !== undefined) metadata._meta = result._meta;
  return { output: outputOf(result), isError: result.isError === true, metadata };
}

function errorResult(error: unknown): ToolResult {
  const message = error instanceof Error ? error.message : String(error);
  const metadata: Record<string, unknown> = {};
  if (isMcpClientError(error)) metadata.error = { code: error.code, data: error.data };
  return { output: message, isError: true, metadata };
}

/**
 * Lists a server's tools and wraps each as a {@link PlainTool} with
 * `source: "mcp"`. `execute(args, ctx?)` calls the tool through `client`:
 * - `ctx.signal` cancels the call; `ctx.timeout` (milliseconds, `null` =
 *   unset) bounds each round trip; `ctx` may be left out;
 * - when the client has an elicitation handler (`waitFor` or
 *   `handlers.elicitation`), questions from the server are answered inline;
 * - without one, a server question (`elicitation/create` in an
 *   `InputRequiredResult`) becomes a suspension (`metadata.pending`, from
 *   `elicitationToRequest`), and running the tool again with `ctx.answer`
 *   continues the same exchange: the answer goes back as the
 *   `inputResponses` entry, with the `requestState` echoed. This is what
 *   `runTool` does with a `waitFor`;
 * - a result with `isError`, and any error thrown (with its JSON-RPC code in
 *   `metadata.error`), become an `isError` {@link ToolResult}; `execute`
 *   never throws.
 *
 * @throws what `client.listAllTools` throws.
 */
export async function mcpTools(client: Client, options: McpToolsOptions = {}): Promise<PlainTool[]> {
  const listed = await client.listAllTools(options.list);
  const maxParked = options.maxParked ?? 100;
  const parked = new Map<string, Parked>();
  return listed.map((definition) => {
    const name = definition.name;
    const tool: PlainTool = {
      name: `${options.prefix ?? ""}${name}`,
      description: definition.description,
      inputSchema: definition.inputSchema as Record<string, unknown>,
      source: "mcp",
      execute: async (args: Record<string, unknown>, ctx?: ToolContext): Promise<ToolResult> => {
        const signal = ctx?.signal;
        const timeout = typeof ctx?.timeout === "number" && ctx.timeout > 0 ? ctx.timeout : undefined;
        const inline = client.hasInputHandler("elicitation");
        const mode = inline ? "resolve" : "return";
        try {
          let resume: Parked | undefined;
          if (ctx?.answer && typeof ctx.answer.id === "string") {
            resume = parked.get(ctx.answer.id);
            parked.delete(ctx.answer.id);
          }
          let result: CallToolResult | InputRequiredResult;
          if (resume && ctx?.answer) {
            const inputResponses: InputResponses = { ...resume.others, [resume.key]: answerToElicitResult(ctx.answer) };
            result = await client.callTool(name, args ?? {}, {
              signal,
              timeout,
              inputRequired: mode,
              inputResponses,
              requestState: resume.requestState,
            });
          } else {
            result = await client.callTool(name, args ?? {}, { signal, timeout, inputRequired: mode });
          }
          for (let rounds = 0; isInputRequiredResult(result); rounds++) {
            if (rounds >= MAX_STATE_ROUNDS) {
              return {
                output: `The server still asked for input after ${MAX_STATE_ROUNDS} rounds`,
                isError: true,
                metadata: { error: { code: ClientErrorCode.InputRoundsExceeded } },
              };
            }
            const requests = result.inputRequests ?? {};
            const questions = Object.keys(requests).filter((key) => requests[key]?.method === Method.ElicitationCreate);
            if (questions.length > 1) {
              return { output: `The server asked ${questions.length} questions at once; a suspension carries one`, isError: true };
            }
            const rest = Object.fromEntries(Object.entries(requests).filter(([key]) => !questions.includes(key)));
            const others =
              Object.keys(rest).length > 0
                ? await client.answerInputRequests(rest, { signal, method: Method.ToolsCall, params: { name, arguments: args } })
                : {};
            const requestState = typeof result.requestState === "string" ? result.requestState : undefined;
            if (questions.length === 1) {
              const key = questions[0]!;
              const request = elicitationToRequest(requests[key]!.params as never);
              parked.set(request.id, { key, requestState, others });
              while (parked.size > maxParked) parked.delete(parked.keys().next().value as string);
              return suspend(request);
            }
            result = await client.callTool(name, args ?? {}, {
              signal,
              timeout,
              inputRequired: "return",
              inputResponses: Object.keys(others).length > 0 ? others : undefined,
              requestState,
            });
          }
          return toToolResult(result as CallToolResult);
        } catch (error) {
          return errorResult(error);
        }
      },
    };
    return tool;
  });
}
