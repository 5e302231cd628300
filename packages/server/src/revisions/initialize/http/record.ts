/**
 * The check of a session record read back from a shared store (internal):
 * the store is outside the process, so what it hands back is input like a
 * request, and a record that passes is one this server could have written.
 * One place for every store implementation (the server runs it, not the store).
 */
import type { JsonObject } from "../../../objects.js";
import { initializeParamsProblem, legacyValidators } from "../era.js";
import { MAX_SUBSCRIPTION_CHARS, MAX_SUBSCRIPTIONS, subscriptionChars } from "../methods.js";
import { MAX_SESSION_RECORD_CHARS, type SessionRecord, SessionRecordError } from "./sessions.js";

/**
 * `value` as the record of session `id`, checked: an object whose `id` is
 * `id` (a record copied under another key would mix two sessions), whose
 * `protocolVersion` is one of `versions` (those of the era the server
 * serves), whose client capabilities and info pass the checks of
 * `initialize` (`initializeParamsProblem`), `initialized` a boolean,
 * `principal` absent or a string, `logLevel` absent or a logging level, and
 * `subscriptions` strings within `MAX_SUBSCRIPTIONS` and
 * `MAX_SUBSCRIPTION_CHARS`; the whole at most `MAX_SESSION_RECORD_CHARS` as
 * JSON. The era must be loaded (`loadEra`).
 * @throws SessionRecordError saying what is wrong.
 */
export function readRecord(value: unknown, id: string, versions: readonly string[]): SessionRecord {
  const problem = recordProblem(value, id, versions);
  if (problem) throw new SessionRecordError(id, problem);
  return value as SessionRecord;
}

function recordProblem(value: unknown, id: string, versions: readonly string[]): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const r = value as Record<string, unknown>;
  if (r.id !== id) return `its id ${JSON.stringify(String(r.id)).slice(0, 80)} is not the key it was read by`;
  if (typeof r.protocolVersion !== "string" || !versions.includes(r.protocolVersion)) {
    return `protocolVersion ${JSON.stringify(String(r.protocolVersion)).slice(0, 40)} is none this server serves (${versions.join(", ")})`;
  }
  if (typeof r.initialized !== "boolean") return "initialized is not a boolean";
  if (r.principal !== undefined && typeof r.principal !== "string") return "principal is not a string";
  const v = legacyValidators();
  if (r.logLevel !== undefined && !v.SetLevelRequestParams({ level: r.logLevel })) return "logLevel is not a logging level";
  const subs = r.subscriptions;
  if (!Array.isArray(subs) || !subs.every((s) => typeof s === "string")) return "subscriptions is not a list of strings";
  if (subs.length > MAX_SUBSCRIPTIONS) return `${subs.length} subscriptions, more than the ${MAX_SUBSCRIPTIONS} a session may have`;
  const chars = subscriptionChars(subs);
  if (chars > MAX_SUBSCRIPTION_CHARS) return `subscriptions of ${chars} characters, more than ${MAX_SUBSCRIPTION_CHARS}`;
  const opening = { protocolVersion: r.protocolVersion, capabilities: r.clientCapabilities, clientInfo: r.clientInfo } as JsonObject;
  const initialize = initializeParamsProblem(opening, v);
  if (initialize) return `its client capabilities or info fail the checks of initialize: ${initialize.message}`;
  // Each part is bounded by now, so measuring the whole is bounded work too.
  const size = JSON.stringify(r, (_key, member) => (typeof member === "bigint" ? 0 : member)).length;
  if (size > MAX_SESSION_RECORD_CHARS) return `${size} characters as JSON, more than ${MAX_SESSION_RECORD_CHARS}`;
  return undefined;
}
