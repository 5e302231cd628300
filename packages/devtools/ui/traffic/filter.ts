// Which rows are shown: pure, so the filters are unit-tested.
import type { Outcome, Row } from "./model.js";

export interface Filter {
  client: string;
  method: string;
  tool: string;
  outcome: "" | Outcome;
  search: string;
}
export const NO_FILTER: Filter = { client: "", method: "", tool: "", outcome: "", search: "" };

export const OUTCOMES: Outcome[] = ["pending", "ok", "error", "input_required", "is-error", "notification", "stream", "task"];

/** Search text of a row: its summary and its messages (bounded), cached per row version. */
const texts = new WeakMap<Row, { version: number; text: string }>();
export function searchText(row: Row): string {
  const cached = texts.get(row);
  if (cached?.version === row.version) return cached.text;
  const parts = [
    row.method,
    row.tool,
    row.client,
    row.subject,
    row.clientId,
    row.era,
    row.protocolVersion,
    row.sessionId,
    row.outcome,
    row.transport,
  ];
  let body = "";
  try {
    body = JSON.stringify([
      row.rounds.map((r) => [r.params, r.response, r.asks, r.answers]),
      row.notifications.map((n) => n.message),
      row.tasks,
    ]);
  } catch {
    // A value JSON cannot write (a cycle) is left out of the search.
  }
  const text = `${parts.filter(Boolean).join(" ")} ${body.slice(0, 65_536)}`.toLowerCase();
  texts.set(row, { version: row.version, text });
  return text;
}

export function matches(row: Row, filter: Filter): boolean {
  if (filter.client && (row.client ?? "") !== filter.client) return false;
  if (filter.method && row.method !== filter.method) return false;
  if (filter.tool && row.tool !== filter.tool) return false;
  if (filter.outcome && row.outcome !== filter.outcome) return false;
  const needle = filter.search.trim().toLowerCase();
  return needle === "" || searchText(row).includes(needle);
}

export const applyFilter = (rows: readonly Row[], filter: Filter): Row[] => rows.filter((row) => matches(row, filter));

/** The values the filter selects offer, from the rows at hand. */
export function choices(rows: readonly Row[]): { clients: string[]; methods: string[]; tools: string[] } {
  const clients = new Set<string>();
  const methods = new Set<string>();
  const tools = new Set<string>();
  for (const row of rows) {
    if (row.client) clients.add(row.client);
    methods.add(row.method);
    if (row.tool) tools.add(row.tool);
  }
  const sorted = (set: Set<string>) => [...set].sort();
  return { clients: sorted(clients), methods: sorted(methods), tools: sorted(tools) };
}

/** What the export button writes: the rows shown, with their raw events. */
export function exportRows(rows: readonly Row[]): unknown {
  return {
    exportedAt: new Date().toISOString(),
    rows: rows.map((row) => ({
      seq: row.seq,
      method: row.method,
      tool: row.tool,
      era: row.era,
      protocolVersion: row.protocolVersion,
      transport: row.transport,
      client: row.client,
      principal: row.subject || row.clientId ? { subject: row.subject, clientId: row.clientId } : undefined,
      outcome: row.outcome,
      durationMs: row.durationMs,
      status: row.status,
      events: row.events,
    })),
  };
}
