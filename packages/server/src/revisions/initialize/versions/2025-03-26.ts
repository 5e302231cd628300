/**
 * Protocol version 2025-03-26 (`@x/mcp-v2503`): tool annotations, audio
 * content and the `completions` capability, no elicitation, no structured
 * output; the one version with JSON-RPC batches.
 */
import { PROTOCOL_VERSION } from "@x/mcp-v2503/constants";
import {
  clientCapabilities,
  clientRequestResults,
  serverDefinitions,
  serverNotificationParams,
  serverRequestParams,
  serverResults,
} from "@x/mcp-v2503/members";
import { BATCHES } from "@x/mcp-v2503/wire";
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

/** The table of 2025-03-26. */
export const v2503 = new VersionTable(PROTOCOL_VERSION, MEMBERS, BATCHES);
