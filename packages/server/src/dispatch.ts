/**
 * The dispatcher (spec 2026-07-28, basic/index): the one seam between a
 * transport and the server. A transport hands it a decoded JSON message
 * (`inspect`: one call that classifies it, and has its revision read it and
 * attach what the transport's own checks need), then the request
 * (`answer`), and gets back an {@link Outcome}: the JSON-RPC response, and
 * the stage that decided an error. The outcome carries no HTTP status: the
 * HTTP transport alone maps outcomes to statuses (`transports/http/status.ts`).
 * What depends on the protocol revision is asked of the request's
 * {@link Revision} (`revisions/`); the dispatcher names none.
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
import type { JSONRPCErrorResponse, JSONRPCResultResponse, RequestId, Tool } from "@x/mcp-v2607";
import { ErrorCode } from "@x/mcp-v2607/constants";
import type { HeaderParam, RequestEnvelope } from "@x/mcp-v2607/wire";
import { createContext, type RequestContext, type TransportInfo } from "./context.js";
import { runScope, type RunScope } from "./scope.js";
import { isProtocolError, reportToStderr } from "./errors.js";
import type { MethodEntry } from "./features/feature.js";
import { copyOwn, isObject, type JsonObject } from "./objects.js";
import type { Binding, Revision, RevisionSettings } from "./revisions/revision.js";
import type { AskRoute } from "./route.js";
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
  /** The request's envelope: read from its `_meta` (2026-07-28), or its session's (`initialize` era). */
  envelope: RequestEnvelope;
  /**
   * The parameters its method's entry says Streamable HTTP mirrors in
   * `Mcp-Param-*` headers (a `tools/call` of a tool with `x-mcp-header`
   * parameters); else `undefined`.
   */
  headerParams: readonly HeaderParam[] | undefined;
  /**
   * The revision that read it and answers it (absent on a request made by
   * hand: the first per-request revision).
   * @internal
   */
  revision?: Revision | undefined;
  /**
   * The binding it came on (an `initialize`-era session), opaque to all but its revision.
   * @internal
   */
  binding?: Binding | undefined;
  /**
   * Its method's entry in its revision's table, looked up as it was read.
   * @internal
   */
  entry?: MethodEntry | undefined;
  /**
   * How the message was read (`decodeJson`'s `lossless`), set by this
   * package's transports: `false` when `JSON.parse` alone read it, so it
   * holds no `bigint` and what handlers receive needs no conversion; `true`
   * when it was read a second time, keeping every digit. Absent for a message handed to `handle` or
   * `inspect` as a value: it may hold a `bigint` (README "Numbers").
   */
  lossless?: boolean | undefined;
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
export interface DispatchSettings extends RevisionSettings {
  readonly info: RequestContext["clientInfo"] & object;
  /** The validator of elicitation schemas (`ServerOptions.validator`). */
  readonly validator: JsonSchemaValidator | undefined;
  /** The server's tool definitions (`ctx.tools`). */
  readonly tools: () => readonly Tool[];
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

/** A message refused as it was read: `code` and `message` at stage `"message"`. */
export function refusal(id: RequestId | undefined, code: number, message: string): Extract<Inbound, { kind: "error" }> {
  return { kind: "error", outcome: errorOutcome(id, code, message, undefined, "message") };
}

/**
 * Publishes an error outcome on `x-mcp:request:rejected`, with the status
 * the transport that answers gives it (none where it has no status: stdio,
 * `handle`); returns the outcome.
 */
export function rejected(outcome: Outcome, method: string | undefined, status: ((outcome: Outcome) => number) | undefined): Outcome {
  const response = outcome.response as JSONRPCErrorResponse | undefined;
  if (response?.error) {
    publishRequestRejected({
      // An id that could not be read is written null; the event has none.
      requestId: response.id ?? undefined,
      method,
      code: response.error.code,
      message: response.error.message,
      status: status?.(outcome),
    });
  }
  return outcome;
}

/** The dispatcher of one server: the shared method table, its revisions and their tables, its settings. */
export class Dispatcher {
  readonly #shared: ReadonlyMap<string, MethodEntry>;
  readonly #settings: DispatchSettings;
  /** Every revision served, and its method table (see `Revision.methods`). */
  readonly #tables = new Map<Revision, ReadonlyMap<string, MethodEntry>>();
  /** The methods plug-ins contributed, by revision. */
  readonly #contributed = new Map<Revision, Map<string, MethodEntry>>();
  /** The revisions that claim some requests on no binding (`Revision.opens`), asked in order. */
  readonly #openers: Revision[] = [];
  /** The revision of every other request on no binding: the first per-request one. */
  readonly #perRequest: Revision;
  readonly #versions: string[];

  /**
   * `shared`: the features' methods; `revisions`: those served, at least one
   * per-request revision among them.
   * @throws TypeError when no revision is per-request.
   */
  constructor(shared: ReadonlyMap<string, MethodEntry>, settings: DispatchSettings, revisions: readonly Revision[]) {
    this.#shared = shared;
    this.#settings = settings;
    const perRequest = revisions.filter((r) => r.perRequest);
    if (perRequest.length === 0) throw new TypeError("a server needs a revision whose requests carry their own envelope");
    this.#perRequest = perRequest[0]!;
    this.#versions = perRequest.flatMap((r) => r.versions);
    for (const revision of revisions) {
      this.#tables.set(revision, revision.methods(shared, new Map(), settings));
      if (revision.opens !== undefined) this.#openers.push(revision);
    }
  }

  /** The protocol versions whose requests carry their own envelope (what `server/discover` lists), newest first. */
  get versions(): string[] {
    return [...this.#versions];
  }

  /** True when this server serves `revision` (a plug-in contributes only to those). */
  serves(revision: Revision): boolean {
    return this.#tables.has(revision);
  }

  /**
   * Adds methods to what `revision` serves (a plug-in's: the tasks
   * plug-in's on 2026-07-28 and on `initialize`-era sessions), answered
   * before the shared table's. A method given twice keeps the last entry.
   * @throws TypeError when the server does not serve `revision`.
   */
  contribute(revision: Revision, methods: Iterable<readonly [string, MethodEntry]>): void {
    if (!this.#tables.has(revision)) throw new TypeError(`this server does not serve revision ${revision.name}`);
    let own = this.#contributed.get(revision);
    if (own === undefined) {
      own = new Map();
      this.#contributed.set(revision, own);
    }
    for (const [method, entry] of methods) own.set(method, entry);
    this.#tables.set(revision, revision.methods(this.#shared, own, this.#settings));
  }

  /**
   * Classifies one decoded JSON message as a request, notification or
   * response; a request is read by its revision: the `binding`'s (the
   * session it came on), else the one that claims it, else the per-request
   * one. Never throws: a bad message is `{ kind: "error" }` with a -32600 or
   * -32602 response of stage `"message"`.
   */
  inspect(message: unknown, binding?: Binding): Inbound {
    const classified = classify(message);
    if (classified.kind === "request") {
      const { id, method, params } = classified;
      const revision = binding === undefined ? this.#unbound(method, params) : binding.revision;
      return revision.request(id, method, params, binding, this.#tableOf(revision));
    }
    // A response, well formed or not, is passed on to be dropped: an error answer would carry its
    // id, which the client could take for the answer to a request of its own.
    if (classified.kind !== "invalid") return classified;
    return refusal(classified.id, ErrorCode.InvalidRequest, classified.message);
  }

  /** The revision of a request on no binding. */
  #unbound(method: string, params: JsonObject): Revision {
    const openers = this.#openers;
    for (let i = 0; i < openers.length; i++) if (openers[i]!.opens!(method, params)) return openers[i]!;
    return this.#perRequest;
  }

  #tableOf(revision: Revision): ReadonlyMap<string, MethodEntry> {
    return this.#tables.get(revision) ?? this.#shared;
  }

  /**
   * The OAuth scopes the registration a request names requires (its
   * method's entry's `requiredScopes`), or `undefined` for none.
   */
  requiredScopes(request: InboundRequest): readonly string[] | undefined {
    const entry = request.entry ?? this.#shared.get(request.method);
    const scopes = entry?.requiredScopes?.(request.params);
    return scopes !== undefined && scopes.length > 0 ? scopes : undefined;
  }

  /**
   * Answers an inspected request: checks the protocol version (-32022),
   * finds the method (-32601), has its revision run it, and stamps its
   * result. Never throws: a handler's fault becomes -32603 (its message is
   * not sent), a protocol error (`McpError`) becomes that error. An answer
   * that is ready at once comes back as a value, not a promise.
   */
  answer(request: InboundRequest, transport: TransportInfo): Outcome | Promise<Outcome> {
    const { id, method, params, envelope } = request;
    const revision = request.revision ?? this.#perRequest;
    if (!revision.versions.includes(envelope.protocolVersion)) {
      return errorOutcome(
        id,
        ErrorCode.UnsupportedProtocolVersion,
        `Unsupported protocol version: ${envelope.protocolVersion}`,
        { supported: this.versions, requested: envelope.protocolVersion },
        "message",
      );
    }
    const entry = request.entry ?? this.#tableOf(revision).get(method);
    if (!entry?.enabled()) return errorOutcome(id, ErrorCode.MethodNotFound, `Method not found: ${method}`, { method }, "message");
    const scope = runScope(revision, request.binding, request.lossless);
    const ctx = this.#context(request, transport, scope, entry, revision);
    // A handler that answers synchronously (most tools) is answered
    // synchronously: no promise, no microtask between request and response.
    let running: unknown;
    try {
      running = revision.run(entry, params, ctx, transport, scope, this.#settings);
    } catch (error) {
      scope.route.finish();
      return this.failed(revision.fault === undefined ? error : revision.fault(error), id, method);
    }
    // The route the revision set for this run (a task's, set later, lives on without it).
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
        return this.failed(revision.fault === undefined ? error : revision.fault(error), id, method);
      },
    );
  }

  /** The handler context of a request. */
  #context(request: InboundRequest, transport: TransportInfo, scope: RunScope, entry: MethodEntry, revision: Revision): RequestContext {
    const { id, method, envelope } = request;
    const settings = this.#settings;
    return createContext({
      requestId: id,
      method,
      meta: envelope.meta,
      protocolVersion: envelope.protocolVersion,
      clientCapabilities: envelope.clientCapabilities,
      clientInfo: envelope.clientInfo,
      transport,
      loggingEnabled: settings.loggingEnabled,
      asks: entry.asks === true,
      validator: settings.validator,
      tools: settings.tools,
      scope,
      levels: revision,
    });
  }

  /** The response carrying a handler's result, stamped for its revision (a result that cannot be stamped is a fault). */
  #answered(result: unknown, id: RequestId, method: string, entry: MethodEntry, revision: Revision): Outcome {
    try {
      const info = this.#settings.info;
      // Where the text is written, the result is read once, into a plain copy, and both the stamped
      // response and its text come from that copy: a getter or proxy cannot make them differ.
      const textual = revision.stampText !== undefined && isObject(result) && (typeof id === "string" || typeof id === "number");
      // A result whose feature kept its text (a list page): no copy, no second walk.
      const known = textual && entry.textOf !== undefined ? entry.textOf(result) : undefined;
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

/** True when someone watches `x-mcp:request:rejected` (then outcomes are published). */
export { rejectionsObserved };
