// Groups traffic events into rows: one per exchange. Pure (no DOM): unit-tested.
import type { DecodedState, DevtoolsEvent, Json, JsonObject, MessageTraffic, RequestTraffic, TrafficEvent } from "../types.js";
import { isObject } from "../types.js";

export type Outcome = "pending" | "ok" | "error" | "input_required" | "is-error" | "notification" | "stream" | "task";

/** One round of a call: a request of a Multi Round-Trip chain, or a server-to-client request inside a call. */
export interface Round {
  /** `"request"`: a client request (its answers, its asks); `"server-request"`: an initialize-era request sent to the client. */
  kind: "request" | "server-request";
  seq: number;
  method: string;
  outcome: Outcome;
  /** What the server asked for: `inputRequests` of an input_required result, or the params of a server-to-client request. */
  asks?: Json;
  /** What the client answered: `inputResponses`, or the response to a server-to-client request. */
  answers?: Json;
  /** The requestState the request carried, decoded. */
  state?: DecodedState;
  /** The requestState the server issued with its input_required result, decoded. */
  issuedState?: DecodedState;
  durationMs?: number;
  status?: number;
  params?: Json;
  response?: Json;
}

export interface TaskStatus {
  time: number;
  status: string;
  statusMessage?: string;
}

export interface Row {
  id: number;
  /** Bumped on every change, so a view redraws only what changed. */
  version: number;
  /** The first event's seq. */
  seq: number;
  kind: TrafficEvent["kind"];
  time: number;
  transport: string;
  era?: string;
  protocolVersion?: string;
  sessionId?: string;
  direction?: "in" | "out";
  method: string;
  tool?: string;
  client?: string;
  subject?: string;
  clientId?: string;
  outcome: Outcome;
  durationMs?: number;
  status?: number;
  rounds: Round[];
  notifications: MessageTraffic[];
  tasks: TaskStatus[];
  /** The raw events, for details and export (bounded per row). */
  events: DevtoolsEvent[];
}

/** At most this many rows are kept: the oldest go first. */
export const MAX_ROWS = 5000;
/** At most this many raw events are kept per row. */
export const MAX_ROW_EVENTS = 200;
const MAX_SEEN = 4 * MAX_ROWS;

const outcomeOf = (response: Json | undefined): Outcome => {
  if (!isObject(response)) return "pending";
  if (response.error !== undefined) return "error";
  const result = response.result;
  if (isObject(result) && result.resultType === "input_required") return "input_required";
  if (isObject(result) && result.isError === true) return "is-error";
  return "ok";
};
const idKey = (sessionId: string | undefined, id: Json | undefined): string => `${sessionId ?? ""}\u0000${JSON.stringify(id)}`;

export class TrafficModel {
  rows: Row[] = [];
  dropped = 0;
  private nextId = 1;
  private seen = new Set<string>();
  /** Row by the seq of a request event it holds. */
  private bySeq = new Map<number, { row: Row; round: Round }>();
  /** Row waiting for its next round, by the requestState its last result issued. */
  private byState = new Map<string, Row>();
  /** Call row by session + JSON-RPC id (the latest with that id). */
  private byRequest = new Map<string, Row>();
  /** A request sent to the client (or read from it), by session + id, waiting for its response. */
  private pending = new Map<string, { row: Row; round?: Round }>();
  private byTask = new Map<string, Row>();
  private byStream = new Map<string, Row>();
  /** The client and principal of each initialize-era session seen. */
  private sessions = new Map<string, { client: string; subject?: string | undefined; clientId?: string | undefined }>();
  /** Index keys per row, removed when the row is dropped. */
  private keys = new Map<Row, Array<[Map<any, any>, unknown]>>();

  /** Applies one event; returns false when it was a duplicate (a replay after a reconnect) or not traffic. */
  apply(devtools: DevtoolsEvent): boolean {
    if (devtools.type === "dropped") {
      this.dropped += devtools.count;
      return true;
    }
    if (devtools.type !== "traffic") return false;
    const event = devtools.event;
    const mark = `${event.seq}:${event.kind === "request" ? event.phase : ""}`;
    if (this.seen.has(mark)) return false;
    this.seen.add(mark);
    if (this.seen.size > MAX_SEEN) this.seen.delete(this.seen.values().next().value as string);
    switch (event.kind) {
      case "request":
        this.request(event, devtools);
        break;
      case "message":
        this.message(event, devtools);
        break;
      case "stream": {
        const key = `${event.sessionId ?? ""}|${event.stream}|${event.streamId ?? ""}`;
        const open = this.byStream.get(key);
        const row =
          event.event === "close" && open
            ? open
            : this.newRow(event, event.stream === "get" ? "GET stream" : "subscriptions/listen stream", "stream");
        if (row !== open) this.index(row, this.byStream, key);
        row.direction = event.event === "open" ? "out" : row.direction;
        this.touch(row, devtools);
        break;
      }
      case "task": {
        let row = this.byTask.get(event.taskId);
        if (!row) {
          row = this.newRow(event, "task", "task");
          const call =
            event.relatedRequestId === undefined ? undefined : this.byRequest.get(idKey(event.sessionId, event.relatedRequestId));
          row.tool = call?.tool;
          this.index(row, this.byTask, event.taskId);
        }
        row.tasks.push({ time: event.time, status: event.status, statusMessage: event.statusMessage });
        this.touch(row, devtools);
        break;
      }
    }
    return true;
  }

  private request(event: RequestTraffic, devtools: DevtoolsEvent & { type: "traffic" }): void {
    const known = this.bySeq.get(event.seq);
    let row: Row;
    let round: Round;
    if (known) {
      ({ row, round } = known);
    } else {
      const state = event.params?.requestState;
      const chained = typeof state === "string" && event.method === "tools/call" ? this.byState.get(state) : undefined;
      row = chained ?? this.newRow(event, event.method, "pending");
      if (!chained) {
        const name = event.params?.name;
        if (event.method === "tools/call" && typeof name === "string") row.tool = name;
      } else {
        this.byState.delete(state as string);
      }
      round = { kind: "request", seq: event.seq, method: event.method, outcome: "pending", params: event.params };
      if (event.params?.inputResponses !== undefined) round.answers = event.params.inputResponses;
      if (devtools.state) round.state = devtools.state;
      row.rounds.push(round);
      this.index(row, this.bySeq, event.seq, { row, round });
      this.index(row, this.byRequest, idKey(event.sessionId, event.requestId), row);
    }
    if (event.phase === "end") {
      round.outcome = outcomeOf(event.response);
      round.response = event.response;
      round.durationMs = event.durationMs;
      round.status = event.status;
      if (devtools.issuedState) round.issuedState = devtools.issuedState;
      const result = event.response?.result;
      if (round.outcome === "input_required" && isObject(result)) {
        round.asks = result.inputRequests;
        if (typeof result.requestState === "string") this.index(row, this.byState, result.requestState, row);
      }
    }
    const last = row.rounds.filter((r) => r.kind === "request").at(-1);
    row.outcome = last?.outcome ?? "pending";
    row.status = last?.status;
    const durations = row.rounds.map((r) => r.durationMs).filter((d): d is number => d !== undefined);
    row.durationMs = durations.length ? durations.reduce((a, b) => a + b, 0) : undefined;
    this.fill(row, event);
    this.touch(row, devtools);
  }

  private message(event: MessageTraffic, devtools: DevtoolsEvent): void {
    const message = event.message;
    const method = typeof message.method === "string" ? message.method : undefined;
    const hasId = message.id !== undefined && message.id !== null;
    if (method !== undefined && hasId) {
      // A request in a message event: sent to the client (initialize era), or an initialize read from it.
      const call = event.relatedRequestId === undefined ? undefined : this.byRequest.get(idKey(event.sessionId, event.relatedRequestId));
      if (call && event.direction === "out") {
        const round: Round = { kind: "server-request", seq: event.seq, method, outcome: "pending", asks: message.params };
        call.rounds.push(round);
        this.index(call, this.pending, idKey(event.sessionId, `${event.direction}:${JSON.stringify(message.id)}`), { row: call, round });
        this.touch(call, devtools);
        return;
      }
      const row = this.newRow(event, method, "pending");
      this.index(row, this.pending, idKey(event.sessionId, `${event.direction}:${JSON.stringify(message.id)}`), { row });
      this.touch(row, devtools);
      return;
    }
    if (method === undefined && hasId) {
      // A response: to a request that went the other way.
      const other = event.direction === "in" ? "out" : "in";
      const waiting = this.pending.get(idKey(event.sessionId, `${other}:${JSON.stringify(message.id)}`));
      if (waiting) {
        this.pending.delete(idKey(event.sessionId, `${other}:${JSON.stringify(message.id)}`));
        const outcome = outcomeOf(message);
        if (waiting.round) {
          waiting.round.answers = message.result ?? message.error;
          waiting.round.response = message;
          waiting.round.outcome = outcome;
        } else {
          waiting.row.outcome = outcome;
          waiting.row.rounds.push({ kind: "request", seq: event.seq, method: waiting.row.method, outcome, response: message });
        }
        this.touch(waiting.row, devtools);
        return;
      }
      this.touch(this.newRow(event, "(response)", outcomeOf(message)), devtools);
      return;
    }
    const call = event.relatedRequestId === undefined ? undefined : this.byRequest.get(idKey(event.sessionId, event.relatedRequestId));
    if (call) {
      call.notifications.push(event);
      this.touch(call, devtools);
      return;
    }
    this.touch(this.newRow(event, method ?? "(message)", "notification"), devtools);
  }

  private newRow(event: TrafficEvent, method: string, outcome: Outcome): Row {
    const row: Row = {
      id: this.nextId++,
      version: 0,
      seq: event.seq,
      kind: event.kind,
      time: event.time,
      transport: event.transport,
      method,
      outcome,
      rounds: [],
      notifications: [],
      tasks: [],
      events: [],
    };
    if (event.kind === "message") row.direction = event.direction;
    else if (event.kind === "request") row.direction = "in";
    this.fill(row, event);
    this.rows.push(row);
    while (this.rows.length > MAX_ROWS) this.drop(this.rows.shift() as Row);
    return row;
  }

  /** Takes what the event knows and the row does not yet (the era, the client, the principal). */
  private fill(row: Row, event: TrafficEvent): void {
    // A session's later messages (notifications, responses) do not repeat its client: the session remembers it.
    const session = event.sessionId === undefined ? undefined : this.sessions.get(event.sessionId);
    if (event.sessionId !== undefined && event.clientInfo?.name && !session) {
      this.sessions.set(event.sessionId, {
        client: event.clientInfo.name,
        subject: event.principal?.subject,
        clientId: event.principal?.clientId,
      });
      if (this.sessions.size > MAX_ROWS) this.sessions.delete(this.sessions.keys().next().value as string);
    }
    row.client ??= session?.client;
    row.subject ??= session?.subject;
    row.clientId ??= session?.clientId;
    row.era ??= event.era ?? undefined;
    row.protocolVersion ??= event.protocolVersion ?? undefined;
    row.sessionId ??= event.sessionId ?? undefined;
    row.client ??= event.clientInfo?.name ?? undefined;
    row.subject ??= event.principal?.subject ?? undefined;
    row.clientId ??= event.principal?.clientId ?? undefined;
  }

  private touch(row: Row, devtools: DevtoolsEvent): void {
    row.version++;
    if (row.events.length < MAX_ROW_EVENTS) row.events.push(devtools);
  }

  private index<K, V>(row: Row, map: Map<K, V>, key: K, value?: V): void {
    map.set(key, (value ?? row) as V);
    const list = this.keys.get(row) ?? [];
    list.push([map, key]);
    this.keys.set(row, list);
  }

  private drop(row: Row): void {
    for (const [map, key] of this.keys.get(row) ?? []) {
      const value = map.get(key);
      if (value === row || (isObject(value) && (value as { row?: Row }).row === row)) map.delete(key);
    }
    this.keys.delete(row);
  }

  clear(): void {
    this.rows = [];
    this.dropped = 0;
    for (const map of [this.bySeq, this.byState, this.byRequest, this.pending, this.byTask, this.byStream, this.keys]) map.clear();
  }
}

export type { JsonObject };
