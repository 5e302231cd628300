/**
 * The checks of the answers Multi Round-Trip asks receive (untrusted client
 * input), compiled from revision 2026-07-28's schema documents when this
 * module loads. `asks.ts` loads it on the first ask, not at import, so a
 * server that never asks never compiles them. What a handler asks is checked
 * by `@x/builders`' request builders instead, re-exported from here so that
 * they load with these checks (every ask's `check` runs after the load), not
 * with the package: a server that never asks carries them in no code it runs.
 */
import type * as Types from "@x/mcp-v2607";
import * as schemas from "@x/mcp-v2607/schemas";
import { compileDocument } from "../documents.js";

export { createMessageRequest, elicitRequest, elicitUrlRequest } from "@x/builders";

/** Passes an `ElicitResult` (spec 2026-07-28: client/elicitation). */
export const ElicitResult = compileDocument<Types.ElicitResult>(schemas.ElicitResult);
/** Passes a `CreateMessageResult` (spec 2026-07-28: client/sampling). */
export const CreateMessageResult = compileDocument<Types.CreateMessageResult>(schemas.CreateMessageResult);
/** Passes a `ListRootsResult` (spec 2026-07-28: client/roots). */
export const ListRootsResult = compileDocument<Types.ListRootsResult>(schemas.ListRootsResult);
