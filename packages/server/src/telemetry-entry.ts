/**
 * `@x/server/telemetry`: the server's `node:diagnostics_channel` channels
 * (tool calls, `help`, refused requests, ignored messages, traffic) and the W3C trace context a request
 * carries, for logging, metrics and tracing without a dependency.
 *
 * @module @x/server/telemetry
 */
export {
  CHANNELS,
  dispatchError,
  type ErrorKind,
  type HelpEvent,
  type MessageIgnoredEvent,
  type RequestRejectedEvent,
  readTraceContext,
  type ToolCallEvent,
  type ToolOutcome,
  type TraceContext,
} from "./telemetry.js";
export { type RequestStateReading, readRequestState } from "./revisions/2026-07-28/state.js";
export {
  type MessageTraffic,
  type RequestTraffic,
  type StreamTraffic,
  TRAFFIC_CHANNEL,
  type TaskTraffic,
  type TrafficBase,
  type TrafficEvent,
  type TrafficPrincipal,
  type TrafficTransport,
} from "./traffic.js";
