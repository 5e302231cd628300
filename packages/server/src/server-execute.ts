/**
 * A request answered through a subclass's override of `McpServer.execute`
 * (an access gate, logging...): whatever the override does, the client gets
 * an answer, as from a handler.
 */
import { type Outcome, TextOutcome } from "./dispatch.js";
import { isObject } from "./objects.js";

/**
 * Runs `execute` (the override) and checks what it gives. A throw or a
 * rejection becomes `refused(error)` (an `McpError` refuses the request with
 * its code); a value that is no {@link Outcome} becomes `refused` of a
 * TypeError naming the class of `server`.
 */
export function answerByOverride(execute: () => unknown, refused: (error: unknown) => Outcome, server: object): Outcome | Promise<Outcome> {
  const checked = (outcome: unknown): Outcome => {
    // The override may have changed the response after it was written out: it is written anew.
    if (outcome instanceof TextOutcome) {
      try {
        outcome.text = undefined;
      } catch {
        // A frozen one: a plain outcome of the same response.
        return { stage: outcome.stage, response: outcome.response };
      }
    }
    return isObject(outcome) && (outcome.response === undefined || isObject(outcome.response)) && "response" in outcome
      ? (outcome as object as Outcome)
      : refused(new TypeError(`execute() of ${server.constructor.name} resolved to ${typeof outcome}, not an Outcome { response, stage }`));
  };
  try {
    return Promise.resolve(execute()).then(checked, refused);
  } catch (error) {
    return refused(error);
  }
}
