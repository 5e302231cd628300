/**
 * Protocol version 2024-11-05 (`@x/mcp-v2411`), the first: text, image and
 * embedded resource content, no tool annotations, no audio, no
 * `completions` capability, no elicitation, no batches.
 */
import { PROTOCOL_VERSION } from "@x/mcp-v2411/constants";
import {
  clientCapabilities,
  clientRequestResults,
  serverDefinitions,
  serverNotificationParams,
  serverRequestParams,
  serverResults,
} from "@x/mcp-v2411/members";
import { BATCHES } from "@x/mcp-v2411/wire";
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

/** The table of 2024-11-05. */
export const v2411 = new VersionTable(PROTOCOL_VERSION, MEMBERS, BATCHES);
