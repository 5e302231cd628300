/**
 * The requests this server answers, typed by method (spec 2026-07-28): the
 * params a handler of method `M` receives and the result it returns. The
 * params are as the client sent them; only the envelope (`_meta`) has been
 * checked, so each handler still checks the fields it reads.
 */
import type {
  CallToolRequest,
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  DiscoverRequest,
  DiscoverResult,
  GetPromptRequest,
  GetPromptResult,
  InputRequiredResult,
  ListPromptsRequest,
  ListPromptsResult,
  ListResourcesRequest,
  ListResourcesResult,
  ListResourceTemplatesRequest,
  ListResourceTemplatesResult,
  ListToolsRequest,
  ListToolsResult,
  ReadResourceRequest,
  ReadResourceResult,
  SubscriptionsListenRequest,
  SubscriptionsListenResult,
} from "@x/mcp-v2607";

/** Params and result of each method the server serves; the asking methods may also answer `input_required`. */
export interface ServerMethods {
  "server/discover": { params: NonNullable<DiscoverRequest["params"]>; result: DiscoverResult };
  "tools/list": { params: NonNullable<ListToolsRequest["params"]>; result: ListToolsResult };
  "tools/call": { params: CallToolRequest["params"]; result: CallToolResult | InputRequiredResult };
  "prompts/list": { params: NonNullable<ListPromptsRequest["params"]>; result: ListPromptsResult };
  "prompts/get": { params: GetPromptRequest["params"]; result: GetPromptResult | InputRequiredResult };
  "resources/list": { params: NonNullable<ListResourcesRequest["params"]>; result: ListResourcesResult };
  "resources/templates/list": { params: NonNullable<ListResourceTemplatesRequest["params"]>; result: ListResourceTemplatesResult };
  "resources/read": { params: ReadResourceRequest["params"]; result: ReadResourceResult | InputRequiredResult };
  "completion/complete": { params: CompleteRequest["params"]; result: CompleteResult };
  "subscriptions/listen": { params: SubscriptionsListenRequest["params"]; result: SubscriptionsListenResult };
}

/** A method this server serves. */
export type ServerMethod = keyof ServerMethods;
/** The params of method `M`. */
export type ParamsOf<M extends ServerMethod> = ServerMethods[M]["params"];
/** The result of method `M` (before the server stamps `resultType` and its info). */
export type ResultOf<M extends ServerMethod> = ServerMethods[M]["result"];
