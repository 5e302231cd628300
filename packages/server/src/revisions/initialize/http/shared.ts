/**
 * A session as data (internal): the record a shared {@link SessionStore}
 * keeps of a live session, and the way back, so that an instance that does
 * not hold a session serves it from its record (spec 2025-11-25:
 * basic/transports, "Session Management": the id is all a request carries).
 */
import type { LegacySession } from "../session.js";
import type { HttpSession } from "./session-table.js";
import type { SessionRecord } from "./sessions.js";

/** The record of a live session. */
export function recordOf(live: HttpSession): SessionRecord {
  const session = live.session;
  const record: SessionRecord = {
    id: session.id,
    protocolVersion: session.protocolVersion,
    clientCapabilities: session.clientCapabilities,
    clientInfo: session.clientInfo,
    initialized: session.initialized,
    subscriptions: [...session.subscriptions],
  };
  if (live.principal !== undefined) record.principal = live.principal;
  if (session.logLevel !== undefined) record.logLevel = session.logLevel;
  return record;
}

/** What of a session its requests may change (the handshake, the log level, the subscriptions), as one string to compare. */
export function stateOf(session: LegacySession): string {
  return `${session.initialized ? 1 : 0} ${session.logLevel ?? ""} ${[...session.subscriptions].join(" ")}`;
}

/** Brings a live session in line with a record another instance saved (a request there changed it). */
export function applyRecord(session: LegacySession, record: SessionRecord): void {
  if (record.initialized) session.markInitialized();
  session.logLevel = record.logLevel;
  if (session.subscriptions.size !== record.subscriptions.length || record.subscriptions.some((uri) => !session.subscriptions.has(uri))) {
    session.subscriptions.clear();
    for (const uri of record.subscriptions) session.subscriptions.add(uri);
  }
}

/** A record as read back from a store: the members every session has, of the right types. */
export function isSessionRecord(value: unknown): value is SessionRecord {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.id === "string" &&
    typeof r.protocolVersion === "string" &&
    typeof r.clientCapabilities === "object" &&
    r.clientCapabilities !== null &&
    typeof r.initialized === "boolean" &&
    Array.isArray(r.subscriptions) &&
    r.subscriptions.every((s) => typeof s === "string") &&
    (r.principal === undefined || typeof r.principal === "string")
  );
}
