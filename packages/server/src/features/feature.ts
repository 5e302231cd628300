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
import type { CacheableMethod } from "../cache.js";
import type { RequestContext, RunScope, TransportInfo } from "../context.js";
import { McpError } from "../errors.js";
import type { KeyRing } from "../keys.js";
import type { ParamsOf, ResultOf, ServerMethod } from "../methods.js";
import { isObject, type JsonObject } from "../objects.js";
import type { ListKind } from "./subscriptions.js";

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

/** One entry of the dispatch table. */
export interface MethodEntry<M extends ServerMethod = ServerMethod> {
  readonly handle: Handler<M>;
  /** False while the feature has nothing to serve: the method is then unknown (-32601). */
  readonly enabled: () => boolean;
}

/** The methods a feature answers, typed by method. */
export type MethodTable = { readonly [M in ServerMethod]?: MethodEntry<M> };

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
