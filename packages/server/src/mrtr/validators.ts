/**
 * The checks of the answers Multi Round-Trip asks receive (untrusted client
 * input): the revision's schema documents of those results, compiled by ajv
 * when this module loads. `asks.ts` loads it on the first ask, not at import,
 * so a server that never asks neither compiles them nor (in a bundle) pays
 * for more than three small schema documents. What a handler asks is
 * checked by `@x/builders`' request builders instead.
 */
import { compileSchema, nonFiniteProblem } from "../schema.js";
import type * as Types from "@x/mcp-v2607";
import * as schemas from "@x/mcp-v2607/schemas";

/**
 * A type guard passing a value valid against `document` (a bigint as its
 * nearest double) that holds no Infinity or NaN, which ajv's number types
 * would pass and JSON cannot carry.
 */
function check<T>(document: schemas.SchemaDocument): (value: unknown) => value is T {
  const problems = compileSchema(document);
  return (value): value is T => problems(value).length === 0 && nonFiniteProblem(value) === undefined;
}

/** Passes an `ElicitResult` (spec 2026-07-28: client/elicitation). */
export const ElicitResult = check<Types.ElicitResult>(schemas.ElicitResult);
/** Passes a `CreateMessageResult` (spec 2026-07-28: client/sampling). */
export const CreateMessageResult = check<Types.CreateMessageResult>(schemas.CreateMessageResult);
/** Passes a `ListRootsResult` (spec 2026-07-28: client/roots). */
export const ListRootsResult = check<Types.ListRootsResult>(schemas.ListRootsResult);
