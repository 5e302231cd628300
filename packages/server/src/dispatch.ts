/**
 * The dispatcher (spec 2026-07-28, basic/index): the one seam between a
 * transport and the server. A transport hands it a decoded JSON message
 * (`inspect`: one call that classifies it and checks its envelope, and
 * attaches what the transport's own header checks need), then the request
 * (`answer`), and gets back an {@link Outcome}: the JSON-RPC response, and
 * the stage that decided an error. The outcome carries no HTTP status: the
 * HTTP transport alone maps outcomes to statuses (`transports/http/status.ts`).
 */
import type { JsonSchemaValidator } from "@x/json-schema";
import {
  type ClassifiedInvalidResponse,
  type ClassifiedResponse,
  classify,
  errorResponse,
  resultResponse,
  stringifyJson,
} from "@x/jsonrpc";
import type { JSONRPCErrorResponse, JSONRPCResultResponse, RequestId } from "@x/mcp-v2607";
import { ErrorCode } from "@x/mcp-v2607/constants";
import type { HeaderParam, RequestEnvelope } from "@x/mcp-v2607/wire";
import { createContext, type RequestContext, type TransportInfo } from "./context.js";
import { isProtocolError, McpError, ResourceNotFoundError, reportToStderr } from "./errors.js";
import type { MethodEntry } from "./features/feature.js";
import type { ToolsFeature } from "./features/tools/index.js";
import { type RoundSettings, runRound } from "./revisions/2026-07-28/run.js";
import { type AskRoute, RequestRoute } from "./route.js";
import { type RunScope, runScope } from "./scope.js";
import { copyOwn, isObject, type JsonObject } from "./objects.js";
import {
  answerSessionMethod,
  checkClientAnswer,
  type EraMethod,
  hasLaterEnvelope,
  LATER_ONLY_METHODS,
} from "./revisions/initialize/era.js";
import type { LegacySession } from "./revisions/initialize/session.js";
import { type LevelSource, type Revision, revision2511, revision2607 } from "./revisions/revision.js";
import { publishRequestRejected, rejectionsObserved } from "./telemetry.js";

/** A JSON-RPC response produced by the dispatcher. */
export type JSONRPCResponse = JSONRPCResultResponse | JSONRPCErrorResponse;

/**
 * The outcome of one message: the response to send (none for a
 * notification) and, for an error, where it was decided: `"message"` before
 * any handler ran (the message itself, its envelope, its protocol version,
 * an unknown method), `"handler"` by the method's handler.
 */
export interface Outcome {
  /** The JSON-RPC response; `undefined` when the message was a notification. */
  response: JSONRPCResponse | undefined;
  /** Which stage answered: a transport maps an error's code and stage to its own status codes. */
  stage: "message" | "handler";
  /**
   * An HTTP status asked for by an `McpServer.execute` override (an access
   * gate answering 401, say); the dispatcher itself never sets one.
   */
  status?: number;
}

/**
 * An outcome whose response was also written out as JSON text when it was
 * answered (internal; see {@link responseText}). `text` is dropped wherever
 * code outside the dispatcher (an `execute` override) may have changed the
 * response.
 */
export class TextOutcome implements Outcome {
  readonly stage = "handler" as const;
  constructor(
    public response: JSONRPCResultResponse,
    public text: string | undefined,
  ) {}
}

/**
 * The JSON text a transport sends for an outcome's response: the text
 * written when it was answered where there is one (the same bytes, made
 * without a second walk of the stamp), else `stringifyJson` of the response.
 * @returns the text; `undefined` where there is no response.
 * @throws what `stringifyJson` throws (a cycle in a result, a failing `toJSON`).
 */
export function responseText(outcome: Outcome): string {
  return outcome instanceof TextOutcome && outcome.text !== undefined ? outcome.text : stringifyJson(outcome.response);
}

/** A request that passed the envelope check, as `inspect` classified it. */
export interface InboundRequest {
  kind: "request";
  id: RequestId;
  method: string;
  params: JsonObject;
  envelope: RequestEnvelope;
  /**
   * The parameters its method's entry says Streamable HTTP mirrors in
   * `Mcp-Param-*` headers (a `tools/call` of a tool with `x-mcp-header`
   * parameters); else `undefined`.
   */
  headerParams: readonly HeaderParam[] | undefined;
  /**
   * Its method's entry in the table it is answered from, looked up as it was read.
   * @internal
   */
  entry?: MethodEntry | undefined;
  /**
   * The `initialize`-era session the request arrived on (spec 2025-11-25);
   * `undefined` for a 2026-07-28 request. Its envelope is then the session's.
   */
  session?: LegacySession;
  /**
   * How the message was read (`decodeJson`'s `lossless`), set by this
   * package's transports: `false` when `JSON.parse` alone read it, so it
   * holds no `bigint` and what handlers receive needs no conversion; `true`
   * when lossless-json read it. Absent for a message handed to `handle` or
   * `inspect` as a value: it may hold a `bigint` (README "Numbers").
   */
  lossless?: boolean;
}

/**
 * A message as `inspect` classified it. A `"response"` (a JSON-RPC result or
 * error response, `id` absent when it had none) is never answered: this
 * revision's server sends no requests, so it answers nothing. Nor is an
 * `"invalid-response"` (shaped as a response, malformed: `classify` of
 * `@x/jsonrpc`), which Streamable HTTP refuses with 400 and an error whose
 * id is null, nor `"responses"`, a batch whose every member is a well-formed
 * response (JSON-RPC 2.0 section 6: a batch with nothing to answer gets no
 * answer at all): a session settles each, as it would one.
 */
export type Inbound =
  | { kind: "notification"; method: string; params: JsonObject }
  | InboundRequest
  | { kind: "initialize"; id: RequestId; params: JsonObject }
  | ClassifiedResponse
  | ClassifiedInvalidResponse
  | { kind: "responses"; responses: ClassifiedResponse[] }
  | { kind: "error"; outcome: Outcome };

/** What the dispatcher needs from the server that owns it. */
export interface DispatchSettings extends RoundSettings {
  readonly info: RequestContext["clientInfo"] & object;
  readonly loggingEnabled: boolean;
  /** The validator of elicitation schemas (`ServerOptions.validator`). */
  readonly validator: JsonSchemaValidator | undefined;
  /** Called with an error a handler threw that is answered as -32603 (its text is never sent). */
  readonly onError: ((error: unknown, info: { method: string; requestId: RequestId }) => void) | undefined;
}

/** Builds an error outcome. */
export function errorOutcome(id: RequestId | undefined, code: number, message: string, data: unknown, stage: Outcome["stage"]): Outcome {
  return { response: errorResponse(id, code, message, data) as JSONRPCErrorResponse, stage };
}

/**
 * The answer when no answer could be produced (a transport's last line of
 * defence; the dispatcher answers every failure itself). Over HTTP: 500.
 */
export function internalErrorOutcome(id: RequestId): Outcome {
  return errorOutcome(id, ErrorCode.InternalError, "Internal error", undefined, "message");
}

/** Publishes an error outcome on `x-mcp:request:rejected` with the status a transport gives it; returns the outcome. */
export function rejected(outcome: Outcome, method: string | undefined, status: (outcome: Outcome) => number): Outcome {
  const response = outcome.response as JSONRPCErrorResponse | undefined;
  if (response?.error) {
    publishRequestRejected({
      // An id that could not be read is written null; the event has none.
      requestId: response.id ?? undefined,
      method,
      code: response.error.code,
      message: response.error.message,
      status: status(outcome),
    });
  }
  return outcome;
}

/** The dispatcher of one server: its method table, its revisions and its settings. */
export class Dispatcher {
  readonly #table: ReadonlyMap<string, MethodEntry>;
  readonly #revisions: ReadonlyMap<string, Revision> = new Map([[revision2607.version, revision2607]]);
  readonly #settings: DispatchSettings;
  readonly #toolList: () => ReturnType<ToolsFeature["list"]>;
  readonly #eraMethods: ReadonlyMap<string, EraMethod>;

  /** `eraMethods`: the methods an `initialize`-era session answers with handlers of its own (before the shared table). */
  constructor(
    table: ReadonlyMap<string, MethodEntry>,
    settings: DispatchSettings,
    tools: ToolsFeature,
    eraMethods: ReadonlyMap<string, EraMethod> = new Map(),
  ) {
    this.#table = table;
    this.#settings = settings;
    this.#toolList = () => tools.list();
    this.#eraMethods = eraMethods;
  }

  /** Protocol versions answered, newest first. */
  get versions(): string[] {
    return [...this.#revisions.keys()];
  }

  /**
   * Classifies one decoded JSON message as a request, notification or
   * response and reads a request's `_meta`. Never throws: a bad message is
   * `{ kind: "error" }` with a -32600 or -32602 response of stage `"message"`.
   */
  inspect(message: unknown): Inbound {
    const classified = classify(message);
    if (classified.kind === "request") {
      const { id, method, params } = classified;
      // The opening of the earlier era: the transport decides whether it serves it.
      if (method === "initialize" && !hasLaterEnvelope(params)) return { kind: "initialize", id, params };
      const check = revision2607.readEnvelope(params);
      if (!check.ok) return refused(id, check.code, check.message);
      // Resolved once here: the transport checks the header mirrors it names, the dispatcher runs it.
      const entry = this.#table.get(method);
      const headerParams = entry?.headerParams?.(params);
      return { kind: "request", id, method, params, envelope: check.envelope, headerParams, entry };
    }
    // A response, well formed or not, is passed on to be dropped: an error answer would carry its
    // id, which the client could take for the answer to a request of its own.
    if (classified.kind !== "invalid") return classified;
    return refused(classified.id, ErrorCode.InvalidRequest, classified.message);
  }

  /**
   * Classifies one decoded message of an `initialize`-era session (spec
   * 2025-11-25): its envelope is the session's (the version negotiated, the
   * capabilities and client info of `initialize`), `_meta` is read only for
   * its `progressToken`. A request carrying the 2026-07-28 envelope is
   * refused with -32600: one stdio connection speaks one era (Streamable
   * HTTP never hands one here: the dual-era rule serves it statelessly,
   * `selectsLaterEra`). Never throws.
   */
  inspectLegacy(message: unknown, session: LegacySession): Inbound {
    const classified = classify(message);
    if (classified.kind === "request") {
      const { id, method, params } = classified;
      if (method === "initialize") return refused(id, ErrorCode.InvalidRequest, "Invalid request: this session is already initialized");
      if (hasLaterEnvelope(params)) {
        return refused(
          id,
          ErrorCode.InvalidRequest,
          "Invalid request: a 2026-07-28 request (with the _meta envelope) on an initialize-era session",
        );
      }
      const meta = params._meta;
      const progressToken = isObject(meta) ? meta.progressToken : undefined;
      if (
        progressToken !== undefined &&
        typeof progressToken !== "string" &&
        typeof progressToken !== "bigint" &&
        !Number.isSafeInteger(progressToken)
      ) {
        return refused(id, ErrorCode.InvalidParams, "Invalid _meta.progressToken: must be a string or an integer");
      }
      const envelope: RequestEnvelope = {
        meta: (isObject(meta) ? meta : {}) as RequestEnvelope["meta"],
        protocolVersion: session.protocolVersion,
        clientCapabilities: session.clientCapabilities,
        clientInfo: session.clientInfo,
      };
      const entry = this.#eraMethods.get(method) === undefined && !LATER_ONLY_METHODS.has(method) ? this.#table.get(method) : undefined;
      return { kind: "request", id, method, params, envelope, headerParams: undefined, session, entry };
    }
    if (classified.kind !== "invalid") return classified;
    return refused(classified.id, ErrorCode.InvalidRequest, classified.message);
  }

  /**
   * The OAuth scopes the registration a request names requires (its
   * method's entry's `requiredScopes`), or `undefined` for none.
   */
  requiredScopes(request: InboundRequest): readonly string[] | undefined {
    const entry = request.entry ?? this.#table.get(request.method);
    const scopes = entry?.requiredScopes?.(request.params);
    return scopes !== undefined && scopes.length > 0 ? scopes : undefined;
  }

  /**
   * Answers an inspected request: checks the protocol version (-32022),
   * finds the method (-32601), runs it and stamps its result. Never throws:
   * a handler's fault becomes -32603 (its message is not sent), a protocol
   * error (`McpError`) becomes that error. An answer that is ready at once
   * comes back as a value, not a promise.
   */
  answer(request: InboundRequest, transport: TransportInfo): Outcome | Promise<Outcome> {
    const { id, method, params, envelope } = request;
    if (request.session) return this.#answerLegacy(request, request.session, transport);
    const revision = this.#revisions.get(envelope.protocolVersion);
    if (!revision) {
      return errorOutcome(
        id,
        ErrorCode.UnsupportedProtocolVersion,
        `Unsupported protocol version: ${envelope.protocolVersion}`,
        { supported: this.versions, requested: envelope.protocolVersion },
        "message",
      );
    }
    const entry = request.entry ?? this.#table.get(method);
    if (!entry?.enabled()) return errorOutcome(id, ErrorCode.MethodNotFound, `Method not found: ${method}`, { method }, "message");
    const scope = runScope(undefined, request.lossless);
    const ctx = this.#context(request, transport, scope, entry.asks === true, undefined);
    // A handler that answers synchronously (most tools) is answered
    // synchronously: no promise, no microtask between request and response.
    let running: unknown;
    try {
      // A method that may ask runs as one round, its route for the asks.
      running =
        entry.asks === true ? runRound(this.#settings, entry, params, ctx, transport, scope) : entry.handle(params, ctx, transport, scope);
    } catch (error) {
      scope.route.finish();
      return this.failed(error, id, method);
    }
    // The route set for this run (a task's, set later, lives on without it).
    const route = scope.route;
    if (running instanceof Promise) return this.#whenAnswered(running, id, method, entry, revision, route);
    route.finish();
    return this.#answered(running, id, method, entry, revision);
  }

  /**
   * The outcome of a handler still running. Its own function so that the
   * callbacks hold only what they use: closures made in `answer` would keep
   * its whole scope (the params, the context, the run's scope) for as long as
   * the handler runs, which for `subscriptions/listen` is the whole stream.
   */
  #whenAnswered(
    running: Promise<unknown>,
    id: RequestId,
    method: string,
    entry: MethodEntry,
    revision: Revision,
    route: AskRoute,
  ): Promise<Outcome> {
    return running.then(
      (result) => {
        route.finish();
        return this.#answered(result, id, method, entry, revision);
      },
      (error) => {
        route.finish();
        return this.failed(error, id, method);
      },
    );
  }

  /**
   * An `initialize`-era request: the session's own methods first (`ping`,
   * `logging/setLevel`, subscriptions), then the era's own handlers (the
   * revision's `tasks/*`), then the shared table without the
   * 2026-07-28-only methods. Asks go to the client directly (no round), and
   * results are stamped for the era.
   */
  #answerLegacy(request: InboundRequest, session: LegacySession, transport: TransportInfo): Outcome | Promise<Outcome> {
    const { id, method, params } = request;
    const failed = (error: unknown) =>
      this.failed(
        error instanceof ResourceNotFoundError ? new McpError(ResourceNotFoundError.INITIALIZE_ERA_CODE, error.message, error.data) : error,
        id,
        method,
      );
    try {
      const own = answerSessionMethod(session, method, params, {
        logging: this.#settings.loggingEnabled,
        resources: this.#table.get("resources/read")?.enabled() === true,
      });
      if (own !== undefined) return { response: resultResponse(id, own) as JSONRPCResultResponse, stage: "handler" };
    } catch (error) {
      return failed(error);
    }
    const era = this.#eraMethods.get(method);
    const shared = era === undefined && !LATER_ONLY_METHODS.has(method) ? this.#table.get(method) : undefined;
    const entry = era ?? shared;
    if (!entry?.enabled()) return errorOutcome(id, ErrorCode.MethodNotFound, `Method not found: ${method}`, { method }, "message");
    const scope = runScope(session, request.lossless);
    const ctx = this.#context(request, transport, scope, shared?.asks === true, SESSION_LEVELS);
    if (shared?.asks === true) {
      // Asks are requests on the session, on the stream of this request, checked with the era's validators.
      scope.route = new RequestRoute(
        (askMethod, askParams, signal) =>
          session.request(askMethod, askParams, id, signal).then((answer) => checkClientAnswer(askMethod, answer)),
        false,
      );
    }
    const route = scope.route;
    let running: unknown;
    try {
      // The era's own handler, else the shared one (found above, since `era` is not).
      running = era !== undefined ? era.handle(params, ctx, scope) : shared?.handle(params, ctx, transport, scope);
    } catch (error) {
      route.finish();
      return failed(error);
    }
    if (running instanceof Promise) {
      return running.then(
        (result) => {
          route.finish();
          return this.#answered(result, id, method, entry, revision2511);
        },
        (error) => {
          route.finish();
          return failed(error);
        },
      );
    }
    route.finish();
    return this.#answered(running, id, method, entry, revision2511);
  }

  /** The handler context of `request`, for either era (`asks`: its method may ask; `levels`: where its log level is read, default `_meta`). */
  #context(
    request: InboundRequest,
    transport: TransportInfo,
    scope: RunScope,
    asks: boolean,
    levels: LevelSource | undefined,
  ): RequestContext {
    const { id, method, envelope } = request;
    return createContext({
      requestId: id,
      method,
      meta: envelope.meta,
      protocolVersion: envelope.protocolVersion,
      clientCapabilities: envelope.clientCapabilities,
      clientInfo: envelope.clientInfo,
      transport,
      loggingEnabled: this.#settings.loggingEnabled,
      asks,
      validator: this.#settings.validator,
      tools: this.#toolList,
      scope,
      levels,
    });
  }

  /** The response carrying a handler's result, stamped for its revision (a result that cannot be stamped is a fault). */
  #answered(result: unknown, id: RequestId, method: string, entry: MethodEntry | EraMethod, revision: Revision): Outcome {
    try {
      const info = this.#settings.info;
      // Where the text is written, the result is read once, into a plain copy, and both the stamped
      // response and its text come from that copy: a getter or proxy cannot make them differ.
      const textual = revision.stampText !== undefined && isObject(result) && (typeof id === "string" || typeof id === "number");
      // A result whose feature kept its text (a list page): no copy, no second walk.
      const textOf = "textOf" in entry ? entry.textOf : undefined;
      const known = textual && textOf !== undefined ? textOf(result) : undefined;
      const source = textual && known === undefined ? copyOwn(result) : result;
      const response = resultResponse(id, revision.stamp(source as JsonObject, info)) as JSONRPCResultResponse;
      const text = textual ? revision.stampText?.(source, info, known) : undefined;
      if (text === undefined) return { response, stage: "handler" };
      return new TextOutcome(response, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${text}}`);
    } catch (error) {
      return this.failed(error, id, method);
    }
  }

  /**
   * The response to a handler (or an `execute` override) that threw: only
   * deliberate protocol errors (codes -32768..-32000, e.g. McpError) go out
   * as they are; anything else is an internal error whose text stays here
   * (reported to `onError`).
   */
  failed(error: unknown, id: RequestId, method: string): Outcome {
    if (isProtocolError(error)) return errorOutcome(id, error.code, error.message, error.data, "handler");
    this.#report(error, method, id);
    return errorOutcome(id, ErrorCode.InternalError, "Internal error", undefined, "handler");
  }

  #report(error: unknown, method: string, requestId: RequestId): void {
    try {
      const onError = this.#settings.onError;
      if (onError) onError(error, { method, requestId });
      else reportToStderr(error, `${method} (id ${stringifyJson(requestId)})`);
    } catch {
      // A failing reporter must not change the answer.
    }
  }
}

/**
 * The answer of a server that does not serve the `initialize` era to an
 * `initialize` request: -32022 naming the versions it supports (spec
 * 2026-07-28, basic/versioning: a modern-only server names them in any error
 * it returns to `initialize`). Over HTTP: 400.
 */
export function initializeRefused(id: RequestId, params: JsonObject, supported: readonly string[]): Outcome {
  const requested = typeof params.protocolVersion === "string" ? params.protocolVersion : undefined;
  return errorOutcome(
    id,
    ErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version: this server does not serve the initialize handshake; it supports ${supported.join(", ")} (per-request _meta)`,
    { supported: [...supported], requested },
    "message",
  );
}

/** The level an `initialize`-era session's client set with `logging/setLevel` (none until it does). */
const SESSION_LEVELS: LevelSource = {
  logLevel: (_meta, binding) => (binding as LegacySession | undefined)?.logLevel,
};

function refused(id: RequestId | undefined, code: number, message: string): Inbound {
  return { kind: "error", outcome: errorOutcome(id, code, message, undefined, "message") };
}

/** True when someone watches `x-mcp:request:rejected` (then outcomes are published). */
export { rejectionsObserved };
