/**
 * Where a handler's asks go (internal): one {@link AskRoute} per run, put on
 * the run's scope by whoever starts the run, so that `ctx.elicit` and the
 * other asks never look at the revision, the session or the task behind
 * them. A revision sets the route when it runs a method that may ask (a
 * Multi Round-Trip round in 2026-07-28, requests on the session in the
 * `initialize` era) and finishes it when the run is over; the tasks code
 * replaces it with the task's own when a run becomes a task; a test's preset
 * answers are a route too (`@x/server/testing`).
 */
import type { RequestContext } from "./context.js";
import type { RunScope } from "./scope.js";
import { type Ask, loadAskValidators, type NotSupported } from "./mrtr/asks.js";
import type { JsonObject } from "./objects.js";

/** Where the asks of one run go. */
export interface AskRoute {
  /** The answers the run already carries, by ask key (`ctx.answers`). */
  readonly answers: Readonly<JsonObject>;
  /** True once the run it belongs to is over: an ask then is refused (a detached promise or timer). */
  readonly finished: boolean;
  /**
   * True once an ask found no answer and the run must end without its
   * result (a round that ends `input_required`): what the tool runner lets
   * pass as no fault.
   */
  readonly ended?: boolean;
  /**
   * The run that set it is over (the dispatcher calls it once the handler's
   * result is in): asks from then on are refused. A route that outlives the
   * request (a task's) ignores it.
   */
  finish(): void;
  /**
   * Asks `asks` (none of them checked yet) for the `ctx.<name>` the
   * handler called; resolves with their answers in order.
   * @throws Error when the route finished meanwhile, or an answer does not fit; TypeError when an ask is malformed;
   *   InputRequiredSignal when the run must end to wait for the answers.
   */
  ask(asks: readonly Ask<unknown>[], name: string, ctx: RequestContext, scope: RunScope): Promise<unknown[]>;
}

/**
 * Thrown by an ask to end the run where it must wait for its answers (a
 * Multi Round-Trip round answered `input_required`); handlers should let it
 * pass (a `finally` still runs). It is control flow, not a fault, so it
 * carries no stack trace (`stack` is its name and message only): capturing
 * one through the handler's async frames was the costliest single step of a
 * round that ends on an ask.
 */
export class InputRequiredSignal extends Error {
  /** Made by the server's asks; a handler never needs to make one. */
  constructor() {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super("input required: this round ends here and the client will retry with the answers");
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.name = "InputRequiredSignal";
  }
}

/** The refusal of an ask made after its run is over. */
export function outsideRun(name: string): Error {
  return new Error(
    `ctx.${name} was called outside the handler's run (a detached promise, a timer, a worker, or a direct call): only the run itself can ask`,
  );
}

const NO_ANSWERS: Readonly<JsonObject> = Object.freeze({});

/** A route whose asks are all refused: a run that may not ask (yet), or a context outside any run. */
class ClosedRoute implements AskRoute {
  readonly finished = true;
  constructor(readonly answers: Readonly<JsonObject>) {}

  finish(): void {
    // Finished from the start.
  }

  ask(_asks: readonly Ask<unknown>[], name: string): Promise<unknown[]> {
    return Promise.reject(outsideRun(name));
  }
}

/** The route of a run with nowhere to ask: no answers, every ask refused. */
export const NO_ROUTE: AskRoute = new ClosedRoute(NO_ANSWERS);

/** A route that only holds answers (a test's preset ones, read through `ctx.answers`): asks are refused until a run opens a route. */
export function presetRoute(answers: Readonly<JsonObject>): AskRoute {
  return new ClosedRoute(answers);
}

/** True when the run of `scope` stopped on an ask that found no answer (see {@link AskRoute.ended}). */
export function runEnded(scope: RunScope): boolean {
  return scope.route.ended === true;
}

/** How many times a task asks one question whose answers do not fit before the ask fails. */
export const MAX_TASK_ASK_ATTEMPTS = 3;

/**
 * How one ask reaches the client as a request of its own, resolved with the
 * client's answer (or rejected): `key` is the key the handler named, if any.
 */
export type SendAsk = (method: string, params: JsonObject, signal: AbortSignal, key: string | undefined) => Promise<unknown>;

/**
 * A route on which each ask is a request of its own, awaited in place: the
 * `initialize` era's server-to-client requests (sent one at a time, no second
 * chance for an answer that does not fit, refused once the request's run is
 * over) or a task's input requests (the asks of one `ctx.all` outstanding
 * together, one that does not fit asked again, at most
 * {@link MAX_TASK_ASK_ATTEMPTS} times, for as long as the task runs). An ask
 * the client's capabilities rule out answers "not supported" without a
 * request, and so does one the route cannot carry (`carries`: a request the
 * session's protocol version lacks). The run's own limit is held while it
 * waits: the wait has its own.
 */
export class RequestRoute implements AskRoute {
  readonly answers = NO_ANSWERS;
  finished = false;
  readonly #send: SendAsk;
  readonly #parallel: boolean;
  readonly #outlives: boolean;
  readonly #carries: ((method: string, params: JsonObject) => boolean) | undefined;

  /**
   * `task`: the route of a task, whose asks are `parallel` and which
   * outlives the request that made it. `carries`: whether an ask's request
   * can be sent at all (absent: every one can).
   */
  constructor(send: SendAsk, task: boolean, carries?: (method: string, params: JsonObject) => boolean) {
    this.#send = send;
    this.#parallel = task;
    this.#outlives = task;
    this.#carries = carries;
  }

  finish(): void {
    if (!this.#outlives) this.finished = true;
  }

  async ask(asks: readonly Ask<unknown>[], name: string, ctx: RequestContext, scope: RunScope): Promise<unknown[]> {
    const release = scope.limit?.hold();
    try {
      await loadAskValidators();
      for (const one of asks) one.check();
      // A task's asks of one `ctx.all` are outstanding together, as one round's would be.
      if (this.#parallel) return await Promise.all(asks.map((one) => this.#askOne(one, name, ctx)));
      const results: unknown[] = [];
      for (const one of asks) results.push(await this.#askOne(one, name, ctx));
      return results;
    } finally {
      release?.();
    }
  }

  async #askOne(one: Ask<unknown>, name: string, ctx: RequestContext): Promise<unknown> {
    if (one.missing !== undefined) return { action: "not_supported", capability: one.missing } satisfies NotSupported;
    const request = one.request as { method: string; params: JsonObject };
    if (this.#carries !== undefined && !this.#carries(request.method, request.params)) {
      return { action: "not_supported", capability: one.needs } satisfies NotSupported;
    }
    for (let attempt = 1; ; attempt++) {
      const answer = await this.#send(request.method, request.params, ctx.signal, attempt === 1 ? one.options.key : undefined);
      const accepted = await one.accept(answer);
      if (accepted !== undefined) return accepted;
      if (!this.#parallel || attempt >= MAX_TASK_ASK_ATTEMPTS) {
        throw new Error(`ctx.${name}: the client's answer to ${request.method} does not fit what was asked`);
      }
    }
  }
}
