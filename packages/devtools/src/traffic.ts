/**
 * The server's traffic channel as this package reads it.
 *
 * TODO(issue 42 contract): import `TRAFFIC_CHANNEL` and `TrafficEvent` from
 * `@x/server/telemetry` once that entry exports them; until then the name
 * and the members read here are restated (the fields of
 * `packages/server/src/traffic.ts`).
 */

/** The diagnostics channel `@x/server` publishes every message on. */
export const TRAFFIC_CHANNEL = "x-mcp:traffic";

/** The members of a traffic event this package reads; the rest is forwarded as it is. */
export interface TrafficEventView {
  readonly seq: number;
  readonly kind: "request" | "message" | "stream" | "task";
  readonly params?: { readonly requestState?: unknown } | undefined;
  readonly response?: { readonly result?: unknown; readonly error?: unknown } | undefined;
}
