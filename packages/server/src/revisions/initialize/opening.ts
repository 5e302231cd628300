/**
 * `initialize` on `x-mcp:traffic`: the session framings (HTTP and stdio)
 * answer it themselves, not the dispatcher, so both publish its start and end
 * through these two functions, called only when `trafficObserved()`.
 */
import type { RequestId } from "@x/mcp-v2607";
import type { AuthInfo } from "../../authorization.js";
import type { JSONRPCResponse } from "../../dispatch.js";
import { isObject, type JsonObject } from "../../objects.js";
import { publishTraffic, type RequestTraffic, type TrafficTransport, trafficBase } from "../../traffic.js";
import type { Binding } from "../revision.js";

/** An `initialize` published at its start: the event, and when it started (`performance.now()`, ms). */
export interface Opening {
  readonly event: RequestTraffic;
  readonly started: number;
}

/** Publishes the start of an `initialize` request read over `via`; {@link openingEnded} finishes it. */
export function openingStarted(via: TrafficTransport, id: RequestId, params: JsonObject, auth: AuthInfo | undefined): Opening {
  const version = typeof params.protocolVersion === "string" ? params.protocolVersion : undefined;
  const clientInfo = isObject(params.clientInfo) ? (params.clientInfo as unknown as RequestTraffic["clientInfo"]) : undefined;
  const event: RequestTraffic = {
    ...trafficBase(via, undefined, version, auth, clientInfo),
    era: "initialize",
    kind: "request",
    phase: "start",
    requestId: id,
    method: "initialize",
    params,
    durationMs: undefined,
    response: undefined,
    status: undefined,
  };
  publishTraffic(event);
  return { event, started: performance.now() };
}

/**
 * Publishes the end of `event`: the `response` sent, the HTTP `status`
 * (`undefined` over stdio), and the session it opened (none when refused).
 */
export function openingEnded(opening: Opening, response: unknown, status: number | undefined, session: Binding | undefined): void {
  const opened = opening.event as { -readonly [K in keyof RequestTraffic]: RequestTraffic[K] };
  opened.phase = "end";
  opened.durationMs = performance.now() - opening.started;
  opened.response = response as JSONRPCResponse;
  opened.status = status;
  if (session !== undefined) {
    opened.sessionId = session.id || undefined;
    opened.protocolVersion = session.protocolVersion;
  }
  publishTraffic(opened);
}
