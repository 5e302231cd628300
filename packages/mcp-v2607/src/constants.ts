/**
 * Hand-written constants of MCP revision 2026-07-28: the protocol version,
 * method names, reserved `_meta` keys, error codes and result kinds. Each
 * list is checked against the schema by test/constants.test.ts.
 */

/**
 * The protocol revision this package describes, as sent in
 * `_meta["io.modelcontextprotocol/protocolVersion"]` and in the
 * `MCP-Protocol-Version` HTTP header (spec: basic/versioning, "Protocol
 * Version Negotiation").
 */
export const PROTOCOL_VERSION = "2026-07-28";

// The frozen tables are marked pure: a bundle keeps only those it reads.

/**
 * The protocol versions whose messages this package's types and validators
 * describe: only {@link PROTOCOL_VERSION}. A server that also answers older
 * revisions lists them in its own `DiscoverResult.supportedVersions`, using
 * the package generated for each of them.
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly ["2026-07-28"] = /* @__PURE__ */ Object.freeze([PROTOCOL_VERSION] as const);

/**
 * Every JSON-RPC method of revision 2026-07-28, requests and notifications,
 * keyed by a PascalCase form of the method string
 * (`"notifications/tools/list_changed"` → `NotificationsToolsListChanged`).
 * The values are the `method` constants of the schema's request and
 * notification definitions (e.g. `CallToolRequest.method`; spec: schema
 * reference, and each feature's page).
 *
 * @example
 * if (request.method === Method.ToolsCall) { ... }
 */
export const Method = /* @__PURE__ */ Object.freeze({
  // Client to server requests
  ServerDiscover: "server/discover",
  ToolsList: "tools/list",
  ToolsCall: "tools/call",
  PromptsList: "prompts/list",
  PromptsGet: "prompts/get",
  ResourcesList: "resources/list",
  ResourcesTemplatesList: "resources/templates/list",
  ResourcesRead: "resources/read",
  SubscriptionsListen: "subscriptions/listen",
  CompletionComplete: "completion/complete",
  // Server to client requests, carried in an InputRequiredResult
  SamplingCreateMessage: "sampling/createMessage",
  ElicitationCreate: "elicitation/create",
  RootsList: "roots/list",
  // Notifications
  NotificationsCancelled: "notifications/cancelled",
  NotificationsProgress: "notifications/progress",
  NotificationsMessage: "notifications/message",
  NotificationsToolsListChanged: "notifications/tools/list_changed",
  NotificationsPromptsListChanged: "notifications/prompts/list_changed",
  NotificationsResourcesListChanged: "notifications/resources/list_changed",
  NotificationsResourcesUpdated: "notifications/resources/updated",
  NotificationsSubscriptionsAcknowledged: "notifications/subscriptions/acknowledged",
} as const);

/** A method string of revision 2026-07-28: one of the values of {@link Method}. */
export type Method = (typeof Method)[keyof typeof Method];

/**
 * `_meta` key of a request: the protocol version the client speaks on this
 * request (a string, required on every request). Spec: basic/index,
 * "`_meta`", per-request protocol fields; schema: `RequestMetaObject`.
 */
export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

/**
 * `_meta` key of a request: the client's `ClientCapabilities` for this
 * request (required on every request; an empty object means none).
 * Spec: basic/index, "`_meta`", per-request protocol fields; schema:
 * `RequestMetaObject`.
 */
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

/**
 * `_meta` key of a request: the client's `Implementation` (name, version),
 * for display and logging only. Spec: basic/index, "`_meta`", per-request
 * protocol fields; schema: `RequestMetaObject`.
 */
export const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

/**
 * `_meta` key of a result: the server's `Implementation` (name, version).
 * Spec: basic/index, "`_meta`", per-response protocol fields; schema:
 * `ResultMetaObject`.
 */
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

/**
 * `_meta` key of a request: the lowest `LoggingLevel` the client wants as
 * `notifications/message` for this request; when absent the server sends
 * none (replaces `logging/setLevel`). Spec: server/utilities/logging;
 * schema: `RequestMetaObject`.
 */
export const META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";

/**
 * `_meta` key of a notification delivered on a `subscriptions/listen` stream,
 * and of that stream's closing result: the JSON-RPC id (`RequestId`) of the
 * `subscriptions/listen` request that opened the stream. Spec:
 * basic/patterns/subscriptions; schema: `NotificationMetaObject`,
 * `SubscriptionsListenResultMetaObject`.
 */
export const META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

/**
 * The JSON-RPC error codes revision 2026-07-28 uses (spec: basic/index, "Error
 * Codes"), named after the schema's error definitions (`ParseError`,
 * `InvalidRequestError`, ..., `UnsupportedProtocolVersionError`):
 * - `ParseError` -32700: the message is not valid JSON;
 * - `InvalidRequest` -32600: not a valid JSON-RPC request;
 * - `MethodNotFound` -32601: the method does not exist or is not offered;
 * - `InvalidParams` -32602: invalid parameters, also used for an unknown
 *   tool, prompt or resource;
 * - `InternalError` -32603;
 * - `HeaderMismatch` -32020: HTTP headers disagree with the body, or a
 *   required header is missing (HTTP status 400);
 * - `MissingRequiredClientCapability` -32021: the request needs a client
 *   capability the client did not declare in its `_meta`;
 * - `UnsupportedProtocolVersion` -32022: the server does not speak the
 *   requested protocol version.
 *
 * Errors are recognised by code, never by class.
 */
export const ErrorCode = /* @__PURE__ */ Object.freeze({
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const);

/** One of the error codes of {@link ErrorCode}. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * The kinds of result revision 2026-07-28 defines, the values of a result's
 * `resultType` (spec: basic/index, "Result Responses" → "ResultType";
 * basic/patterns/mrtr):
 * - `"complete"`: the result holds the final answer;
 * - `"input_required"`: the result is an `InputRequiredResult`; the client
 *   answers its `inputRequests` and retries the request.
 *
 * The schema types `resultType` (and its own `ResultType` definition) as any
 * string, since extensions may add kinds; a client must treat a kind it does
 * not recognise as invalid. This closed set, which
 * shadows the schema's `ResultType` in this package's main entry point, is
 * what this revision means. The schema's version stays available from
 * `@x/mcp-v2607/types`.
 */
export const ResultType = /* @__PURE__ */ Object.freeze({
  Complete: "complete",
  InputRequired: "input_required",
} as const);

/** `"complete" | "input_required"`: see {@link ResultType}. */
export type ResultType = (typeof ResultType)[keyof typeof ResultType];
