/**
 * Protocol version 2025-11-25 (`@x/mcp-v2511`), the newest of the
 * `initialize` era: everything the era has, tasks and URL elicitation
 * included; what 2026-07-28 added (`resultType`, cache hints) is left out.
 * A URL elicitation carries an `elicitationId` here, which the server mints
 * (spec 2025-11-25: client/elicitation, "URL Mode"); 2026-07-28 has none.
 */
import { PROTOCOL_VERSION } from "@x/mcp-v2511/constants";
import {
  clientCapabilities,
  clientRequestResults,
  serverDefinitions,
  serverNotificationParams,
  serverRequestParams,
  serverResults,
} from "@x/mcp-v2511/members";
import { BATCHES } from "@x/mcp-v2511/wire";
import type { JsonObject } from "../../../objects.js";
import { VersionTable } from "./table.js";

// Named, not the namespace: a bundle then keeps only these (the server's side of the lists).
const MEMBERS = {
  serverDefinitions,
  serverRequestParams,
  serverNotificationParams,
  clientRequestResults,
  serverResults,
  clientCapabilities,
};

function withElicitationId(method: string, params: JsonObject): JsonObject {
  if (method !== "elicitation/create" || params.mode !== "url" || params.elicitationId !== undefined) return params;
  // Web Crypto: the session also lives on hosts without Node modules.
  return { ...params, elicitationId: globalThis.crypto.randomUUID() };
}

/** The table of 2025-11-25. */
export const v2511 = new VersionTable(PROTOCOL_VERSION, MEMBERS, BATCHES, withElicitationId);
