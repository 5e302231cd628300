// The OpenTelemetry SDK with in-memory exporters, a real @x/server on 127.0.0.1,
// and the raw POSTs a well-behaved client would not send.
import { type Attributes, context, type HrTime } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  AggregationTemporality,
  DataPointType,
  type HistogramMetricData,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
  type SumMetricData,
} from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

/** A tracer provider and a meter provider that keep what they record in memory. */
export function memorySdk() {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exported only when flushed: the interval is never reached in a test.
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    /** The spans ended so far, oldest first. */
    spans(): ReadableSpan[] {
      return spanExporter.getFinishedSpans();
    },
    /** Every metric recorded so far (cumulative), by name. */
    async metrics(): Promise<Map<string, MetricData>> {
      metricExporter.reset();
      await meterProvider.forceFlush();
      const byName = new Map<string, MetricData>();
      for (const resource of metricExporter.getMetrics()) {
        for (const scope of resource.scopeMetrics) for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
      }
      return byName;
    },
    reset() {
      spanExporter.reset();
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

/** The data points of a histogram, as `{ attributes, count, sum }`. */
export function histogramPoints(metric: MetricData | undefined) {
  if (!metric || metric.dataPointType !== DataPointType.HISTOGRAM) return [];
  return (metric as HistogramMetricData).dataPoints.map((p) => ({ attributes: p.attributes, count: p.value.count, sum: p.value.sum }));
}

/** The data points of a counter, as `{ attributes, value }`. */
export function sumPoints(metric: MetricData | undefined): { attributes: Attributes; value: number }[] {
  if (!metric || metric.dataPointType !== DataPointType.SUM) return [];
  return (metric as SumMetricData).dataPoints.map((p) => ({ attributes: p.attributes, value: p.value }));
}

/** Seconds of an `HrTime`. */
export function seconds(time: HrTime): number {
  return time[0] + time[1] / 1e9;
}

/** Registers an AsyncLocalStorage context manager (as the Node SDK does); the returned function removes it. */
export function useContextManager(): () => void {
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  return () => {
    context.disable();
    manager.disable();
  };
}

/** A W3C `traceparent` for a fresh caller span: `flags` "01" samples the trace. */
export function callerSpan(flags = "01") {
  const traceId = randomHex(32);
  const spanId = randomHex(16);
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-${flags}` };
}

function randomHex(digits: number): string {
  let out = "";
  for (let i = 0; i < digits; i++) out += "0123456789abcdef"[Math.floor(Math.random() * 16)];
  // Never all zeros (an invalid id).
  return out.replace(/^0/, "1");
}

/**
 * POSTs one raw JSON-RPC message to a 2026-07-28 endpoint (a request gets a
 * valid `_meta` and its `Mcp-Method` header); resolves with the HTTP status
 * and the parsed body (if any).
 */
export async function postRaw(url: string, message: Record<string, unknown>) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
  };
  let body = message;
  if (typeof message.method === "string") {
    headers["mcp-method"] = message.method;
    const params = (message.params ?? {}) as Record<string, unknown>;
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    body = { ...message, params: { ...params, _meta: meta } };
  }
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
