/**
 * The requests this server answers, typed by method from the generated
 * method table of `@x/mcp-v2607` (spec 2026-07-28): the params a handler of
 * method `M` receives and the result it returns (the asking methods may also
 * answer `input_required`). The params are as the client sent them: only
 * the envelope (`_meta`) has been checked, so each handler still checks the
 * fields it reads.
 */
import type { ParamsOf as ParamsOfMethod, ResponseResultOf } from "@x/mcp-v2607";
import type { JsonObject } from "./objects.js";

/** The methods of the tasks extension (`io.modelcontextprotocol/tasks`), outside the spec's method table. */
export type TaskMethodName = "tasks/get" | "tasks/update" | "tasks/cancel";

/** A method this server serves. */
export type ServerMethod =
  | "server/discover"
  | "tools/list"
  | "tools/call"
  | "prompts/list"
  | "prompts/get"
  | "resources/list"
  | "resources/templates/list"
  | "resources/read"
  | "completion/complete"
  | "subscriptions/listen"
  | TaskMethodName;

/** The params of method `M`. */
export type ParamsOf<M extends ServerMethod> = M extends TaskMethodName
  ? JsonObject
  : NonNullable<ParamsOfMethod<Exclude<M, TaskMethodName>>>;
/** The result of method `M` (before the server stamps `resultType` and its info). */
export type ResultOf<M extends ServerMethod> = M extends TaskMethodName ? JsonObject : ResponseResultOf<Exclude<M, TaskMethodName>>;
