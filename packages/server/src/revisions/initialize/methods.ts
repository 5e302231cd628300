/**
 * The methods an `initialize`-era session serves (spec 2025-11-25): its own
 * (`ping`, `logging/setLevel`, `resources/subscribe`,
 * `resources/unsubscribe`; basic/utilities/ping, server/utilities/logging,
 * server/resources "Subscriptions"), those a plug-in contributes (the
 * revision's `tasks/*`, from `tasks/legacy.ts`), and the shared table's
 * but for the methods only 2026-07-28 has. Everything else (tools, prompts,
 * resources, completion) is answered by the same registered handlers as in
 * 2026-07-28.
 */
import { ErrorCode, Method } from "@x/mcp-v2511/constants";
import type { LoggingLevel } from "@x/mcp-v2607";
import type { RunScope } from "../../scope.js";
import { McpError } from "../../errors.js";
import type { MethodEntry } from "../../features/feature.js";
import type { JsonObject } from "../../objects.js";
import type { RevisionSettings } from "../revision.js";
import { legacyValidators } from "./era.js";
import type { LegacySession } from "./session.js";

/** Most resources one session may subscribe to. */
export const MAX_SUBSCRIPTIONS = 1000;

/**
 * Most characters one session's subscribed URIs take as JSON (each URI's
 * JSON string and a separator): with a shared session store every request
 * reads them back, so they are bounded as a whole (256 KiB).
 */
export const MAX_SUBSCRIPTION_CHARS = 262_144;

/** The characters `uris` take in a session record (see {@link MAX_SUBSCRIPTION_CHARS}). */
export function subscriptionChars(uris: Iterable<string>): number {
  let chars = 0;
  for (const uri of uris) chars += JSON.stringify(uri).length + 1;
  return chars;
}

/**
 * The shared handlers of 2026-07-28 only, which an earlier-era session never
 * reaches. (The tasks extension's methods are contributed to the 2026-07-28
 * codec alone, never to the shared table, so they need no entry here.)
 */
export const LATER_ONLY_METHODS: ReadonlySet<string> = new Set(["server/discover", "subscriptions/listen"]);

/** The session a request of this era came on: a binding naming this revision is one of its sessions. */
export function sessionOf(scope: RunScope): LegacySession {
  return scope.binding as LegacySession;
}

const always = () => true;

/**
 * The method table of a session: its own methods first, then those plug-ins
 * contributed, then the shared table's without {@link LATER_ONLY_METHODS}.
 */
export function sessionMethods(
  shared: ReadonlyMap<string, MethodEntry>,
  contributed: ReadonlyMap<string, MethodEntry>,
  settings: RevisionSettings,
): ReadonlyMap<string, MethodEntry> {
  const table = new Map<string, MethodEntry>();
  for (const [method, entry] of shared) if (!LATER_ONLY_METHODS.has(method)) table.set(method, entry);
  for (const [method, entry] of contributed) table.set(method, entry);
  // Subscriptions exist while the resources feature serves something.
  const resources = () => shared.get(Method.ResourcesRead)?.enabled() === true;
  table.set(Method.Ping, { enabled: always, handle: () => ({}) });
  table.set(Method.LoggingSetLevel, {
    enabled: always,
    handle: (params, _ctx, _transport, scope) => {
      if (!settings.loggingEnabled) throw notFound(Method.LoggingSetLevel);
      if (!legacyValidators().SetLevelRequestParams(params)) {
        throw new McpError(ErrorCode.InvalidParams, "Invalid params: level must be a logging level (debug ... emergency)");
      }
      sessionOf(scope).logLevel = params.level as LoggingLevel;
      return {};
    },
  });
  table.set(Method.ResourcesSubscribe, {
    enabled: always,
    handle: (params, _ctx, _transport, scope) => subscription(sessionOf(scope), Method.ResourcesSubscribe, params, resources()),
  });
  table.set(Method.ResourcesUnsubscribe, {
    enabled: always,
    handle: (params, _ctx, _transport, scope) => subscription(sessionOf(scope), Method.ResourcesUnsubscribe, params, resources()),
  });
  return table;
}

/** `resources/subscribe` or `resources/unsubscribe` of `uri` on `session`. */
function subscription(session: LegacySession, method: string, params: JsonObject, served: boolean): JsonObject {
  if (!served) throw notFound(method);
  const v = legacyValidators();
  if (!(method === Method.ResourcesSubscribe ? v.SubscribeRequestParams(params) : v.UnsubscribeRequestParams(params))) {
    throw new McpError(ErrorCode.InvalidParams, "Invalid params: uri (a string) is required");
  }
  const uri = params.uri as string;
  if (method === Method.ResourcesSubscribe) {
    if (!session.subscriptions.has(uri) && session.subscriptions.size >= MAX_SUBSCRIPTIONS) {
      throw new McpError(-32000, `Too many resource subscriptions on this session (limit ${MAX_SUBSCRIPTIONS})`);
    }
    if (!session.subscriptions.has(uri) && subscriptionChars(session.subscriptions) + subscriptionChars([uri]) > MAX_SUBSCRIPTION_CHARS) {
      throw new McpError(-32000, `Resource subscriptions on this session would pass ${MAX_SUBSCRIPTION_CHARS} characters (limit)`);
    }
    session.subscriptions.add(uri);
  } else session.subscriptions.delete(uri);
  return {};
}

/** A method the server does not serve now (it does not log, or has no resources): -32601, answered by the handler as before. */
function notFound(method: string): McpError {
  return new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`, { method });
}
