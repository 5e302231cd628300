// Draws one traffic row: its summary, its rounds, and (when open) its details.
import { h, pretty } from "../h.js";
import type { DecodedState } from "../types.js";
import type { Round, Row } from "./model.js";

const clock = (time: number): string => {
  const date = new Date(time);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
};
const ms = (value: number | undefined): string | undefined =>
  value === undefined ? undefined : `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

/** Sets the row's data attributes (the DOM contract) and redraws its content. */
export function drawRow(el: HTMLElement, row: Row, open: boolean): void {
  const attrs: Record<string, string | undefined> = {
    "data-seq": String(row.seq),
    "data-method": row.method,
    "data-era": row.era,
    "data-protocol-version": row.protocolVersion,
    "data-transport": row.transport,
    "data-outcome": row.outcome,
    "data-tool": row.tool,
    "data-client": row.client,
    "data-subject": row.subject,
    "data-client-id": row.clientId,
    "data-rounds": row.kind === "request" ? String(row.rounds.length) : undefined,
    "aria-expanded": String(open),
  };
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined) el.removeAttribute(key);
    else el.setAttribute(key, value);
  }
  el.className = `row outcome-${row.outcome}${open ? " open" : ""}`;
  const arrow = row.direction === "out" ? "↓" : "↑";
  const summary = h(
    "div",
    { class: "summary" },
    h("span", { class: "time" }, clock(row.time)),
    h("span", { class: "via", title: row.direction === "out" ? "server to client" : "client to server" }, `${arrow} ${row.transport}`),
    h(
      "span",
      { class: "era" },
      row.era ?? "–",
      row.protocolVersion && row.protocolVersion !== row.era ? h("small", {}, ` ${row.protocolVersion}`) : undefined,
    ),
    h("span", { class: "method" }, row.method, row.tool ? h("b", { class: "tool" }, ` ${row.tool}`) : undefined),
    h("span", { class: "client" }, row.client ?? ""),
    h("span", { class: "principal" }, [row.subject, row.clientId].filter(Boolean).join(" · ")),
    h("span", { class: "duration" }, ms(row.durationMs) ?? ""),
    h("span", { class: "status" }, row.status === undefined ? "" : `HTTP ${row.status}`),
    h("span", { class: `badge ${row.outcome}` }, row.outcome),
  );
  const parts: Node[] = [summary];
  if (row.rounds.length > 1) parts.push(h("ol", { class: "rounds" }, ...row.rounds.map((round, i) => drawRound(round, i + 1, open))));
  if (row.tasks.length > 0)
    parts.push(
      h(
        "ol",
        { class: "tasks" },
        ...row.tasks.map((t) =>
          h(
            "li",
            { "data-testid": "task-status", "data-status": t.status },
            clock(t.time),
            " ",
            h("b", {}, t.status),
            t.statusMessage ? ` — ${t.statusMessage}` : "",
          ),
        ),
      ),
    );
  if (row.notifications.length > 0)
    parts.push(
      h(
        "ul",
        { class: "notes" },
        ...row.notifications.map((n) =>
          h(
            "li",
            { "data-testid": "notification" },
            `${n.direction === "out" ? "↓" : "↑"} ${String(n.message.method ?? "")}`,
            " ",
            short(n.message.params),
          ),
        ),
      ),
    );
  if (open) parts.push(drawDetails(row));
  el.replaceChildren(...parts);
}

const short = (value: unknown): string => {
  if (value === undefined) return "";
  const text = JSON.stringify(value) ?? "";
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
};

/** A value in a round: one short line while the row is closed, all of it once open. */
const value = (v: unknown, open: boolean): Node => (open ? h("pre", {}, pretty(v)) : h("code", { class: "short" }, short(v)));

function drawState(label: string, state: DecodedState | undefined, open: boolean): Node | undefined {
  if (!state) return undefined;
  const flags = [state.verified ? "verified" : "NOT verified", state.expired ? "expired" : undefined, state.method]
    .filter(Boolean)
    .join(", ");
  const until = state.expiresAt === undefined ? "" : `, expires ${new Date(state.expiresAt).toISOString()}`;
  return h(
    "div",
    { class: "state", "data-testid": "request-state" },
    h("b", {}, `${label}: `),
    `${flags}${until} `,
    state.answers ? value(state.answers, open) : undefined,
  );
}

function drawRound(round: Round, n: number, open: boolean): HTMLElement {
  const title = round.kind === "server-request" ? `server → client ${round.method}` : round.method;
  return h(
    "li",
    { "data-testid": "round", "data-round": n, "data-outcome": round.outcome, class: "round" },
    h(
      "div",
      { class: "round-head" },
      h("b", {}, `Round ${n}`),
      ` ${title} `,
      h("span", { class: `badge ${round.outcome}` }, round.outcome),
      ms(round.durationMs) ? ` ${ms(round.durationMs)}` : "",
    ),
    round.answers !== undefined ? h("div", { class: "answers" }, h("b", {}, "answers: "), value(round.answers, open)) : undefined,
    round.asks !== undefined ? h("div", { class: "asks" }, h("b", {}, "asks: "), value(round.asks, open)) : undefined,
    drawState("requestState (sent)", round.state, open),
    drawState("requestState (issued)", round.issuedState, open),
  );
}

function drawDetails(row: Row): HTMLElement {
  const last = row.rounds.filter((r) => r.kind === "request").at(-1);
  return h(
    "div",
    { class: "details", "data-testid": "row-details" },
    h(
      "dl",
      {},
      ...(
        [
          ["seq", row.seq],
          ["session", row.sessionId],
          ["client", row.client],
          ["subject", row.subject],
          ["client id", row.clientId],
        ] as const
      ).flatMap(([k, v]) => (v === undefined ? [] : [h("dt", {}, k), h("dd", {}, String(v))])),
    ),
    last?.params !== undefined ? h("section", {}, h("h4", {}, "params"), h("pre", {}, pretty(last.params))) : undefined,
    last?.response !== undefined ? h("section", {}, h("h4", {}, "response"), h("pre", {}, pretty(last.response))) : undefined,
    h("details", {}, h("summary", {}, `raw events (${row.events.length})`), h("pre", {}, pretty(row.events))),
  );
}
