/**
 * `@x/jsonrpc`: the JSON-RPC 2.0 rules every MCP revision shares (JSON-RPC 2.0
 * specification; MCP spec 2026-07-28, basic/index "Messages"), written once so
 * that a server and a client read and write messages the same way: message
 * classification, error and result responses, bounded UTF-8 JSON decoding,
 * and JSON that keeps integers beyond 2^53 exact (`parseJson`,
 * `stringifyJson`). Nothing here knows a protocol revision, and nothing
 * here has a dependency.
 *
 * @module @x/jsonrpc
 */
import { readJson } from "./json.js";

export { parseJson, readJson, replaceBigInts, stringifyJson } from "./json.js";
export { type NoUnknownKeys, rejectMisspelt, rejectUnknown } from "./options.js";
export { asMissingDependency, brandAcrossCopies, MissingDependencyError, nodeBuiltin, requireLazily, runTimeRequire } from "./runtime.js";

/**
 * A JSON-RPC request id: a string or an integer (MCP forbids `null`; spec
 * 2026-07-28, basic/index "Requests"). An integer beyond ±(2^53 − 1) is a
 * `bigint` (as {@link parseJson} reads it), so that its answer carries the
 * same digits.
 */
export type RequestId = string | number | bigint;

/**
 * True for a plain non-array object (what a JSON object decodes to); false for
 * `null`, arrays and every primitive. Class instances pass: this guards
 * property access, not prototypes.
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * True for a valid request id that can be answered under exactly the same
 * id: a string, a `bigint`, or a number that is a safe integer (`1`, `-3`,
 * `1e3`). False for `1.5`, `NaN`, `Infinity` and for a number beyond
 * ±(2^53 − 1) such as `1e20`: {@link parseJson} reads an integer literal that
 * large as a `bigint`, so such a number was written as a decimal or an
 * exponent and may already be rounded. False for `null` and everything else
 * (spec 2026-07-28, basic/index "Requests").
 */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || typeof value === "bigint" || Number.isSafeInteger(value);
}

/**
 * The five error codes the JSON-RPC 2.0 specification defines ("Error object"):
 * - `ParseError` -32700: the text is not valid JSON;
 * - `InvalidRequest` -32600: the JSON is not a valid request object;
 * - `MethodNotFound` -32601: no such method (or not offered);
 * - `InvalidParams` -32602: invalid method parameters;
 * - `InternalError` -32603: the receiver failed.
 *
 * Protocol revisions add their own codes beside these (e.g. `ErrorCode` of `@x/mcp-v2607`).
 */
// Pure: a bundle that never reads the table leaves it out.
export const JsonRpcErrorCode = /* @__PURE__ */ Object.freeze({
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const);

/**
 * The code an MCP server of this SDK answers when one of its limits is
 * reached (too many requests in flight, a full task store), over HTTP with
 * status 503: -32000, in JSON-RPC's range of implementation-defined server
 * errors. A client may try the same request again later.
 */
export const SERVER_BUSY = -32000;

/** One of the codes of {@link JsonRpcErrorCode}. */
export type JsonRpcErrorCode = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode];

/** The `error` member of an error response: an integer `code`, a `message`, and optional `data`. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * An error response. `id` is `null` when the request's id could not be read
 * (a parse error, a message with no valid id): JSON-RPC 2.0 ("Response
 * object") requires the member then, and `null` is what it names.
 */
export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

/** A result response to the request `id`. */
export interface JsonRpcResultResponse<T = unknown> {
  jsonrpc: "2.0";
  id: RequestId;
  result: T;
}

/**
 * Builds an error response: `{ jsonrpc: "2.0", error: { code, message, data? }, id }`.
 * `id` is `null` when `undefined` is given (a message whose id could not be
 * read: JSON-RPC 2.0, "Response object", requires `null` there, as for a
 * parse error), and `data` is left out when `undefined`. The keys come in
 * that order (`jsonrpc`, `error`, `id`), the order MCP servers of this
 * repository have always written. Every transport's id-less refusal is
 * built here, so both ends of every transport agree. Never throws; values
 * are not checked.
 */
export function errorResponse(id: RequestId | undefined, code: number, message: string, data?: unknown): JsonRpcErrorResponse {
  const error: JsonRpcErrorObject = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: "2.0", error, id: id === undefined ? null : id };
}

/** Builds a result response `{ jsonrpc: "2.0", id, result }`. Never throws; values are not checked. */
export function resultResponse<T>(id: RequestId, result: T): JsonRpcResultResponse<T> {
  return { jsonrpc: "2.0", id, result };
}

/** A request: a `method` and an `id`, expecting a response. `params` is `{}` when the message had none. */
export interface ClassifiedRequest {
  kind: "request";
  id: RequestId;
  method: string;
  params: Record<string, unknown>;
}

/** A notification: a `method` and no `id`; never answered. `params` is `{}` when the message had none. */
export interface ClassifiedNotification {
  kind: "notification";
  method: string;
  params: Record<string, unknown>;
}

/**
 * A well-formed response to the request `id` (JSON-RPC 2.0 "Response
 * object"): exactly one of `result` (any value) or `error` (an object with an
 * integer `code` and a string `message`; a `bigint` code when it is beyond
 * 2^53), as sent. An error response may have no `id`: its sender could not
 * read the request's (JSON-RPC 2.0 sends `null`;
 * some senders leave the member out). Both read as no id.
 */
export type ClassifiedResponse =
  | { kind: "response"; id: RequestId; result: unknown }
  | { kind: "response"; id?: RequestId; error: unknown };

/**
 * A message shaped as a response (a `result` or an `error` member, no
 * `method`) that is not a well-formed one (see {@link classify}). Like every
 * response it is never answered: an answer would carry an id the client
 * could take for one of its own requests. `message` says what is wrong,
 * beginning `"Invalid response: "` (the text of the -32600 error a transport
 * that must refuse the carrier gives, without an id: an HTTP body is answered
 * with status 400). `id` is the message's id when valid, for reports only.
 */
export interface ClassifiedInvalidResponse {
  kind: "invalid-response";
  id?: RequestId;
  message: string;
}

/**
 * Not a valid JSON-RPC 2.0 message: `message` is the text of the -32600
 * (InvalidRequest) error to answer with, `id` the message's id when it could
 * be read (absent otherwise, and then the error response carries none).
 */
export interface ClassifiedInvalid {
  kind: "invalid";
  id?: RequestId;
  message: string;
}

/** What {@link classify} makes of a decoded JSON value. */
export type Classified = ClassifiedRequest | ClassifiedNotification | ClassifiedResponse | ClassifiedInvalidResponse | ClassifiedInvalid;

/**
 * The text of {@link ClassifiedInvalid} for a value that is no request,
 * notification or response; also what a receiver that expects no responses
 * answers one with.
 */
export const NOT_A_MESSAGE = "Invalid request: expected a JSON-RPC 2.0 request or notification";

/**
 * True for a value shaped as a JSON-RPC response: an object with a `result`
 * or an `error` member and no `method` (whatever else it holds, well formed
 * or not). Such a message is never answered: an answer would carry an id its
 * sender could take for the answer to a request of its own. {@link classify}
 * tells a well-formed one (`"response"`) from the rest
 * (`"invalid-response"`); a lenient reader (a client taking an answer
 * without `jsonrpc`) may stop at the shape.
 */
export function isResponseShaped(value: unknown): boolean {
  return isObject(value) && !("method" in value) && ("result" in value || "error" in value);
}

/**
 * Classifies one decoded JSON value (JSON-RPC 2.0 "Request object",
 * "Notification", "Response object"; spec 2026-07-28, basic/index "Messages"):
 * - `jsonrpc: "2.0"` and a string `method`: a `"request"` when it has an `id`,
 *   a `"notification"` when it has none;
 * - an object with `result` or `error` and no `method` is shaped as a
 *   response ({@link isResponseShaped}), and is never `"invalid"`: a `"response"` when it is a
 *   well-formed one (`jsonrpc: "2.0"`, exactly one of the two; `result` with
 *   a valid id; `error` an object with an integer `code` and a string
 *   `message`, with a valid, `null` or no id, no id in the classified
 *   response then), else an `"invalid-response"` saying why;
 * - anything else is `"invalid"`, with the message of the -32600 error:
 *   `"Invalid request: params must be an object"` when `params` is present
 *   and not an object (id kept when valid), `"Invalid request: id must be a
 *   string or an integer"` when `id` is present and invalid (`null`
 *   and ids {@link isRequestId} refuses included; no id), else `"Invalid request: expected a JSON-RPC 2.0 request
 *   or notification"` (id kept when valid). A batch (an array) is invalid too;
 *   transports that word batches differently check for arrays first.
 *
 * Never throws. `params` is the message's own object (not copied).
 */
export function classify(message: unknown): Classified {
  if (!isObject(message)) return invalid(undefined, NOT_A_MESSAGE);
  const method = message.method;
  if (typeof method !== "string") return isResponseShaped(message) ? response(message) : invalid(message.id, NOT_A_MESSAGE);
  if (message.jsonrpc !== "2.0") return invalid(message.id, NOT_A_MESSAGE);
  const params = message.params === undefined ? {} : message.params;
  if (!isObject(params)) return invalid(message.id, "Invalid request: params must be an object");
  if (!("id" in message)) return { kind: "notification", method, params };
  const id = message.id;
  if (!isRequestId(id)) return { kind: "invalid", message: "Invalid request: id must be a string or an integer" };
  return { kind: "request", id, method, params };
}

/** A message with `result` or `error` and no `method`: a response, or why it is not a well-formed one. */
function response(message: Record<string, unknown>): ClassifiedResponse | ClassifiedInvalidResponse {
  const id = message.id;
  const hasResult = "result" in message;
  let why: string | undefined;
  if (message.jsonrpc !== "2.0") why = 'jsonrpc must be "2.0"';
  else if (hasResult && "error" in message) why = "it has both result and error";
  else if (hasResult) {
    if (isRequestId(id)) return { kind: "response", id, result: message.result };
    why = "a result needs the id of a request (a string or an integer)";
  } else if (!isErrorObject(message.error)) why = "error must be an object with an integer code and a string message";
  else if (isRequestId(id)) return { kind: "response", id, error: message.error };
  else if (id === null || id === undefined) return { kind: "response", error: message.error };
  else why = "id must be a string, an integer or null";
  const text = `Invalid response: ${why}`;
  return isRequestId(id) ? { kind: "invalid-response", id, message: text } : { kind: "invalid-response", message: text };
}

/** JSON-RPC 2.0's Error object: an integer `code` and a string `message` (`data` is free). */
function isErrorObject(error: unknown): boolean {
  if (!isObject(error) || typeof error.message !== "string") return false;
  const code = error.code;
  return typeof code === "bigint" || Number.isInteger(code);
}

function invalid(id: unknown, message: string): ClassifiedInvalid {
  return isRequestId(id) ? { kind: "invalid", id, message } : { kind: "invalid", message };
}

/** Default bound on the nesting of `{` and `[` in one message: 64 levels. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/** Default bound on one message, in bytes (an HTTP body, a stdio line, a response): 4 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * True when JSON text, as UTF-8 bytes or as a string, nests `{`/`[` deeper
 * than `limit` levels. Scans it once, skipping strings, and stops as soon as
 * the limit is passed, so that a hostile message is refused before
 * `JSON.parse` (whose recursion a deep enough message would exhaust) runs.
 * The characters it looks at are ASCII, the same as bytes and as UTF-16
 * code units. Does not check that the text is JSON; never throws. (The
 * bound protects the server; the spec sets none: 2026-07-28, basic/index.)
 */
export function jsonDepthExceeds(text: Uint8Array | string, limit: number): boolean {
  // One loop per kind of input: indexing both through one accessor made the byte scan of a
  // hostile 4 MiB body two to three times slower.
  if (typeof text === "string") return depthOfText(text, limit);
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const b = text[i]!;
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x7b || b === 0x5b) {
      if (++depth > limit) return true;
    } else if (b === 0x7d || b === 0x5d) depth--;
  }
  return false;
}

/** {@link jsonDepthExceeds} of a string, by UTF-16 code unit. */
function depthOfText(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * Why {@link decodeJson} refused a message:
 * - `"utf-8"`: the bytes are not valid UTF-8 (-32700);
 * - `"empty"`: the text is empty or only whitespace (-32700; a line-based
 *   transport skips such a line instead of answering it);
 * - `"depth"`: nested deeper than the limit (-32600);
 * - `"syntax"`: not JSON (-32700).
 */
export type DecodeJsonReason = "utf-8" | "empty" | "depth" | "syntax";

/**
 * What {@link decodeJson} gives: the decoded value, or the code and message of
 * the error to answer with and the reason. `lossless` is true when the text
 * held a run of 16 digits and was read a second time, keeping every digit: only then may
 * `value` hold a `bigint`; false, `value` is exactly what `JSON.parse` gives.
 */
export type DecodeJsonResult =
  | { ok: true; value: unknown; lossless: boolean }
  | {
      ok: false;
      code: typeof JsonRpcErrorCode.ParseError | typeof JsonRpcErrorCode.InvalidRequest;
      message: string;
      reason: DecodeJsonReason;
    };

const UTF8 = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes one message: strict UTF-8 (a leading byte order mark is dropped),
 * then the depth bound, then {@link parseJson} (integers beyond 2^53 as `bigint`;
 * `lossless` says whether the value may hold one).
 *
 * @param maxDepth the deepest `{`/`[` nesting accepted (see {@link DEFAULT_MAX_JSON_DEPTH}).
 * @param subject how the error message names what was read, e.g. `"the body"`
 *   or `"the line"` (default `"the message"`).
 * @returns `{ ok: true, value, lossless }`, or `{ ok: false, code, message, reason }`:
 *   -32700 `"Parse error: {subject} is not UTF-8 JSON"` for invalid UTF-8,
 *   blank text or bad JSON; -32600 `"Invalid request: JSON nested deeper than
 *   {maxDepth}"` for too deep a nesting.
 */
export function decodeJson(bytes: Uint8Array, maxDepth: number, subject = "the message"): DecodeJsonResult {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return parseError(subject, "utf-8");
  }
  return decodeJsonText(text, maxDepth, subject);
}

/**
 * {@link decodeJson} for a message already read as text (by a transport that
 * checked its bytes were UTF-8 for a whole chunk at once): the same checks
 * and answers but the UTF-8 one (spec 2026-07-28, basic/index "Messages":
 * UTF-8 JSON-RPC; basic/transports/stdio: one message per line). A leading byte order mark is the caller's
 * to drop, as `decodeJson`'s decoder does.
 *
 * @returns as {@link decodeJson}.
 */
export function decodeJsonText(text: string, maxDepth: number, subject = "the message"): DecodeJsonResult {
  if (text.trim() === "") return parseError(subject, "empty");
  if (opensExceed(text, maxDepth) && jsonDepthExceeds(text, maxDepth)) {
    return {
      ok: false,
      code: JsonRpcErrorCode.InvalidRequest,
      message: `Invalid request: JSON nested deeper than ${maxDepth}`,
      reason: "depth",
    };
  }
  try {
    return readJson(text);
  } catch {
    return parseError(subject, "syntax");
  }
}

/**
 * True when `text` holds more than `limit` opening brackets (`{` and `[`, in
 * strings too): only then can it nest deeper than `limit`. Counted with
 * `indexOf`, which skips through text far faster than a loop over its bytes,
 * so a typical message (a handful of brackets) is cleared without the byte
 * scan of {@link jsonDepthExceeds} (about 1.7 ns a byte).
 */
function opensExceed(text: string, limit: number): boolean {
  let count = 0;
  for (let i = text.indexOf("{"); i !== -1; i = text.indexOf("{", i + 1)) if (++count > limit) return true;
  for (let i = text.indexOf("["); i !== -1; i = text.indexOf("[", i + 1)) if (++count > limit) return true;
  return false;
}

function parseError(subject: string, reason: DecodeJsonReason): DecodeJsonResult {
  return { ok: false, code: JsonRpcErrorCode.ParseError, message: `Parse error: ${subject} is not UTF-8 JSON`, reason };
}
