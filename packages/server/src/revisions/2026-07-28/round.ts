/**
 * One round of a Multi Round-Trip Request (spec 2026-07-28,
 * basic/patterns/mrtr): the answers it starts with, the asks that found none,
 * and the signal that unwinds a handler whose ask must wait for the retry.
 */
import type { InputRequests } from "@x/mcp-v2607";
import { type Ask, type Kind, loadAskValidators, type NotSupported } from "../../mrtr/asks.js";
import type { JsonObject } from "../../objects.js";
import { type AskRoute, InputRequiredSignal, outsideRun } from "../../route.js";

/** Stands for an ask the client's capabilities rule out: it is answered "not supported", never asked. */
const NOT_ASKED = Symbol("not asked");

/**
 * The state of one run of a handler within one round, and the route of its
 * asks. Most runs ask nothing: what only asking needs (key counters, the set
 * of keys used) is made on the first ask.
 */
export class Round implements AskRoute {
  /** Answers known in this round: from `requestState`, then this round's `inputResponses` over them. */
  readonly answers: Readonly<JsonObject>;
  /** The asks of this run that found no acceptable answer. */
  readonly pending: InputRequests = {};
  /** Answers this run used, carried in the next `requestState`. */
  readonly used: JsonObject = {};
  #counters: Record<Kind, number> | undefined = undefined;
  #keys: Set<string> | undefined = undefined;
  /** True once the handler's run is over: asks after it are refused. */
  finished = false;
  /** True once an ask found no acceptable answer: the round ends with `input_required`. */
  ended = false;

  constructor(answers: Readonly<JsonObject>) {
    this.answers = answers;
  }

  finish(): void {
    this.finished = true;
  }

  /** Checks the asks, then resolves them against this round's answers (see {@link Round.resolve}). */
  async ask(asks: readonly Ask<unknown>[], name: string): Promise<unknown[]> {
    // A round belongs to one run of one handler and is finished when that run
    // returns: an ask from a promise, timer or callback that outlives the run
    // (or from a context whose request is over) finds it finished. This is the
    // whole check; AsyncLocalStorage would add a cost to every promise of the
    // process and catch nothing more (a timer created in the run inherits it).
    await loadAskValidators();
    if (this.finished) throw outsideRun(name);
    for (const one of asks) one.check();
    return this.resolve(asks);
  }

  /**
   * Resolves asks in order; records every unanswered one, then ends the
   * round if any. Synchronous unless an ask's check of its answer (a
   * Standard Schema's validation) answered with a promise.
   */
  resolve(asks: readonly Ask<unknown>[]): unknown[] | Promise<unknown[]> {
    const keys: string[] = [];
    this.#counters ??= { elicit: 0, sample: 0, roots: 0 };
    this.#keys ??= new Set<string>();
    const counters = this.#counters;
    const used = this.#keys;
    for (const ask of asks) {
      const key = ask.options.key ?? `${ask.kind}-${++counters[ask.kind]}`;
      if (used.has(key)) throw new Error(`ask key ${JSON.stringify(key)} is used twice in one run`);
      used.add(key);
      keys.push(key);
    }
    let waiting = false;
    const accepted = asks.map((ask, i) => {
      if (ask.missing !== undefined) return NOT_ASKED;
      const raw = this.answers[keys[i]!];
      const answer = raw === undefined ? undefined : ask.accept(raw);
      if (answer instanceof Promise) waiting = true;
      return answer;
    });
    if (waiting) return Promise.all(accepted).then((answers) => this.#settle(asks, keys, answers));
    return this.#settle(asks, keys, accepted);
  }

  #settle(asks: readonly Ask<unknown>[], keys: readonly string[], answers: readonly unknown[]): unknown[] {
    const results: unknown[] = [];
    asks.forEach((ask, i) => {
      const key = keys[i]!;
      const answer = answers[i];
      if (answer === NOT_ASKED) {
        results.push({ action: "not_supported", capability: ask.missing! } satisfies NotSupported);
      } else if (answer === undefined) {
        this.pending[key] = ask.request;
        this.ended = true;
        results.push(undefined);
      } else {
        this.used[key] = this.answers[key];
        results.push(answer);
      }
    });
    if (this.ended) throw new InputRequiredSignal();
    return results;
  }
}
