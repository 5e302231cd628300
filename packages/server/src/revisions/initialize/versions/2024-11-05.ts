/**
 * Protocol version 2024-11-05 (`@x/mcp-v2411`), the first: text, image and
 * embedded resource content, no tool annotations, no audio, no
 * `completions` capability, no elicitation, no batches.
 */
import { PROTOCOL_VERSION } from "@x/mcp-v2411/constants";
import {
  clientRequests,
  notifications,
  requests,
  serverDefinitions,
  serverNotifications,
  serverRequests,
  serverResults,
} from "@x/mcp-v2411/members";
import { BATCHES } from "@x/mcp-v2411/wire";
import { VersionTable } from "./table.js";

// Named, not the namespace: a bundle then keeps only these (the server's side of the lists).
const MEMBERS = { serverDefinitions, requests, notifications, clientRequests, serverRequests, serverNotifications, serverResults };

/** The table of 2024-11-05. */
export const v2411 = new VersionTable(PROTOCOL_VERSION, MEMBERS, BATCHES);
