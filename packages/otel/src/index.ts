/**
 * `@x/otel`: OpenTelemetry for `@x/server`. {@link instrumentServers}
 * subscribes to the server's `node:diagnostics_channel` channels
 * (`@x/server/telemetry`) and turns them into spans and metrics through
 * `@opentelemetry/api`, following the OpenTelemetry semantic conventions for
 * MCP where they name a thing (see `names.ts`).
 *
 * The server itself never loads this package or any OpenTelemetry module: a
 * program that does not import `@x/otel` has no OpenTelemetry in it.
 *
 * @module @x/otel
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import {
  type Attributes,
  type Context,
  type Counter,
  context,
  createTraceState,
  diag,
  type Histogram,
  isSpanContextValid,
  type Link,
  type MeterProvider,
  metrics,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  type TracerProvider,
  trace,
} from "@opentelemetry/api";
import { Method as Method2511 } from "@x/mcp-v2511/constants";
import { Method as Method2607 } from "@x/mcp-v2607/constants";
import { TaskMethod } from "@x/mcp-v2607/tasks";
import { CHANNELS, type MessageIgnoredEvent, type RequestRejectedEvent, type ToolCallEvent, type TraceContext } from "@x/server/telemetry";
import {
  ATTR_ERROR_KIND,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_IGNORED_REASON,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_SESSION_ID,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  ATTR_TOOL_ACTION,
  ATTR_TOOL_OUTCOME,
  DURATION_BUCKETS,
  ERROR_TYPE_TOOL_ERROR,
  GEN_AI_OPERATION_EXECUTE_TOOL,
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_MESSAGES_IGNORED,
  METRIC_REQUESTS_REJECTED,
  OTHER,
} from "./names.js";

export * from "./names.js";

/** The instrumentation scope of every tracer and meter this package makes. */
export const INSTRUMENTATION_NAME = "@x/otel";

/** Options of {@link instrumentServers}. */
export interface InstrumentOptions {
  /**
   * Where spans go. Default: the global tracer provider (the one the
   * OpenTelemetry Node SDK's `start()` registers), looked up when the first
   * tool call starts.
   */
  tracerProvider?: TracerProvider;
  /**
   * Where metrics go. Default: the global meter provider, looked up when the
   * first event is recorded (a meter taken before the SDK starts would stay
   * a no-op one).
   */
  meterProvider?: MeterProvider;
  /**
   * Attributes added to every span and every metric point, e.g.
   * `{ "network.transport": "tcp" }` for a server on HTTP (`"pipe"` on
   * stdio), which the events do not tell. Keep them few and of low
   * cardinality: each distinct set is a separate metric series.
   */
  attributes?: Attributes;
  /**
   * Whether a tool call's span is the active span while its handler runs,
   * so that the spans the handler starts (a database query, an outgoing
   * request) become its children. Default `true`. Needs a context manager,
   * which the Node SDK registers.
   */
  activateSpans?: boolean;
}

/** Stops the instrumentation: see {@link instrumentServers}. Calling it again does nothing. */
export type Uninstrument = () => void;

/** Every method either revision (and the tasks extension) defines: a rejected request's method is recorded only when it is one of these. */
const KNOWN_METHODS: ReadonlySet<string> = new Set<string>([
  ...Object.values(Method2607),
  ...Object.values(Method2511),
  ...Object.values(TaskMethod),
]);

const TOOLS_CALL = Method2607.ToolsCall;

/** Reads a {@link TraceContext} as a propagator's carrier, with its three W3C keys. */
const TRACE_GETTER: TextMapGetter<TraceContext> = {
  keys: (carrier) => ["traceparent", "tracestate", "baggage"].filter((key) => carrier[key as keyof TraceContext] !== undefined),
  get: (carrier, key) => (key === "traceparent" || key === "tracestate" || key === "baggage" ? carrier[key] : undefined),
};

/** `performance.now()` milliseconds as milliseconds since the epoch, which OpenTelemetry takes as a time. */
function epoch(now: number): number {
  return performance.timeOrigin + now;
}

/**
 * The parent of a tool call's span: the caller's trace context from
 * `_meta`, over the ambient context (which keeps the rest of what the
 * ambient context holds). The configured propagators read it first (so
 * `tracestate` and `baggage` are parsed the way the application set up);
 * when they read no matching span context from it (no W3C propagator
 * registered), the span context is set from the already-checked fields.
 */
function remoteParent(caller: TraceContext, ambient: Context): Context {
  const extracted = propagation.extract(ambient, caller, TRACE_GETTER);
  const found = trace.getSpanContext(extracted);
  if (found?.isRemote && found.traceId === caller.traceId && found.spanId === caller.parentId) return extracted;
  return trace.setSpanContext(extracted, {
    traceId: caller.traceId,
    spanId: caller.parentId,
    traceFlags: caller.traceFlags,
    isRemote: true,
    ...(caller.tracestate !== undefined ? { traceState: createTraceState(caller.tracestate) } : {}),
  });
}

/** The JSON-RPC code as the conventions record it: its decimal string. */
function codeText(code: number): string {
  return String(code);
}

/**
 * Turns what every `@x/server` in this process publishes on its diagnostics
 * channels (the channels are process-wide) into OpenTelemetry spans and
 * metrics:
 *
 * - each tool call (`x-mcp:tool:start` … `x-mcp:tool:stop`) is one span of
 *   kind SERVER named `tools/call {tool}`, a child of the W3C trace context
 *   the request carried in `_meta` (`traceparent`, `tracestate`, `baggage`;
 *   spec 2026-07-28, basic/index "OpenTelemetry trace context") with a link
 *   to the ambient span (an HTTP server span, say), or a child of the ambient
 *   context when the request carried none. It ends with status ERROR for an
 *   `isError` result (`error.type` `tool_error`) and for a JSON-RPC error
 *   (`error.type` and `rpc.response.status_code` the code, the message as
 *   the status description); a fault is also recorded as an exception
 *   event (its name, its bounded message and its stack). Its times are the
 *   server's own measurements;
 * - each tool call's duration, in seconds, is recorded in the histogram
 *   `mcp.server.operation.duration`;
 * - each request answered with a JSON-RPC error adds 1 to
 *   `x_mcp.server.requests.rejected`, and each message dropped unanswered
 *   adds 1 to `x_mcp.server.messages.ignored`.
 *
 * The attributes are listed in the package README and in `names.ts`. A
 * caller's `traceparent` that did not sample the trace gives a span that is
 * not recorded (the SDK's default parent-based sampler); metrics are
 * recorded for every call. Nothing here throws into the server: an error of
 * the OpenTelemetry SDK is reported through `diag`.
 *
 * Call it once per process: a second call subscribes a second time, and
 * every call is then recorded twice.
 *
 * @returns a function that unsubscribes. Tool calls already started still
 *   get their span ended and their duration recorded; nothing new is recorded.
 */
export function instrumentServers(options: InstrumentOptions = {}): Uninstrument {
  const extra = options.attributes ?? {};
  const activate = options.activateSpans ?? true;
  const spans = new WeakMap<ToolCallEvent, Span>();
  let tracer: Tracer | undefined;
  let instruments: { duration: Histogram; rejected: Counter; ignored: Counter } | undefined;
  let inFlight = 0;
  let stopped = false;

  const tracerOf = () => {
    tracer ??= (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_NAME);
    return tracer;
  };
  const instrumentsOf = () => {
    if (instruments) return instruments;
    const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_NAME);
    instruments = {
      duration: meter.createHistogram(METRIC_MCP_SERVER_OPERATION_DURATION, {
        unit: "s",
        description: "How long the server took over one tool call, from reaching the tool to its result.",
        advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
      }),
      rejected: meter.createCounter(METRIC_REQUESTS_REJECTED, {
        unit: "{request}",
        description: "Requests the server answered with a JSON-RPC error.",
      }),
      ignored: meter.createCounter(METRIC_MESSAGES_IGNORED, {
        unit: "{message}",
        description: "Messages the server read and dropped unanswered.",
      }),
    };
    return instruments;
  };

  const guarded =
    <T>(what: string, handle: (message: T) => void) =>
    (message: unknown) => {
      try {
        handle(message as T);
      } catch (error) {
        // A subscriber's throw would surface as an uncaught exception in the server's process.
        diag.error(`${INSTRUMENTATION_NAME}: recording ${what} failed`, error);
      }
    };

  const onStart = guarded<ToolCallEvent>("a tool call's start", (event) => {
    const ambient = context.active();
    let parent = ambient;
    let links: Link[] | undefined;
    if (event.trace !== undefined) {
      parent = remoteParent(event.trace, ambient);
      const around = trace.getSpanContext(ambient);
      if (around && isSpanContextValid(around) && around.spanId !== event.trace.parentId) links = [{ context: around }];
    }
    const attributes: Attributes = {
      ...extra,
      [ATTR_MCP_METHOD_NAME]: TOOLS_CALL,
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_EXECUTE_TOOL,
      [ATTR_GEN_AI_TOOL_NAME]: event.tool,
      [ATTR_JSONRPC_REQUEST_ID]: String(event.requestId),
      [ATTR_MCP_PROTOCOL_VERSION]: event.protocolVersion,
    };
    if (event.sessionId !== undefined) attributes[ATTR_MCP_SESSION_ID] = event.sessionId;
    if (event.action !== undefined) attributes[ATTR_TOOL_ACTION] = event.action;
    const span = tracerOf().startSpan(
      `${TOOLS_CALL} ${event.tool}`,
      { kind: SpanKind.SERVER, attributes, ...(links ? { links } : {}), startTime: epoch(event.startTime) },
      parent,
    );
    spans.set(event, span);
    inFlight++;
    if (activate) {
      const active = trace.setSpan(parent, span);
      const previous = event.within;
      event.within = previous
        ? <R>(run: () => R): R => context.with(active, () => previous(run))
        : <R>(run: () => R): R => context.with(active, run);
    }
  });

  const onError = guarded<ToolCallEvent>("a tool fault", (event) => {
    const span = spans.get(event);
    if (!span) return;
    const stack = event.crashReason instanceof Error ? event.crashReason.stack : undefined;
    span.recordException({ name: event.exception ?? "Error", message: event.error ?? "", ...(stack !== undefined ? { stack } : {}) });
  });

  const onStop = guarded<ToolCallEvent>("a tool call's end", (event) => {
    const span = spans.get(event);
    if (!span) return;
    spans.delete(event);
    inFlight--;
    try {
      const metric: Attributes = {
        ...extra,
        [ATTR_MCP_METHOD_NAME]: TOOLS_CALL,
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_EXECUTE_TOOL,
        [ATTR_GEN_AI_TOOL_NAME]: event.tool,
        [ATTR_MCP_PROTOCOL_VERSION]: event.protocolVersion,
        [ATTR_TOOL_OUTCOME]: event.outcome ?? "ok",
      };
      const ending: Attributes = { [ATTR_TOOL_OUTCOME]: event.outcome ?? "ok" };
      if (event.outcome === "error") {
        ending[ATTR_ERROR_TYPE] = metric[ATTR_ERROR_TYPE] = ERROR_TYPE_TOOL_ERROR;
        if (event.errorKind !== undefined) ending[ATTR_ERROR_KIND] = event.errorKind;
        span.setStatus(
          event.exception !== undefined ? { code: SpanStatusCode.ERROR, message: event.error ?? "" } : { code: SpanStatusCode.ERROR },
        );
      } else if (event.outcome === "protocol_error") {
        const type = event.errorCode !== undefined ? codeText(event.errorCode) : OTHER;
        ending[ATTR_ERROR_TYPE] = metric[ATTR_ERROR_TYPE] = type;
        if (event.errorCode !== undefined) ending[ATTR_RPC_RESPONSE_STATUS_CODE] = metric[ATTR_RPC_RESPONSE_STATUS_CODE] = type;
        span.setStatus({ code: SpanStatusCode.ERROR, ...(event.error !== undefined ? { message: event.error } : {}) });
      }
      span.setAttributes(ending);
      span.end(epoch(event.startTime + event.durationMs));
      instrumentsOf().duration.record(event.durationMs / 1000, metric);
    } finally {
      if (stopped && inFlight === 0) unsubscribeEnds();
    }
  });

  const onRejected = guarded<RequestRejectedEvent>("a rejected request", (event) => {
    const attributes: Attributes = {
      ...extra,
      [ATTR_RPC_RESPONSE_STATUS_CODE]: codeText(event.code),
      [ATTR_ERROR_TYPE]: codeText(event.code),
    };
    // The method is the client's string: recorded only when the protocol defines it, so a client cannot grow the number of series.
    if (event.method !== undefined) attributes[ATTR_MCP_METHOD_NAME] = KNOWN_METHODS.has(event.method) ? event.method : OTHER;
    instrumentsOf().rejected.add(1, attributes);
  });

  const onIgnored = guarded<MessageIgnoredEvent>("an ignored message", (event) => {
    instrumentsOf().ignored.add(1, { ...extra, [ATTR_IGNORED_REASON]: event.reason });
  });

  function unsubscribeEnds(): void {
    unsubscribe(CHANNELS.toolError, onError);
    unsubscribe(CHANNELS.toolStop, onStop);
  }

  subscribe(CHANNELS.toolStart, onStart);
  subscribe(CHANNELS.toolError, onError);
  subscribe(CHANNELS.toolStop, onStop);
  subscribe(CHANNELS.requestRejected, onRejected);
  subscribe(CHANNELS.messageIgnored, onIgnored);

  return () => {
    if (stopped) return;
    stopped = true;
    unsubscribe(CHANNELS.toolStart, onStart);
    unsubscribe(CHANNELS.requestRejected, onRejected);
    unsubscribe(CHANNELS.messageIgnored, onIgnored);
    if (inFlight === 0) unsubscribeEnds();
  };
}
