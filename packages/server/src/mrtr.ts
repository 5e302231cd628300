/**
 * Multi Round-Trip Requests on the server (spec 2026-07-28,
 * basic/patterns/mrtr): a handler asks with `await ctx.elicit(...)` (or
 * `ctx.createMessage`, `ctx.listRoots`, `ctx.elicitUrl`); an ask whose
 * answer is not there yet ends the round with an `InputRequiredResult`, and
 * the client's retry re-runs the handler with the answers, found by key.
 *
 * Keys: by default the ask's kind and its position in run order
 * (`elicit-1`, `elicit-2`, `sample-1`, `roots-1`; URL elicitations count as
 * `elicit`), or the key the handler names (`{ key: "user_name" }`).
 *
 * `requestState` is sealed: HMAC-SHA256 over the answers so far, an expiry,
 * the principal, the method and a digest of the request's parameters.
 */
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  InputRequest,
  InputRequests,
  ListRootsResult,
} from "@x/mcp-v2607";
import { ErrorCode, Method } from "@x/mcp-v2607/constants";
import { createMessageRequest, elicitRequest, elicitUrlRequest } from "@x/builders";
type Validators = typeof import("./ask-validators.js");

/**
 * The generated validators, loaded on the first ask rather than when the
 * package is imported: the module holds every definition's validator and
 * costs about 20 ms to load, which a server that never asks should not pay.
 */
let V: Validators | undefined;

/** Loads the validators the asks use (once). Asks are checked only after it resolved. */
export async function loadAskValidators(): Promise<void> {
  V ??= await import("./ask-validators.js");
}
import { McpError } from "./errors.js";
import { b64url, fromB64url, type KeyRing, nodeCrypto } from "./keys.js";
import { type CompiledSchema, compileSchema } from "./schema.js";

/** What an ask answers when the client did not declare the capability it needs. */
export interface NotSupported {
  action: "not_supported";
  /** The client capability that was missing, e.g. `"elicitation.form"`, `"sampling"`. */
  capability: string;
}

/** The answer of a form elicitation: the client's `ElicitResult`, or not supported. */
export type ElicitAnswer = ElicitResult | NotSupported;
/** The answer of a sampling request. @deprecated Sampling is deprecated by the 2026-07-28 spec. */
export type SampleAnswer = CreateMessageResult | NotSupported;
/** The answer of a roots request. @deprecated Roots are deprecated by the 2026-07-28 spec. */
export type RootsAnswer = ListRootsResult | NotSupported;

/** True when an ask answered "not supported" (the client lacks the capability). */
export function isNotSupported(answer: unknown): answer is NotSupported {
  return typeof answer === "object" && answer !== null && (answer as NotSupported).action === "not_supported";
}

/** Options of one ask. */
export interface AskOptions {
  /** The key of this ask in `inputRequests`/`inputResponses`; default kind and position (`elicit-1`). Unique per run. */
  key?: string;
}

type Kind = "elicit" | "sample" | "roots";

/** One question, not yet asked: made by `ctx.ask.*`, answered by `ctx.all([...])`. */
export interface Ask<T> {
  readonly kind: Kind;
  readonly request: InputRequest;
  readonly options: AskOptions;
  /** The capability the ask needs, or `undefined` when the client declared it. */
  readonly missing: string | undefined;
  /**
   * Checks the question itself (after {@link loadAskValidators}).
   * @throws TypeError when its parameters are not acceptable.
   */
  readonly check: () => void;
  /** Reads an answer; `undefined` when it is not acceptable (then the question is asked again). */
  readonly accept: (answer: unknown) => T | undefined;
  /** Phantom field carrying the answer type. */
  readonly __answer?: T;
}

/** Thrown by an ask to end the round; handlers should let it pass (a `finally` still runs). */
export class InputRequiredSignal extends Error {
  constructor() {
    super("input required: this round ends here and the client will retry with the answers");
    this.name = "InputRequiredSignal";
  }
}

/**
 * The state of one run of a handler within one round. Most runs ask
 * nothing: what only asking needs (key counters, the set of keys used) is
 * made on the first ask.
 */
export class Round {
  /** Answers known in this round: from `requestState`, then this round's `inputResponses` over them. */
  readonly answers: Readonly<Record<string, unknown>>;
  /** The asks of this run that found no acceptable answer. */
  readonly pending: InputRequests = {};
  /** Answers this run used, carried in the next `requestState`. */
  readonly used: Record<string, unknown> = {};
  #counters: Record<Kind, number> | undefined = undefined;
  #keys: Set<string> | undefined = undefined;
  /** True once the handler's run is over: asks after it are refused. */
  finished = false;
  /** True once an ask found no acceptable answer: the round ends with `input_required`. */
  ended = false;

  constructor(answers: Readonly<Record<string, unknown>>) {
    this.answers = answers;
  }

  /** Resolves asks in order; records every unanswered one, then ends the round if any. */
  resolve(asks: readonly Ask<unknown>[]): unknown[] {
    const results: unknown[] = [];
    const keys: string[] = [];
    this.#counters ??= { elicit: 0, sample: 0, roots: 0 };
    this.#keys ??= new Set<string>();
    const counters = this.#counters;
    const used = this.#keys;
    for (const ask of asks) {
      const key = ask.options.key ?? `${ask.kind}-${++counters[ask.kind]}`;
      if (used.has(key)) throw new Error(`ask key ${JSON.stringify(key)} is used twice in one run`);
      used.add(key);
      keys.push(key);
    }
    asks.forEach((ask, i) => {
      const key = keys[i]!;
      if (ask.missing !== undefined) {
        results.push({ action: "not_supported", capability: ask.missing } satisfies NotSupported);
        return;
      }
      const raw = this.answers[key];
      const answer = raw === undefined ? undefined : ask.accept(raw);
      if (answer === undefined) {
        this.pending[key] = ask.request;
        this.ended = true;
        results.push(undefined);
      } else {
        this.used[key] = raw;
        results.push(answer);
      }
    });
    if (this.ended) throw new InputRequiredSignal();
    return results;
  }
}

/** The methods on which a server may answer `input_required` (spec: mrtr). */
export const ASKING_METHODS: ReadonlySet<string> = new Set([Method.ToolsCall, Method.PromptsGet, Method.ResourcesRead]);

const answerSchemas = new Map<string, CompiledSchema>();
function answerSchema(requestedSchema: object): CompiledSchema {
  const text = JSON.stringify(requestedSchema);
  let compiled = answerSchemas.get(text);
  if (!compiled) {
    compiled = compileSchema(requestedSchema);
    if (answerSchemas.size >= 256) answerSchemas.delete(answerSchemas.keys().next().value!);
    answerSchemas.set(text, compiled);
  }
  return compiled;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Form elicitation needs `elicitation` with `form`, or an empty `elicitation` (form is the default mode). */
function formMissing(caps: ClientCapabilities): string | undefined {
  const e = caps.elicitation as Record<string, unknown> | undefined;
  if (!isObject(e)) return "elicitation.form";
  if (e.form !== undefined || e.url === undefined) return undefined;
  return "elicitation.form";
}

/**
 * Checks what a handler asks with the rules of `@x/builders`' request
 * builders (the same rules a handler building an `InputRequiredResult` by
 * hand meets); the client's answers, which are untrusted, go through the
 * generated validators instead.
 * @throws TypeError (or RangeError) prefixed with the ask's name.
 */
function checked(name: string, build: () => unknown): void {
  try {
    build();
  } catch (error) {
    if (error instanceof RangeError) throw new RangeError(`${name}: ${error.message}`);
    throw new TypeError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Builders of asks for one request's client capabilities. */
export function askBuilders(caps: ClientCapabilities) {
  return {
    /**
     * A form elicitation (spec: client/elicitation). `requestedSchema` must be
     * a flat object schema of primitive properties.
     * @throws TypeError when the message or schema is not acceptable.
     */
    elicit(message: string, requestedSchema: ElicitRequestFormParams["requestedSchema"], options: AskOptions = {}): Ask<ElicitResult> {
      const params = { message, requestedSchema } as ElicitRequestFormParams;
      let matches: CompiledSchema | undefined;
      return {
        kind: "elicit",
        request: { method: Method.ElicitationCreate, params } as InputRequest,
        options,
        missing: formMissing(caps),
        check: () => {
          checked("elicit", () => elicitRequest(message, requestedSchema));
          matches ??= answerSchema(requestedSchema);
        },
        accept: (answer) => {
          if (!V!.ElicitResult(answer)) return undefined;
          if (answer.action === "accept" && matches!(answer.content ?? {}).length > 0) return undefined;
          return answer;
        },
      };
    },
    /** A URL-mode elicitation: sends the user to `url` (spec: client/elicitation, URL mode). */
    elicitUrl(message: string, url: string, options: AskOptions = {}): Ask<ElicitResult> {
      const e = caps.elicitation as Record<string, unknown> | undefined;
      return {
        kind: "elicit",
        request: { method: Method.ElicitationCreate, params: { mode: "url", message, url } } as InputRequest,
        options,
        missing: isObject(e) && e.url !== undefined ? undefined : "elicitation.url",
        check: () => checked("elicitUrl", () => elicitUrlRequest(message, url)),
        accept: (answer) => (V!.ElicitResult(answer) ? answer : undefined),
      };
    },
    /** A sampling request. @deprecated Sampling is deprecated by the 2026-07-28 spec. */
    createMessage(params: CreateMessageRequestParams, options: AskOptions = {}): Ask<CreateMessageResult> {
      return {
        kind: "sample",
        request: { method: Method.SamplingCreateMessage, params } as InputRequest,
        options,
        missing: isObject(caps.sampling) ? undefined : "sampling",
        check: () => checked("createMessage", () => createMessageRequest(params)),
        accept: (answer) => (V!.CreateMessageResult(answer) ? answer : undefined),
      };
    },
    /** A roots request. @deprecated Roots are deprecated by the 2026-07-28 spec. */
    listRoots(options: AskOptions = {}): Ask<ListRootsResult> {
      return {
        kind: "roots",
        request: { method: Method.RootsList, params: {} } as InputRequest,
        options,
        missing: isObject(caps.roots) ? undefined : "roots",
        check: () => {},
        accept: (answer) => (V!.ListRootsResult(answer) ? answer : undefined),
      };
    },
  };
}

/**
 * Checks `inputResponses` as sent.
 * @throws McpError(-32602) when it is not an object (`null` included) or an entry is not an object.
 */
export function readInputResponses(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isObject(value)) throw new McpError(ErrorCode.InvalidParams, "Invalid params: inputResponses must be an object");
  for (const [key, entry] of Object.entries(value)) {
    if (!isObject(entry)) throw new McpError(ErrorCode.InvalidParams, `Invalid params: inputResponses.${key} must be an object`, { key });
  }
  return value;
}

// --- requestState ---------------------------------------------------------

const PURPOSE = "x-mcp:requestState";

/** What a sealed `requestState` binds. */
export interface StateBinding {
  method: string;
  params: Record<string, unknown>;
  principal: string | undefined;
}

/** JSON with object keys sorted, so equal values digest equally. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Digest of the request's parameters, without `_meta`, `inputResponses` and `requestState`. */
export function paramsDigest(params: Record<string, unknown>): string {
  const { _meta, inputResponses, requestState, ...rest } = params;
  // An absent `arguments` and an empty one are the same request.
  if (rest.arguments === undefined) rest.arguments = {};
  return nodeCrypto().createHash("sha256").update(canonical(rest)).digest("base64url");
}

/** Seals the answers of a round into a `requestState` string. */
export function sealState(keys: KeyRing, answers: Record<string, unknown>, binding: StateBinding, ttlMs: number, now = Date.now()): string {
  const payload = { v: 1, a: answers, e: now + ttlMs, p: binding.principal ?? null, m: binding.method, d: paramsDigest(binding.params) };
  const body = b64url(Buffer.from(JSON.stringify(payload)));
  return `${body}.${b64url(keys.sign(PURPOSE, body))}`;
}

/**
 * Opens a `requestState` and returns the answers it carries.
 * @throws McpError(-32602) when the state is malformed, fails verification,
 *   has expired, or belongs to another principal, method or request.
 */
export function openState(keys: KeyRing, state: unknown, binding: StateBinding, now = Date.now()): Record<string, unknown> {
  const refuse = (why: string) => new McpError(ErrorCode.InvalidParams, `Invalid requestState: ${why}`);
  if (typeof state !== "string") throw refuse("must be a string");
  const dot = state.indexOf(".");
  const body = dot === -1 ? "" : state.slice(0, dot);
  const tag = dot === -1 ? undefined : fromB64url(state.slice(dot + 1));
  if (!body || !tag || !/^[A-Za-z0-9_-]+$/.test(body) || !keys.verify(PURPOSE, body, tag)) throw refuse("failed verification");
  let payload: { v?: unknown; a?: unknown; e?: unknown; p?: unknown; m?: unknown; d?: unknown };
  try {
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    throw refuse("failed verification");
  }
  if (payload.v !== 1 || !isObject(payload.a) || typeof payload.e !== "number") throw refuse("failed verification");
  if (payload.e <= now) throw refuse("expired");
  if (payload.p !== (binding.principal ?? null)) throw refuse("issued to another principal");
  if (payload.m !== binding.method || payload.d !== paramsDigest(binding.params)) throw refuse("issued for another request");
  return payload.a;
}
