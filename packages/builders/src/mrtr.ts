/**
 * Multi Round-Trip Requests: the `InputRequiredResult` a server answers when
 * it needs input from the client, and the input requests it carries (spec
 * 2026-07-28, basic/patterns/mrtr; client/elicitation, client/sampling,
 * client/roots).
 */
import type {
  CreateMessageRequest,
  CreateMessageRequestParams,
  ElicitRequest,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  InputRequest,
  InputRequests,
  InputRequiredResult,
  ListRootsRequest,
} from "@x/mcp-v2607";
import { checkSamplingContent } from "./blocks.js";
import { checkJsonObject } from "./members.js";
import { checkPrimitiveSchema } from "./primitive.js";
import { plainData } from "./snapshot.js";
import { describeValue, isGiven, isPlainObject, optionsObject } from "./util.js";

/** An `elicitation/create` request in form mode. */
export type FormElicitRequest = ElicitRequest & { params: ElicitRequestFormParams };
/** An `elicitation/create` request in URL mode. */
export type UrlElicitRequest = ElicitRequest & { params: ElicitRequestURLParams };
/** The restricted JSON Schema of a form-mode elicitation: a flat object of primitive properties. */
export type RequestedSchema = ElicitRequestFormParams["requestedSchema"];

/** The `type` values a form property may have (the `PrimitiveSchemaDefinition` family; `array` is the multi-select enum). */
const PRIMITIVE_TYPES = new Set(["string", "number", "integer", "boolean", "array"]);

function requireMessage(message: unknown): string {
  if (typeof message !== "string") throw new TypeError(`message must be a string, got ${describeValue(message)}`);
  return message;
}

/**
 * Builds a form-mode `ElicitRequest`,
 * `{ method: "elicitation/create", params: { mode: "form", message, requestedSchema } }`,
 * for an `InputRequiredResult`'s `inputRequests` (spec: client/elicitation,
 * "Form Mode Elicitation Requests"). `mode: "form"` is always written, though
 * the spec lets it be omitted. `requestedSchema` is kept as given (a copy
 * read once before it was checked: see the README, "Plain data").
 *
 * The schema must be flat: `type: "object"`, a `properties` object whose
 * every value is an object with a primitive `type` (`string`, `number`,
 * `integer`, `boolean`, or `array` for a multi-select enum) and the members
 * of one of the spec's primitive schemas (`minLength` an integer, `enum`
 * strings, `oneOf` of `{ const, title }`, `default` of the property's type,
 * ...), and an optional `required` list naming declared properties.
 *
 * @throws TypeError naming `message` when it is not a string, or naming
 *   `requestedSchema` (or the offending `requestedSchema.properties.<name>` /
 *   `requestedSchema.required`) when the schema is not flat as above or not
 *   plain JSON data (a function such as `toJSON`, a `Date`, a cycle);
 *   RangeError when it is nested deeper than 1000 levels.
 *
 * @example
 * elicitRequest("Your GitHub username?", { type: "object", properties: { name: { type: "string" } }, required: ["name"] });
 * // { method: "elicitation/create", params: { mode: "form", message: "Your GitHub username?", requestedSchema: {...} } }
 */
export function elicitRequest(message: string, requestedSchema: RequestedSchema): FormElicitRequest {
  return formRequest(message, plainData(requestedSchema, "requestedSchema"));
}

/** {@link elicitRequest} of a schema that is a snapshot already. */
function formRequest(message: string, requestedSchema: RequestedSchema): FormElicitRequest {
  requireMessage(message);
  if (!isPlainObject(requestedSchema) || requestedSchema.type !== "object" || !isPlainObject(requestedSchema.properties)) {
    throw new TypeError(`requestedSchema must be { type: "object", properties: {...} }, got ${describeValue(requestedSchema)}`);
  }
  for (const [name, property] of Object.entries(requestedSchema.properties)) {
    if (!isPlainObject(property) || typeof property.type !== "string" || !PRIMITIVE_TYPES.has(property.type)) {
      throw new TypeError(
        `requestedSchema.properties.${name} must be a primitive schema (type string, number, integer, boolean or array), got ${describeValue(property)}`,
      );
    }
    checkPrimitiveSchema(property, `requestedSchema.properties.${name}`);
  }
  if (requestedSchema.$schema !== undefined && typeof requestedSchema.$schema !== "string") {
    throw new TypeError(`requestedSchema.$schema must be a string when given, got ${describeValue(requestedSchema.$schema)}`);
  }
  const required: unknown = requestedSchema.required;
  if (required !== undefined) {
    if (!Array.isArray(required) || !required.every((key) => typeof key === "string" && Object.hasOwn(requestedSchema.properties, key))) {
      throw new TypeError(`requestedSchema.required must list declared property names, got ${describeValue(required)}`);
    }
  }
  return { method: "elicitation/create", params: { mode: "form", message, requestedSchema } };
}

/**
 * Builds a URL-mode `ElicitRequest`,
 * `{ method: "elicitation/create", params: { mode: "url", message, url } }`
 * (spec: client/elicitation, "URL Mode Elicitation Requests"), for
 * interactions that must not pass through the client (credentials, payment).
 *
 * There is no `elicitationId` parameter: revision 2026-07-28 removed that
 * field (changelog, "Minor changes", item 11); a server that must correlate an
 * out-of-band interaction across retries encodes its own id in `requestState`.
 *
 * @throws TypeError naming `message` when it is not a string, or naming `url`
 *   when it is not an absolute URL (`new URL(url)` must accept it).
 *
 * @example
 * elicitUrlRequest("Please set your API key", "https://mcp.example.com/ui/set_api_key");
 * // { method: "elicitation/create", params: { mode: "url", message: "Please set your API key", url: "https://..." } }
 */
export function elicitUrlRequest(message: string, url: string): UrlElicitRequest {
  requireMessage(message);
  if (typeof url !== "string" || !URL.canParse(url)) {
    throw new TypeError(`url must be an absolute URL string, got ${describeValue(url)}`);
  }
  return { method: "elicitation/create", params: { mode: "url", message, url } };
}

/**
 * Builds a `CreateMessageRequest`,
 * `{ method: "sampling/createMessage", params }` (spec: client/sampling),
 * asking the client to sample its model. `params` is kept as given (a copy
 * read once before it was checked: see the README, "Plain data").
 *
 * @throws TypeError naming `params` when it is not an object, naming
 *   `messages` / `messages[i]` when it is not an array of `{ role, content }`
 *   messages with role `"user"` or `"assistant"` and a content of text,
 *   image, audio, `tool_use` or `tool_result` blocks (one, or an array);
 *   naming `systemPrompt`, `temperature`, `stopSequences`, `includeContext`
 *   or `metadata` when of the wrong type; naming the member when `params` is
 *   not plain JSON data (a function such as `toJSON`, a `Date`, a cycle);
 *   RangeError naming `maxTokens` when it is not an integer >= 1, or when
 *   `params` is nested deeper than 1000 levels.
 *
 * @example
 * createMessageRequest({ messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }], maxTokens: 100 });
 * // { method: "sampling/createMessage", params: { messages: [...], maxTokens: 100 } }
 */
export function createMessageRequest(params: CreateMessageRequestParams): CreateMessageRequest {
  return samplingRequest(plainData(params, "params"));
}

/** {@link createMessageRequest} of params that are a snapshot already. */
function samplingRequest(params: CreateMessageRequestParams): CreateMessageRequest {
  if (!isPlainObject(params)) throw new TypeError(`params must be a plain object, got ${describeValue(params)}`);
  const messages: unknown = params.messages;
  if (!Array.isArray(messages)) throw new TypeError(`messages must be an array, got ${describeValue(messages)}`);
  messages.forEach((message, index) => {
    if (!isPlainObject(message) || (message.role !== "user" && message.role !== "assistant")) {
      throw new TypeError(`messages[${index}] must be { role: "user" | "assistant", content }, got ${describeValue(message)}`);
    }
    checkSamplingContent(message.content, `messages[${index}].content`);
    if (message._meta !== undefined && !isPlainObject(message._meta)) {
      throw new TypeError(`messages[${index}]._meta must be a plain object when given, got ${describeValue(message._meta)}`);
    }
  });
  checkSamplingOptions(params);
  const maxTokens: unknown = params.maxTokens;
  if (typeof maxTokens !== "number" || !Number.isSafeInteger(maxTokens) || maxTokens < 1) {
    throw new RangeError(`maxTokens must be an integer >= 1, got ${describeValue(maxTokens)}`);
  }
  return { method: "sampling/createMessage", params };
}

/**
 * The plain members of `sampling/createMessage` params a builder can check
 * without the schema: `systemPrompt` a string, `temperature` a finite
 * number, `stopSequences` strings, `includeContext` one of its three values,
 * `metadata` a JSON object (no `null`, fractions or `bigint`s in it, as the schema's `JSONObject`). `modelPreferences`, `tools` and `toolChoice`
 * are kept as given (the `@x/mcp-v2607` validator's).
 */
function checkSamplingOptions(params: Record<string, unknown>): void {
  const { systemPrompt, temperature, stopSequences, includeContext, metadata } = params;
  if (systemPrompt !== undefined && typeof systemPrompt !== "string") {
    throw new TypeError(`systemPrompt must be a string when given, got ${describeValue(systemPrompt)}`);
  }
  if (temperature !== undefined && !(typeof temperature === "number" && Number.isFinite(temperature))) {
    throw new TypeError(`temperature must be a finite number when given, got ${describeValue(temperature)}`);
  }
  if (stopSequences !== undefined && !(Array.isArray(stopSequences) && stopSequences.every((s) => typeof s === "string"))) {
    throw new TypeError(`stopSequences must be an array of strings when given, got ${describeValue(stopSequences)}`);
  }
  if (includeContext !== undefined && includeContext !== "none" && includeContext !== "thisServer" && includeContext !== "allServers") {
    throw new TypeError(`includeContext must be "none", "thisServer" or "allServers" when given, got ${describeValue(includeContext)}`);
  }
  if (metadata !== undefined) checkJsonObject(metadata, "metadata");
}

/**
 * Builds a `ListRootsRequest`, `{ method: "roots/list" }` (spec:
 * client/roots). The schema makes `params` optional and the request needs
 * none, so the key is left out, as in the spec's own example.
 *
 * @example
 * listRootsRequest(); // { method: "roots/list" }
 */
export function listRootsRequest(): ListRootsRequest {
  return { method: "roots/list" };
}

/** Input of {@link inputRequiredResult}: at least one of the two keys. */
export interface InputRequiredResultOptions {
  /** Requests the client must fulfil, keyed by server-chosen ids. `null`, absent or `{}` means none. */
  inputRequests?: InputRequests | null;
  /** Opaque state the client echoes on its retry. `null`/absent means none; `""` is a (valid, if odd) state. */
  requestState?: string | null;
}

const INPUT_METHODS = new Set(["elicitation/create", "sampling/createMessage", "roots/list"]);

/**
 * A request written by hand is held to the rules of the builder that would
 * have made it: {@link elicitRequest} or {@link elicitUrlRequest} by its
 * `mode`, {@link createMessageRequest}; `roots/list` takes no more than `_meta`.
 */
function checkInputRequest(request: { method: string; params?: Record<string, unknown> }, where: string): void {
  const params = request.params;
  try {
    if (request.method === "elicitation/create" && params !== undefined) {
      if (params.mode === "url") elicitUrlRequest(params.message as string, params.url as string);
      else if (params.mode === undefined || params.mode === "form")
        formRequest(params.message as string, params.requestedSchema as RequestedSchema);
      else throw new TypeError(`mode must be "form" or "url", got ${describeValue(params.mode)}`);
    } else if (request.method === "sampling/createMessage") samplingRequest(params as unknown as CreateMessageRequestParams);
    if (params?._meta !== undefined && !isPlainObject(params._meta)) {
      throw new TypeError(`params._meta must be a plain object when given, got ${describeValue(params._meta)}`);
    }
  } catch (error) {
    throw error instanceof RangeError
      ? new RangeError(`${where}: ${error.message}`)
      : new TypeError(`${where}: ${(error as Error).message}`);
  }
}

/**
 * Builds the `InputRequiredResult` that ends a round of a Multi Round-Trip
 * Request: `{ resultType: "input_required", inputRequests?, requestState? }`
 * (spec: basic/patterns/mrtr, "InputRequiredResult"). It NEVER carries cache
 * hints: the answer is not a result to reuse, it is a question.
 *
 * Build the values of `inputRequests` with {@link elicitRequest},
 * {@link elicitUrlRequest}, {@link createMessageRequest} and
 * {@link listRootsRequest}; one written by hand is held to the same rules
 * (a known `method`, object `params`, which `roots/list` may omit, and what
 * that builder checks). An empty `inputRequests` map counts as absent and is
 * left out of the result.
 *
 * @throws TypeError when neither a non-empty `inputRequests` nor a
 *   `requestState` is given (the spec requires at least one); naming
 *   `inputRequests` / `inputRequests["key"]` when the map or an entry is
 *   malformed; naming `requestState` when it is not a string; naming `ttlMs`
 *   or `cacheScope` when a cache hint is passed; naming the member when the
 *   options are not plain JSON data (a function such as `toJSON`, a `Date`, a
 *   cycle: see the README, "Plain data"). RangeError when they are nested
 *   deeper than 1000 levels.
 *
 * @example
 * inputRequiredResult({
 *   inputRequests: { github_login: elicitRequest("Your GitHub username?", { type: "object", properties: { name: { type: "string" } } }) },
 *   requestState: "eyJzdGVwIjoxfQ",
 * });
 * // { resultType: "input_required", inputRequests: { github_login: {...} }, requestState: "eyJzdGVwIjoxfQ" }
 */
export function inputRequiredResult(options: InputRequiredResultOptions): InputRequiredResult {
  const opts = optionsObject(plainData(options as InputRequiredResultOptions | undefined, "options"));
  for (const hint of ["ttlMs", "cacheScope"]) {
    if ((opts as Record<string, unknown>)[hint] !== undefined) {
      throw new TypeError(`${hint}: an InputRequiredResult carries no cache hints`);
    }
  }
  const result: InputRequiredResult = { resultType: "input_required" };
  if (isGiven(opts.inputRequests)) {
    const requests: unknown = opts.inputRequests;
    if (!isPlainObject(requests)) throw new TypeError(`inputRequests must be a plain object, got ${describeValue(requests)}`);
    const entries = Object.entries(requests);
    for (const [key, request] of entries) {
      const ok =
        isPlainObject(request) &&
        typeof request.method === "string" &&
        INPUT_METHODS.has(request.method) &&
        (isPlainObject(request.params) || (request.method === "roots/list" && request.params === undefined));
      if (!ok) {
        throw new TypeError(
          `inputRequests[${JSON.stringify(key)}] must be an elicitation/create, sampling/createMessage or roots/list request with object params, got ${describeValue(request)}`,
        );
      }
      checkInputRequest(request as { method: string; params?: Record<string, unknown> }, `inputRequests[${JSON.stringify(key)}]`);
    }
    if (entries.length > 0) result.inputRequests = { ...(requests as Record<string, InputRequest>) };
  }
  if (isGiven(opts.requestState)) {
    if (typeof opts.requestState !== "string")
      throw new TypeError(`requestState must be a string, got ${describeValue(opts.requestState)}`);
    result.requestState = opts.requestState;
  }
  if (result.inputRequests === undefined && result.requestState === undefined) {
    throw new TypeError(
      "inputRequests or requestState is required: an InputRequiredResult needs at least one (a non-empty inputRequests map or a requestState string)",
    );
  }
  return result;
}
