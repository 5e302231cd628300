/**
 * The requests this server answers, typed by method from the generated
 * method table of `@x/mcp-v2607` (spec 2026-07-28: the requests a client
 * sends) and the tasks extension's methods of `@x/mcp-v2607/tasks`: the
 * params a handler of method `M` receives and the result it returns. The
 * params are as the client sent them: only the envelope (`_meta`) has been
 * checked, so each handler reads every member as `unknown` and checks it.
 */
import type { ClientRequestMethod, InputRequiredResult, ParamsOf as ParamsOfMethod, ResponseResultOf } from "@x/mcp-v2607";
import type { TaskMethod } from "@x/mcp-v2607/tasks";
import type { JsonObject } from "./objects.js";

/** The methods of the tasks extension (`io.modelcontextprotocol/tasks`) a client sends: its `TaskMethod`s but the notification. */
export type TaskMethodName = Exclude<(typeof TaskMethod)[keyof typeof TaskMethod], (typeof TaskMethod)["Status"]>;

/** A method this server serves: a client request of the generated table, or one of the tasks extension. */
export type ServerMethod = ClientRequestMethod | TaskMethodName;

/**
 * The methods whose answer may be `input_required` (spec 2026-07-28,
 * basic/patterns/mrtr: their response type in the generated table admits an
 * `InputRequiredResult`): the only ones whose handlers may ask the client.
 */
export type AskingMethod = { [M in ClientRequestMethod]: InputRequiredResult extends ResponseResultOf<M> ? M : never }[ClientRequestMethod];

/**
 * Params as sent: the members the schema names, each `unknown` until the
 * handler checks it, and any other member a client added.
 */
export type SentParams<P> = { readonly [K in keyof P]?: unknown } & JsonObject;

/** The params of method `M`, as sent. */
export type ParamsOf<M extends ServerMethod> = M extends TaskMethodName
  ? JsonObject
  : SentParams<NonNullable<ParamsOfMethod<Exclude<M, TaskMethodName>>>>;
/** The result of method `M` (before the server stamps `resultType` and its info). */
export type ResultOf<M extends ServerMethod> = M extends TaskMethodName ? JsonObject : ResponseResultOf<Exclude<M, TaskMethodName>>;

/** One mark per {@link AskingMethod}: the compiler keeps it in step with the generated table. */
const ASKING: { readonly [M in AskingMethod]: true } = { "tools/call": true, "prompts/get": true, "resources/read": true };

/**
 * True for a method whose handlers may ask (an {@link AskingMethod}). The
 * server's own dispatch reads each method's entry instead (`MethodEntry.asks`);
 * this serves contexts made without a server (`@x/server/testing`).
 */
export function isAskingMethod(method: string): boolean {
  return Object.hasOwn(ASKING, method);
}
