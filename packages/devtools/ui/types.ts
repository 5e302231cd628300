// The shapes the backend sends (the devtools HTTP API); the page only reads them.

/** A JSON value as parsed from the API. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The requestState decoded with the server's own key. */
export interface DecodedState {
  verified: boolean;
  expired: boolean;
  method?: string;
  answers?: JsonObject;
  expiresAt?: number;
}

export interface TrafficBase {
  seq: number;
  time: number;
  transport: "http" | "stdio" | "direct";
  era?: string;
  protocolVersion?: string;
  sessionId?: string;
  principal?: { subject?: string; clientId?: string };
  clientInfo?: { name?: string; version?: string; title?: string };
}
export interface RequestTraffic extends TrafficBase {
  kind: "request";
  phase: "start" | "end";
  requestId: string | number;
  method: string;
  params?: JsonObject;
  durationMs?: number;
  response?: JsonObject;
  status?: number;
}
export interface MessageTraffic extends TrafficBase {
  kind: "message";
  direction: "in" | "out";
  message: JsonObject;
  relatedRequestId?: string | number;
}
export interface StreamTraffic extends TrafficBase {
  kind: "stream";
  event: "open" | "close";
  stream: "get" | "listen";
  streamId?: string;
}
export interface TaskTraffic extends TrafficBase {
  kind: "task";
  taskId: string;
  status: string;
  statusMessage?: string;
  relatedRequestId?: string | number;
}
export type TrafficEvent = RequestTraffic | MessageTraffic | StreamTraffic | TaskTraffic;

/** An elicitation the in-process client received from a call made in the page. */
export interface Ask {
  id: string;
  era: string;
  message: string;
  requestedSchema: JsonObject;
  tool?: string;
}

/** One SSE event of `api/events`. */
export type DevtoolsEvent =
  | { type: "traffic"; event: TrafficEvent; state?: DecodedState; issuedState?: DecodedState }
  | { type: "ask"; ask: Ask }
  | { type: "ask-done"; id: string }
  | { type: "dropped"; count: number };

/** `api/info`. */
export interface Info {
  server: { name: string; version: string; title?: string };
  eras: string[];
  tokenPath: string;
}

/** `api/call` answers. */
export type CallAnswer =
  | { ok: true; result: JsonObject; check?: { valid: boolean; problems: string[] } }
  | { ok: false; error: { code: number; message: string; data?: Json } };

export const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);
