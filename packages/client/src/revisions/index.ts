/**
 * Which revision a client speaks, settled on `connect` (see
 * `ClientOptions.protocol`): 2026-07-28 pinned, or on a transport that
 * cannot carry a session, with nothing sent; the `initialize` era pinned,
 * with its handshake; `"auto"`, the era probe and, on an answer of the
 * earlier era, the handshake.
 */
import type { ProtocolChoice } from "../options.js";
import { Revision2607 } from "./2026-07-28/index.js";
import { RevisionInitialize } from "./initialize/index.js";
import { probe } from "./initialize/probe.js";
import { PINNABLE_VERSIONS } from "./initialize/versions.js";
import type { ClientRevision, RevisionContext } from "./revision.js";

/** The protocol choices a client accepts: `"auto"`, or a version to pin. */
export const PROTOCOL_CHOICES: readonly ProtocolChoice[] = ["auto", ...PINNABLE_VERSIONS];

/**
 * Settles the revision for `choice` and makes it the context's.
 * @throws the probe's or handshake's errors.
 */
export async function openRevision(choice: ProtocolChoice, context: RevisionContext): Promise<ClientRevision> {
  const modern = new Revision2607(context);
  if (choice === "auto" || choice === "2026-07-28") {
    context.use(modern);
    if (choice === "2026-07-28" || !context.transport.frame) return modern;
    // The HTTP+SSE transport (`"sse"`) is a binding of 2024-11-05 alone: a server behind it needs no probe.
    if (context.transport.kind !== "sse" && (await probe(modern, context.transport, context.options))) return modern;
  }
  const initialize = new RevisionInitialize(context, choice);
  context.use(initialize);
  await initialize.open();
  return initialize;
}
