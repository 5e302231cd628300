/**
 * Protocol version 2025-06-18 (`@x/mcp-v2506`): form elicitation, structured
 * tool output, resource links and titles, but no tasks, no icons, no URL
 * elicitation and no batches.
 */
import { PROTOCOL_VERSION } from "@x/mcp-v2506/constants";
import {
  clientCapabilities,
  clientRequestResults,
  serverDefinitions,
  serverNotificationParams,
  serverRequestParams,
  serverResults,
} from "@x/mcp-v2506/members";
import { BATCHES } from "@x/mcp-v2506/wire";
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

/** The table of 2025-06-18. */
export const v2506 = new VersionTable(PROTOCOL_VERSION, MEMBERS, BATCHES);
