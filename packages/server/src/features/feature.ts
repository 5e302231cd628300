/**
 * What a protocol feature is to the server (internal). A feature (tools,
 * prompts, resources, completion, subscriptions, discover) owns its slice of
 * the registry, adds its capability to `server/discover`, and contributes
 * the methods it answers to the server's dispatch table. Adding a feature is
 * a new file here and one line in `server.ts`.
 */
import type { CacheHints } from "@x/builders";
import type { ClientCapabilities, Implementation, InputRequiredResult, ServerCapabilities } from "@x/mcp-v2607";
import { ErrorCode } from "@x/mcp-v2607/constants";
import type { HeaderParam } from "@x/mcp-v2607/wire";
import type { CacheableMethod } from "../cache.js";
import type { RequestContext, TransportInfo } from "../context.js";
import { McpError } from "../errors.js";
import type { KeyRing } from "../keys.js";
import type { AskingMethod, ParamsOf, ResultOf, ServerMethod } from "../methods.js";
import { isObject, type JsonObject } from "../objects.js";
import type { RunScope } from "../scope.js";
import type { ListKind } from "./subscriptions.js";

/**
 * A result as a handler may hand it back: `T` with `resultType` optional
 * (and the members `Filled` too), since the server fills them in: `resultType`
 * `"complete"` where the revision has it (spec 2026-07-28, basic/index
 * "Result"), none for an `initialize`-era session. A handler ported from
 * another SDK returns `{ content: [...] }` as it did.
 */
export type HandlerResult<T, Filled extends keyof T = never> = {
  [K in keyof T as K extends "resultType" | Filled ? never : K]: T[K];
} & { [K in ("resultType" | Filled) & keyof T]?: T[K] };

/** What the server shares with its features. */
export interface ServerHost {
  /** The `Implementation` of the server. */
  readonly info: Implementation;
  /** Signs cursors and seals `requestState`. */
  readonly keys: KeyRing;
  /** Items per page of every list. */
  readonly pageSize: number;
  /** The configured cache hints of a cacheable method. */
  hints(method: CacheableMethod): CacheHints;
  /** Tells `subscriptions/listen` streams that a list changed. */
  listChanged(kind: ListKind): void;
  /** The capabilities every feature adds up to. */
  capabilities(): ServerCapabilities;
}

/**
 * The handler of method `M`: its params as sent (envelope checked), the
 * request's context, the transport's view of the request, and the run's scope.
 */
export type Handler<M extends ServerMethod> = (
  params: ParamsOf<M>,
  ctx: RequestContext,
  transport: TransportInfo,
  scope: RunScope,
) => ResultOf<M> | Promise<ResultOf<M>>;

/**
 * One entry of a dispatch table, as the dispatcher and the transports read
 * it: what a method does, and what the server must know of it before it
 * runs. Written by the feature (or plug-in, or revision) that answers the
 * method, so that nothing outside it names the method.
 */
export interface MethodEntry {
  /** Answers the request: its params as sent, the request's context, the transport's view of it, the run's scope. */
  readonly handle: (params: JsonObject, ctx: RequestContext, transport: TransportInfo, scope: RunScope) => unknown;
  /** False while there is nothing to serve: the method is then unknown (-32601). */
  readonly enabled: () => boolean;
  /**
   * True when its handler may ask the client (`ctx.elicit`, ...): only the
   * methods whose answer may be `input_required` (spec 2026-07-28,
   * basic/patterns/mrtr). A revision runs such a method with a route for
   * its asks, and Streamable HTTP may answer it as a stream early.
   */
  readonly asks?: boolean;
  /**
   * The parameters the request's HTTP headers must mirror (`x-mcp-header`
   * of the tool `params` names; spec 2026-07-28, basic/transports/streamable-http
   * "Mcp-Param"); `undefined` for none.
   */
  readonly headerParams?: (params: JsonObject) => readonly HeaderParam[] | undefined;
  /**
   * The OAuth scopes the registration the request names requires
   * (`requiredScopes` of a tool, prompt, resource or template, or of what a
   * completion completes); `undefined` or empty for none.
   */
  readonly requiredScopes?: (params: JsonObject) => readonly string[] | undefined;
  /**
   * The JSON text of a result this feature made and kept written
   * (`JSON.stringify` of it), or `undefined`: the stamped answer is then
   * written around it, with no second walk of the result.
   */
  readonly textOf?: (result: object) => string | undefined;
}

/**
 * An entry typed by its method, as a feature writes it: its handler's params
 * and result are method `M`'s, and `asks` is allowed only where the method's
 * answer may be `input_required`. Each is a {@link MethodEntry} (the params
 * as sent are read as `unknown` member by member).
 */
export type TypedEntry<M extends ServerMethod> = Omit<MethodEntry, "handle" | "asks"> & {
  readonly handle: Handler<M>;
  readonly asks?: M extends AskingMethod ? boolean : never;
};

/** The methods a feature answers, typed by method. */
export type MethodTable = { readonly [M in ServerMethod]?: TypedEntry<M> };

/** A protocol feature. */
export interface Feature {
  /** Adds this feature's capability to `caps` when it has something to serve. */
  capabilities(caps: ServerCapabilities): void;
  /** The methods it answers. */
  readonly methods: MethodTable;
}

/** The capabilities of `required` that `declared` lacks (recursively by key), or `undefined` when none is missing. */
export function missingCapabilities(required: JsonObject, declared: JsonObject): JsonObject | undefined {
  let missing: JsonObject | undefined;
  for (const [key, value] of Object.entries(required)) {
    const have = declared[key];
    if (!isObject(have)) {
      missing ??= {};
      missing[key] = value;
    } else if (isObject(value)) {
      const inner = missingCapabilities(value, have);
      if (inner) {
        missing ??= {};
        missing[key] = inner;
      }
    }
  }
  return missing;
}

/**
 * Refuses a request whose client did not declare what a registration requires.
 * @throws McpError(-32021) naming the missing capabilities.
 */
export function checkRequiredCapabilities(required: ClientCapabilities | undefined, ctx: RequestContext): void {
  if (!required) return;
  const missing = missingCapabilities(required, ctx.clientCapabilities);
  if (missing) {
    throw new McpError(
      ErrorCode.MissingRequiredClientCapability,
      `This request requires client capabilities: ${Object.keys(missing).join(", ")}`,
      {
        requiredCapabilities: required,
      },
    );
  }
}

/** True for a result a handler built itself with `resultType: "input_required"` (the explicit form). */
export function isInputRequired(value: unknown): value is InputRequiredResult {
  return isObject(value) && value.resultType === "input_required";
}
