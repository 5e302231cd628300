/**
 * Hand-written constants of MCP revision 2024-11-05: the protocol version,
 * method names, the reserved `_meta` key and error codes. Each list is
 * checked against the schema by test/constants.test.ts.
 */

/**
 * The protocol revision this package describes, the first one. The client
 * proposes it in `InitializeRequest.params.protocolVersion` and the server
 * answers with the version it picked in `InitializeResult.protocolVersion`
 * (spec 2024-11-05: basic/lifecycle, "Version Negotiation"). Its HTTP
 * transport (HTTP with SSE) carries it in no header.
 */
export const PROTOCOL_VERSION = "2024-11-05";

// The frozen tables are marked pure: a bundle keeps only those it reads.

/**
 * The protocol versions whose messages this package's types and validators
 * describe: only {@link PROTOCOL_VERSION}. A program that speaks several
 * revisions uses the package generated for each of them.
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly ["2024-11-05"] = /* @__PURE__ */ Object.freeze([PROTOCOL_VERSION] as const);

/**
 * Every JSON-RPC method of revision 2024-11-05, requests and notifications,
 * keyed by a PascalCase form of the method string
 * (`"notifications/tools/list_changed"` → `NotificationsToolsListChanged`).
 * The values are the `method` constants of the schema's request and
 * notification definitions (spec 2024-11-05: schema reference, and each
 * feature's page). There is no `elicitation/create` yet (2025-06-18 adds it).
 *
 * Which side may send each one follows the schema's `ClientRequest`,
 * `ServerRequest`, `ClientNotification` and `ServerNotification` unions;
 * `ping`, `notifications/cancelled` and `notifications/progress` go both ways.
 *
 * @example
 * if (message.method === Method.Initialize) { ... }
 */
export const Method = /* @__PURE__ */ Object.freeze({
  // Lifecycle and utilities (both directions for ping)
  Initialize: "initialize",
  Ping: "ping",
  // Client to server requests
  ToolsList: "tools/list",
  ToolsCall: "tools/call",
  PromptsList: "prompts/list",
  PromptsGet: "prompts/get",
  ResourcesList: "resources/list",
  ResourcesTemplatesList: "resources/templates/list",
  ResourcesRead: "resources/read",
  ResourcesSubscribe: "resources/subscribe",
  ResourcesUnsubscribe: "resources/unsubscribe",
  CompletionComplete: "completion/complete",
  LoggingSetLevel: "logging/setLevel",
  // Server to client requests
  SamplingCreateMessage: "sampling/createMessage",
  RootsList: "roots/list",
  // Notifications
  NotificationsInitialized: "notifications/initialized",
  NotificationsCancelled: "notifications/cancelled",
  NotificationsProgress: "notifications/progress",
  NotificationsMessage: "notifications/message",
  NotificationsToolsListChanged: "notifications/tools/list_changed",
  NotificationsPromptsListChanged: "notifications/prompts/list_changed",
  NotificationsResourcesListChanged: "notifications/resources/list_changed",
  NotificationsResourcesUpdated: "notifications/resources/updated",
  NotificationsRootsListChanged: "notifications/roots/list_changed",
} as const);

/** A method string of revision 2024-11-05: one of the values of {@link Method}. */
export type Method = (typeof Method)[keyof typeof Method];

/**
 * `_meta` key of a request's params: a `ProgressToken` (string or integer)
 * asking the receiver for `notifications/progress` about this request, which
 * carry the same token. The only `_meta` member the schema declares as a
 * property (`Request.params._meta.progressToken`). Spec 2024-11-05:
 * basic/utilities/progress.
 */
export const META_PROGRESS_TOKEN = "progressToken";

/**
 * The JSON-RPC error codes of revision 2024-11-05 (spec: basic/messages,
 * "Responses", and the error sections of each feature's page):
 * - `ParseError` -32700: the message is not valid JSON;
 * - `InvalidRequest` -32600: not a valid JSON-RPC request;
 * - `MethodNotFound` -32601: the method does not exist or the capability is
 *   not offered;
 * - `InvalidParams` -32602: invalid parameters, also used for an unknown
 *   tool or prompt, an invalid cursor or log level;
 * - `InternalError` -32603;
 * - `ResourceNotFound` -32002: `resources/read` of a URI the server does not
 *   have (spec: server/resources, "Error Handling").
 *
 * The schema has no error definitions with a fixed code: the five JSON-RPC
 * codes are the spec's TypeScript schema constants (`PARSE_ERROR`, ...), and
 * -32002 appears only in the prose.
 */
export const ErrorCode = /* @__PURE__ */ Object.freeze({
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ResourceNotFound: -32002,
} as const);

/** One of the error codes of {@link ErrorCode}. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
