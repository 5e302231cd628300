/**
 * The suspension bridge: one way for an application to answer every question
 * a tool asks, whether a local tool suspends itself or an MCP server asks
 * through `elicitation/create` (behaviours A65–A74, see docs/behaviours.md).
 *
 * A tool that needs an answer returns a suspension: a {@link ToolResult}
 * whose `metadata.pending` is a {@link Request}. The host asks its
 * {@link WaitFor} hook, which resolves to an {@link Answer}, and runs the tool
 * again with `ctx.answer` set ({@link runTool}).
 */
import type { ElicitRequestParams, ElicitResult } from "@x/mcp-v2607";

/**
 * A question waiting for an answer (A68; the keys are the same in
 * every port of this contract).
 * - `id`: unique; the {@link Answer} repeats it.
 * - `kind`: what sort of question. `"input"`: a value is wanted (`data.schema`
 *   describes it); `"authorization"`: the user must visit `url` and come
 *   back; other kinds are the application's own.
 * - `prompt`: the text to show.
 * - `url`: for `"authorization"`, where to send the user.
 * - `data`: extra detail, e.g. `{ schema }` for `"input"`.
 * - `expiresAt`: when the question lapses, as an ISO 8601 timestamp.
 */
export interface Request {
  id: string;
  kind: "input" | "authorization" | (string & {});
  prompt: string;
  url?: string;
  data?: Record<string, unknown>;
  expiresAt?: string;
}

/**
 * The answer to a {@link Request} (A68).
 * - `id`: the request's id.
 * - `ok`: true when the user answered (or authorized); false when not.
 * - `data`: the answer's values (for `"input"`).
 * - `reason`: why not, when `ok` is false: `"declined"` (the user said no),
 *   `"expired"`, `"cancelled"`, or the application's own.
 */
export interface Answer {
  id: string;
  ok: boolean;
  data?: Record<string, unknown>;
  reason?: string;
}

/**
 * The hook that answers questions: shows the {@link Request} to someone (or
 * something) and resolves with its {@link Answer}. `signal` aborts when the
 * caller gives up.
 */
export type WaitFor = (request: Request, options: { signal?: AbortSignal }) => Promise<Answer> | Answer;

/**
 * What a tool's `execute` receives as its second argument (A65–A66).
 * The whole context is optional in TypeScript: a tool must work when called
 * with none.
 * - `signal`: aborts when the caller cancels.
 * - `timeout`: the caller's budget for this call in milliseconds; `null`
 *   means unset (use your own default), never zero.
 * - `answer`: present only when the tool is run again after a suspension was
 *   answered through `waitFor`; absent on a first run.
 *
 * The context carries no identity fields (session, message, agent or call ids).
 */
export interface ToolContext {
  signal?: AbortSignal;
  timeout?: number | null;
  answer?: Answer;
}

/**
 * What a tool returns: `output` text for a model or a person, `isError` when
 * it failed, and `metadata` for anything else. A suspension (A67)
 * is `{ output: prompt, isError: true, metadata: { pending: Request } }`;
 * build one with {@link suspend}.
 */
export interface ToolResult {
  output: string;
  isError?: boolean;
  metadata?: { pending?: Request; [key: string]: unknown };
}

/**
 * A plain tool: a name, a description and input schema for a model, and
 * `execute(args, ctx?)`. `source` says where it comes from (`"mcp"` for tools
 * adapted from a server, see `mcpTools`).
 */
export interface PlainTool<Args extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  source?: string;
  /** Runs the tool; a failure is best returned as `isError: true` (a throw becomes such a result when run by `runTool`). */
  execute(args: Args, ctx?: ToolContext): Promise<ToolResult> | ToolResult;
}

/** A fresh request id with a prefix, e.g. `elc-6f1c...`. */
export function requestId(prefix: string): string {
  return `${prefix}-${globalThis.crypto.randomUUID()}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Maps an MCP `elicitation/create` request onto a {@link Request}
 * (A69–A71):
 * - form mode (`mode` `"form"` or absent) becomes `kind: "input"`, `prompt`
 *   the `message`, `data: { schema: requestedSchema }`, and no `url`;
 * - URL mode becomes `kind: "authorization"` with `url` and no `data`;
 * - every request gets a fresh id starting with `elc-`.
 *
 * @throws TypeError when `params` is not an object, `message` is not a
 *   string, a URL-mode request has no `url` string, or `mode` is neither
 *   `"form"` nor `"url"`.
 */
export function elicitationToRequest(params: ElicitRequestParams): Request {
  if (!isObject(params)) throw new TypeError("elicitationToRequest: params must be an object");
  const { mode, message } = params as { mode?: unknown; message?: unknown };
  if (typeof message !== "string") throw new TypeError("elicitationToRequest: params.message must be a string");
  if (mode === "url") {
    const url = (params as { url?: unknown }).url;
    if (typeof url !== "string") throw new TypeError("elicitationToRequest: a URL-mode elicitation needs a url string");
    return { id: requestId("elc"), kind: "authorization", prompt: message, url };
  }
  if (mode !== undefined && mode !== null && mode !== "form") {
    throw new TypeError(`elicitationToRequest: unknown elicitation mode ${JSON.stringify(mode)}`);
  }
  return {
    id: requestId("elc"),
    kind: "input",
    prompt: message,
    data: { schema: (params as { requestedSchema?: unknown }).requestedSchema },
  };
}

/**
 * Maps an {@link Answer} back onto the `ElicitResult` an MCP server expects
 * (A72): `ok` becomes `accept` with `content` the
 * answer's `data`, or `{}` when it has none; `ok: false` becomes `decline`
 * only when `reason` is `"declined"`, and `cancel` otherwise (expired,
 * cancelled, or no reason).
 *
 * @throws TypeError when `answer` is not an object with a boolean `ok`.
 */
export function answerToElicitResult(answer: Answer): ElicitResult {
  if (!isObject(answer) || typeof answer.ok !== "boolean")
    throw new TypeError("answerToElicitResult: answer must be an object with a boolean ok");
  if (answer.ok) return { action: "accept", content: (isObject(answer.data) ? answer.data : {}) as ElicitResult["content"] };
  return { action: answer.reason === "declined" ? "decline" : "cancel" };
}

/** Builds a suspension (A67): `{ output: request.prompt, isError: true, metadata: { pending: request } }`. */
export function suspend(request: Request): ToolResult {
  return { output: request.prompt, isError: true, metadata: { pending: request } };
}

/** The pending {@link Request} of a suspension, or `undefined` when `result` is not one. */
export function pendingOf(result: unknown): Request | undefined {
  if (!isObject(result) || result.isError !== true || !isObject(result.metadata)) return undefined;
  const pending = result.metadata.pending;
  return isObject(pending) && typeof pending.id === "string" && typeof pending.prompt === "string"
    ? // Checked just above; `Request` is an interface (no index signature), so a direct cast from a record is refused.
      (pending as unknown as Request)
    : undefined;
}

/** What {@link runTool} ends with: the tool's final result, or the question still open when there is no `waitFor`. */
export type RunResult = { status: "done"; result: ToolResult } | { status: "pending"; pending: Request };

/** What {@link streamTool} yields on the way (A73: the stream emits `{ type: "pending", request }`). */
export type RunEvent = { type: "pending"; request: Request } | { type: "answer"; answer: Answer } | { type: "result"; result: ToolResult };

/** Options of {@link runTool} and {@link streamTool}. */
export interface RunOptions {
  /** Answers a suspension. Without it, a suspension ends the run with `status: "pending"`. */
  waitFor?: WaitFor;
  /** Passed to the tool as `ctx.signal` and to `waitFor`. */
  signal?: AbortSignal;
  /** Passed to the tool as `ctx.timeout` in milliseconds; absent means `null` (unset). */
  timeout?: number | null;
}

async function execute(tool: PlainTool, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  try {
    const result = await tool.execute(args, ctx);
    if (!isObject(result) || typeof result.output !== "string") {
      return { output: `${tool.name} returned something that is not a ToolResult`, isError: true };
    }
    return result;
  } catch (error) {
    return { output: `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`, isError: true, metadata: { error } };
  }
}

/**
 * Runs a tool once, answering a suspension the way the loop rule says
 * (A73), and yields what happens:
 * 1. the tool runs with `ctx = { signal, timeout }` (no `answer`);
 * 2. if it suspends, `{ type: "pending", request }` is yielded; with no
 *    `waitFor` the run ends `{ status: "pending", pending }`;
 * 3. otherwise `waitFor(request)` is awaited (`{ type: "answer" }` yielded):
 *    an answer with `ok: false` ends the run with the error
 *    `"declined/expired: <prompt>"`; with `ok: true` the tool runs once more
 *    with `ctx.answer` set;
 * 4. if it suspends again, the run ends with the error `"unresolved: <prompt>"`
 *    (the prompt of the new suspension).
 *
 * A tool that throws, or returns something that is not a {@link ToolResult},
 * ends the run with an `isError` result; `waitFor` throwing rejects.
 * The generator's return value is the {@link RunResult}; a final
 * `{ type: "result" }` event carries a done run's result.
 */
export async function* streamTool(
  tool: PlainTool,
  args: Record<string, unknown> = {},
  options: RunOptions = {},
): AsyncGenerator<RunEvent, RunResult> {
  const base: ToolContext = { signal: options.signal, timeout: options.timeout ?? null };
  const first = await execute(tool, args, base);
  const pending = pendingOf(first);
  if (!pending) {
    yield { type: "result", result: first };
    return { status: "done", result: first };
  }
  yield { type: "pending", request: pending };
  if (!options.waitFor) return { status: "pending", pending };
  const answer = await options.waitFor(pending, { signal: options.signal });
  yield { type: "answer", answer };
  let result: ToolResult;
  if (!answer?.ok) {
    result = { output: `declined/expired: ${pending.prompt}`, isError: true };
  } else {
    const second = await execute(tool, args, { ...base, answer });
    const again = pendingOf(second);
    result = again ? { output: `unresolved: ${again.prompt}`, isError: true } : second;
  }
  yield { type: "result", result };
  return { status: "done", result };
}

/**
 * {@link streamTool} without the events: resolves with the
 * {@link RunResult}. `onEvent` sees each event as it happens.
 */
export async function runTool(
  tool: PlainTool,
  args: Record<string, unknown> = {},
  options: RunOptions & { onEvent?: (event: RunEvent) => void } = {},
): Promise<RunResult> {
  const stream = streamTool(tool, args, options);
  for (;;) {
    const step = await stream.next();
    if (step.done) return step.value;
    options.onEvent?.(step.value);
  }
}
