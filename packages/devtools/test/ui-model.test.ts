// The page's pure parts: grouping traffic into rows, filters, forms from schemas, arguments from forms.
import { describe, expect, it } from "vitest";
import { applyFilter, choices, exportRows, NO_FILTER } from "../ui/traffic/filter.js";
import { MAX_ROWS, TrafficModel } from "../ui/traffic/model.js";
import { addItem, buildArguments, type Field, formFields, removeItem } from "../ui/try/schema.js";
import { dataUrl } from "../ui/try/result.js";
import { expandTemplate, promptSchema, templateVars } from "../ui/try/template.js";
import type { DecodedState, DevtoolsEvent, JsonObject, TrafficEvent } from "../ui/types.js";

let seq = 0;
const base = (extra: JsonObject = {}) => ({ seq: ++seq, time: 1_700_000_000_000 + seq, transport: "http" as const, ...extra });
const at = (event: TrafficEvent, extra: Partial<DevtoolsEvent & { type: "traffic" }> = {}): DevtoolsEvent => ({
  type: "traffic",
  event,
  ...extra,
});
const p26 = {
  era: "2026-07-28",
  protocolVersion: "2026-07-28",
  principal: { subject: "alice", clientId: "app" },
  clientInfo: { name: "x-client" },
};
const pInit = { era: "initialize", protocolVersion: "2025-11-25", sessionId: "s1", clientInfo: { name: "official" } };
const state: DecodedState = { verified: true, expired: false, method: "tools/call", answers: { q1: { action: "accept" } } };

/** A request's start and end events (the same seq), as the backend sends them. */
function call(
  id: number,
  params: JsonObject,
  result: JsonObject | undefined,
  common: JsonObject = p26,
  extra: { state?: DecodedState } = {},
) {
  const start = { ...base(common), kind: "request" as const, phase: "start" as const, requestId: id, method: "tools/call", params };
  const end = {
    ...start,
    phase: "end" as const,
    durationMs: 2,
    status: 200,
    response: result ? { jsonrpc: "2.0", id, result } : undefined,
  };
  return [at(start, extra), at(end, extra)];
}
const inputRequired = (ask: string, requestState: string) => ({
  resultType: "input_required",
  inputRequests: { [ask]: { method: "elicitation/create", params: { message: ask } } },
  requestState,
});

describe("traffic rows", () => {
  it("chains a Multi Round-Trip call's three rounds into one row by its requestState", () => {
    const model = new TrafficModel();
    const events = [
      ...call(1, { name: "book" }, inputRequired("q1", "S1")),
      ...call(2, { name: "book", requestState: "S1", inputResponses: { q1: { action: "accept" } } }, inputRequired("q2", "S2"), p26, {
        state,
      }),
      ...call(3, { name: "book", requestState: "S2", inputResponses: { q2: { action: "accept" } } }, { content: [] }, p26, { state }),
    ];
    for (const e of events) model.apply(e);
    // A reconnect replays the buffer: nothing changes.
    for (const e of events) expect(model.apply(e)).toBe(false);
    expect(model.rows).toHaveLength(1);
    const [row] = model.rows;
    expect(row).toMatchObject({
      method: "tools/call",
      tool: "book",
      outcome: "ok",
      era: "2026-07-28",
      subject: "alice",
      clientId: "app",
      client: "x-client",
    });
    expect(row?.rounds.map((r) => r.outcome)).toEqual(["input_required", "input_required", "ok"]);
    expect(row?.rounds[0]?.asks).toMatchObject({ q1: { method: "elicitation/create" } });
    expect(row?.rounds[1]?.answers).toEqual({ q1: { action: "accept" } });
    expect(row?.rounds[1]?.state).toEqual(state);
    expect(row?.durationMs).toBe(6);
  });

  it("keeps a call whose requestState no earlier row issued as its own row, and shows a round pending", () => {
    const model = new TrafficModel();
    for (const e of call(1, { name: "a" }, inputRequired("q", "S1"))) model.apply(e);
    for (const e of call(2, { name: "a", requestState: "other" }, undefined).slice(0, 1)) model.apply(e);
    expect(model.rows.map((r) => [r.outcome, r.rounds.length])).toEqual([
      ["input_required", 1],
      ["pending", 1],
    ]);
  });

  it("makes an initialize-era call's elicitations (asked and answered) its rounds, and its progress a note inside it", () => {
    const model = new TrafficModel();
    const [start, end] = call(7, { name: "survey" }, { content: [] }, pInit);
    const msg = (direction: "in" | "out", message: JsonObject, related?: number) =>
      at({
        ...base(pInit),
        kind: "message",
        direction,
        message,
        ...(related === undefined ? {} : { relatedRequestId: related }),
      } as TrafficEvent);
    for (const e of [
      start!,
      msg("out", { jsonrpc: "2.0", id: 0, method: "elicitation/create", params: { message: "Q1" } }, 7),
      msg("in", { jsonrpc: "2.0", id: 0, result: { action: "accept", content: { a: 1 } } }),
      msg("out", { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } }, 7),
      msg("out", { jsonrpc: "2.0", id: 1, method: "elicitation/create", params: { message: "Q2" } }, 7),
      msg("in", { jsonrpc: "2.0", id: 1, error: { code: -1, message: "no" } }),
      end!,
      msg("out", { jsonrpc: "2.0", method: "notifications/tools/list_changed" }),
      msg("out", { jsonrpc: "2.0", id: 2, method: "sampling/createMessage", params: {} }),
    ])
      model.apply(e);
    const [row, listChanged, standalone] = model.rows;
    expect(model.rows).toHaveLength(3);
    expect(row?.rounds.map((r) => [r.kind, r.method, r.outcome])).toEqual([
      ["request", "tools/call", "ok"],
      ["server-request", "elicitation/create", "ok"],
      ["server-request", "elicitation/create", "error"],
    ]);
    expect(row?.rounds[1]?.answers).toEqual({ action: "accept", content: { a: 1 } });
    expect(row?.notifications.map((n) => n.message.method)).toEqual(["notifications/progress"]);
    expect(row).toMatchObject({ era: "initialize", protocolVersion: "2025-11-25", sessionId: "s1", outcome: "ok" });
    expect(listChanged).toMatchObject({ method: "notifications/tools/list_changed", outcome: "notification", direction: "out" });
    expect(standalone).toMatchObject({ method: "sampling/createMessage", outcome: "pending", sessionId: "s1" });
  });

  it("makes one row per task with its status changes, and one per stream opened then closed", () => {
    const model = new TrafficModel();
    for (const status of ["working", "input_required", "completed"])
      model.apply(
        at({ ...base(p26), kind: "task", taskId: "t1", status, ...(status === "working" ? { statusMessage: "go" } : {}) } as TrafficEvent),
      );
    model.apply(at({ ...base(p26), kind: "task", taskId: "t2", status: "working" } as TrafficEvent));
    for (const event of ["open", "close"] as const)
      model.apply(at({ ...base(pInit), kind: "stream", event, stream: "get", streamId: "g" } as TrafficEvent));
    expect(model.rows.map((r) => [r.method, r.outcome, r.tasks.map((t) => t.status).join(",")])).toEqual([
      ["task", "task", "working,input_required,completed"],
      ["task", "task", "working"],
      ["GET stream", "stream", ""],
    ]);
    expect(model.rows[0]?.tasks[0]?.statusMessage).toBe("go");
  });

  it("outcomes: a JSON-RPC error, an isError result, a pending request", () => {
    const model = new TrafficModel();
    const [start] = call(1, { name: "x" }, undefined);
    model.apply(start!);
    for (const e of call(2, { name: "y" }, { isError: true, content: [] })) model.apply(e);
    const failed = {
      ...base(p26),
      kind: "request" as const,
      phase: "end" as const,
      requestId: 3,
      method: "ping",
      status: 400,
      response: { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "bad" } },
    };
    model.apply(at(failed));
    expect(model.rows.map((r) => r.outcome)).toEqual(["pending", "is-error", "error"]);
    expect(model.rows[2]?.status).toBe(400);
  });

  it("keeps at most MAX_ROWS rows, dropping the oldest", () => {
    const model = new TrafficModel();
    for (let i = 0; i < MAX_ROWS + 10; i++)
      model.apply(at({ ...base(p26), kind: "message", direction: "in", message: { jsonrpc: "2.0", method: `n${i}` } } as TrafficEvent));
    expect(model.rows).toHaveLength(MAX_ROWS);
    expect(model.rows[0]?.method).toBe("n10");
  });
});

describe("filters", () => {
  const model = new TrafficModel();
  for (const e of call(1, { name: "weather", arguments: { city: "Paris" } }, { content: [] })) model.apply(e);
  for (const e of call(2, { name: "book" }, { isError: true }, pInit)) model.apply(e);
  model.apply(
    at({
      ...base({ era: "initialize", sessionId: "s1" }),
      kind: "message",
      direction: "in",
      message: { jsonrpc: "2.0", method: "notifications/initialized" },
    } as TrafficEvent),
  );
  const shown = (filter: Partial<typeof NO_FILTER>) => applyFilter(model.rows, { ...NO_FILTER, ...filter }).map((r) => r.seq);
  const [a, b, c] = model.rows.map((r) => r.seq);

  it("by client, method, tool, outcome and text", () => {
    expect(shown({})).toEqual([a, b, c]);
    // The notification names no client: its session does.
    expect(shown({ client: "official" })).toEqual([b, c]);
    expect(shown({ method: "tools/call" })).toEqual([a, b]);
    expect(shown({ tool: "book" })).toEqual([b]);
    expect(shown({ outcome: "is-error" })).toEqual([b]);
    expect(shown({ outcome: "notification" })).toEqual([c]);
    expect(shown({ search: "PARIS" })).toEqual([a]);
    expect(shown({ search: "alice", tool: "book" })).toEqual([]);
  });

  it("offers the clients, methods and tools seen; exports the rows with their events", () => {
    expect(choices(model.rows)).toEqual({
      clients: ["official", "x-client"],
      methods: ["notifications/initialized", "tools/call"],
      tools: ["book", "weather"],
    });
    const out = exportRows(model.rows.slice(0, 1)) as { rows: { tool: string; events: unknown[] }[] };
    expect(out.rows[0]?.tool).toBe("weather");
    expect(out.rows[0]?.events).toHaveLength(2);
  });
});

describe("forms from JSON Schemas", () => {
  const schema = {
    type: "object",
    required: ["city", "days"],
    properties: {
      city: { type: "string", description: "where" },
      days: { type: "integer", default: 3, minimum: 1 },
      ratio: { type: "number" },
      unit: { type: "string", enum: ["c", "f"], default: "c" },
      alerts: { type: "boolean", default: false },
      email: { type: "string", format: "email" },
      site: { type: "string", format: "uri" },
      day: { type: "string", format: "date" },
      at: { type: "string", format: "date-time" },
      where: { type: "object", required: ["lat"], properties: { lat: { type: "number" }, name: { type: "string" } } },
      tags: { type: "array", items: { type: "string" } },
      either: { oneOf: [{ type: "string" }, { type: "number" }] },
      any: { anyOf: [{ type: "string" }, { type: "null" }] },
      level: {
        oneOf: [
          { const: "lo", title: "Low" },
          { const: "hi", title: "High" },
        ],
      },
    },
  };
  const fields = formFields(schema);
  const byPath = (path: string): Field | undefined => {
    const find = (list: Field[]): Field | undefined => {
      for (const f of list) {
        if (f.path === path) return f;
        const inner = f.kind === "object" ? find(f.fields) : f.kind === "array" ? find([f.item]) : undefined;
        if (inner) return inner;
      }
      return undefined;
    };
    return find(fields);
  };

  it("describes each property by kind, with required, defaults, enums, formats and a JSON fallback for unions", () => {
    expect(byPath("city")).toMatchObject({ kind: "string", input: "text", required: true, description: "where" });
    expect(byPath("days")).toMatchObject({ kind: "integer", required: true, default: 3, min: 1 });
    expect(byPath("ratio")).toMatchObject({ kind: "number", required: false });
    expect(byPath("unit")).toMatchObject({ kind: "enum", default: "c", options: [{ value: "c" }, { value: "f" }] });
    expect(byPath("alerts")).toMatchObject({ kind: "boolean", default: false });
    expect([byPath("email"), byPath("site"), byPath("day"), byPath("at")].map((f) => f?.kind === "string" && f.input)).toEqual([
      "email",
      "url",
      "date",
      "datetime-local",
    ]);
    expect(byPath("where")).toMatchObject({ kind: "object", required: false });
    expect(byPath("where.lat")).toMatchObject({ kind: "number", required: true });
    expect(byPath("tags")).toMatchObject({ kind: "array", item: { kind: "string", path: "tags.*" } });
    expect(byPath("either")?.kind).toBe("json");
    expect(byPath("any")?.kind).toBe("json");
    expect(byPath("level")).toMatchObject({
      kind: "enum",
      options: [
        { value: "lo", label: "Low" },
        { value: "hi", label: "High" },
      ],
    });
  });

  it("builds the arguments: numbers parsed, empty optional fields left out, array items added and removed", () => {
    const items = new Map<string, number[]>();
    const values: Record<string, string | boolean> = {
      city: "Paris",
      days: "5",
      ratio: "",
      unit: "f",
      alerts: true,
      where: "",
      "where.lat": "48.5",
      "where.name": "",
      either: "[1,2]",
    };
    const first = addItem(items, "tags");
    const second = addItem(items, "tags");
    const third = addItem(items, "tags");
    values[`tags.${first}`] = "a";
    values[`tags.${second}`] = "gone";
    values[`tags.${third}`] = "c";
    removeItem(items, "tags", second);
    const built = buildArguments(fields, (path) => values[path], items);
    expect(built.problems).toEqual([]);
    expect(built.value).toEqual({
      city: "Paris",
      days: 5,
      unit: "f",
      alerts: true,
      where: { lat: 48.5 },
      tags: ["a", "c"],
      either: [1, 2],
    });
    expect([first, second, third]).toEqual([0, 1, 2]);
    expect(addItem(items, "tags")).toBe(3);
  });

  it("reports missing required fields, bad numbers and bad JSON", () => {
    const values: Record<string, string> = { days: "2.5", ratio: "x", "where.name": "here", either: "{" };
    const built = buildArguments(fields, (path) => values[path], new Map());
    expect(built.problems).toEqual([
      "city: required",
      "days: not an integer",
      "ratio: not a number",
      "where.lat: required",
      "either: not valid JSON",
    ]);
  });

  it("turns a prompt's arguments and a URI template into forms, and expands the template", () => {
    expect(
      promptSchema([
        { name: "who", required: true },
        { name: "tone", description: "how" },
      ]),
    ).toEqual({
      type: "object",
      properties: { who: { type: "string" }, tone: { type: "string", description: "how" } },
      required: ["who"],
    });
    expect(templateVars("users://{id}/files{/path}{?q,lang}")).toEqual(["id", "path", "q", "lang"]);
    expect(expandTemplate("users://{id}/files{/path}{?q,lang}", { id: "a b", path: "x", q: "1" })).toBe("users://a%20b/files/x?q=1");
  });
});

describe("media blocks", () => {
  it("builds data: URLs only for image/* and audio/* with base64 data", () => {
    expect(dataUrl("image", "image/png", "AAAA")).toBe("data:image/png;base64,AAAA");
    expect(dataUrl("audio", "audio/wav", "AAAA")).toBe("data:audio/wav;base64,AAAA");
    expect(dataUrl("image", "text/html", "AAAA")).toBeUndefined();
    expect(dataUrl("image", "image/svg+xml;x=1", "AAAA")).toBeUndefined();
    expect(dataUrl("audio", "image/png", "AAAA")).toBeUndefined();
    expect(dataUrl("image", "image/png", 'AA"><script>')).toBeUndefined();
  });
});
