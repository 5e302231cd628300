// The traffic tab: filters, the row list, pause, export, clear.
import { h } from "../h.js";
import type { DevtoolsEvent } from "../types.js";
import { applyFilter, choices, exportRows, type Filter, NO_FILTER, OUTCOMES } from "./filter.js";
import { type Row, TrafficModel } from "./model.js";
import { drawRow } from "./row.js";

export function trafficView(): { el: HTMLElement; push(event: DevtoolsEvent): void } {
  const model = new TrafficModel();
  const filter: Filter = { ...NO_FILTER };
  const open = new Set<number>();
  const drawn = new Map<Row, { el: HTMLElement; version: number; open: boolean }>();
  let paused = false;
  let queued: DevtoolsEvent[] = [];
  let shown: Row[] = [];

  const select = (testid: string, label: string, key: keyof Filter) => {
    const el = h("select", {
      "data-testid": testid,
      "aria-label": label,
      onchange: () => {
        (filter as unknown as Record<string, string>)[key] = el.value;
        schedule();
      },
    });
    return el;
  };
  const fClient = select("filter-client", "Client", "client");
  const fMethod = select("filter-method", "Method", "method");
  const fTool = select("filter-tool", "Tool", "tool");
  const fOutcome = select("filter-outcome", "Outcome", "outcome");
  setOptions(fOutcome, "all outcomes", OUTCOMES);
  const search = h("input", {
    type: "search",
    "data-testid": "search",
    placeholder: "Search…",
    "aria-label": "Search",
    oninput: () => {
      filter.search = search.value;
      schedule();
    },
  });
  const pause = h(
    "button",
    {
      type: "button",
      "data-testid": "pause",
      "aria-pressed": "false",
      onclick: () => {
        paused = !paused;
        pause.setAttribute("aria-pressed", String(paused));
        if (!paused) {
          for (const event of queued) model.apply(event);
          queued = [];
        }
        schedule();
      },
    },
    "Pause",
  );
  const exportButton = h(
    "button",
    {
      type: "button",
      "data-testid": "export",
      onclick: () => {
        const blob = new Blob([JSON.stringify(exportRows(shown), null, 2)], { type: "application/json" });
        const url = URL.createObjectURL(blob);
        const a = h("a", { href: url, download: `mcp-traffic-${Date.now()}.json` });
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
      },
    },
    "Export JSON",
  );
  const clear = h(
    "button",
    {
      type: "button",
      "data-testid": "clear",
      onclick: () => {
        model.clear();
        queued = [];
        open.clear();
        schedule();
      },
    },
    "Clear",
  );
  const note = h("span", { class: "note", "aria-live": "polite" });
  const list = h("div", { class: "rows", role: "list", "aria-label": "Traffic" });
  const empty = h("p", { class: "empty" });

  const toggle = (target: EventTarget | null) => {
    const el = (target as HTMLElement | null)?.closest<HTMLElement>("[data-testid=traffic-row]");
    // Clicks inside the open details (selecting text, opening raw events) leave the row as it is.
    if (!el || (target as HTMLElement).closest(".details")) return;
    const id = Number(el.dataset.rowId);
    if (open.has(id)) open.delete(id);
    else open.add(id);
    schedule();
  };
  list.addEventListener("click", (event) => toggle(event.target));
  list.addEventListener("keydown", (event) => {
    const target = event.target as HTMLElement;
    if (!target.matches("[data-testid=traffic-row]")) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      toggle(target);
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const next = event.key === "ArrowDown" ? target.nextElementSibling : target.previousElementSibling;
      (next as HTMLElement | null)?.focus();
    }
  });

  let pending = false;
  function schedule(): void {
    if (pending) return;
    pending = true;
    requestAnimationFrame(render);
  }
  function render(): void {
    pending = false;
    const { clients, methods, tools } = choices(model.rows);
    setOptions(fClient, "all clients", clients);
    setOptions(fMethod, "all methods", methods);
    setOptions(fTool, "all tools", tools);
    // A choice gone with its rows (after Clear) stops filtering.
    filter.client = fClient.value;
    filter.method = fMethod.value;
    filter.tool = fTool.value;
    shown = applyFilter(model.rows, filter).reverse();
    const live = new Set(model.rows);
    for (const row of drawn.keys()) if (!live.has(row)) drawn.delete(row);
    let cursor = list.firstElementChild;
    for (const row of shown) {
      let entry = drawn.get(row);
      const isOpen = open.has(row.id);
      if (!entry) {
        const el = h("div", { "data-testid": "traffic-row", tabindex: 0, role: "listitem", "data-row-id": row.id });
        entry = { el, version: -1, open: false };
        drawn.set(row, entry);
      }
      if (entry.version !== row.version || entry.open !== isOpen) {
        drawRow(entry.el, row, isOpen);
        entry.version = row.version;
        entry.open = isOpen;
      }
      if (cursor === entry.el) cursor = cursor.nextElementSibling;
      else list.insertBefore(entry.el, cursor);
    }
    while (cursor) {
      const next = cursor.nextElementSibling;
      cursor.remove();
      cursor = next;
    }
    empty.hidden = shown.length > 0;
    empty.textContent =
      model.rows.length === 0
        ? "No traffic yet: call the server from any client, or from the Try it tab."
        : "No row matches the filters or the search.";
    const bits = [`${shown.length} of ${model.rows.length} rows`];
    if (paused) bits.push(`paused: ${queued.length} events queued`);
    if (model.dropped) bits.push(`${model.dropped} events dropped by the server's buffer`);
    note.textContent = bits.join(" · ");
  }
  schedule();

  const el = h(
    "section",
    { class: "traffic" },
    h("div", { class: "toolbar" }, fClient, fMethod, fTool, fOutcome, search, pause, exportButton, clear, note),
    empty,
    list,
  );
  return {
    el,
    push(event) {
      if (paused) {
        queued.push(event);
        if (queued.length > 20_000) queued.shift();
      } else model.apply(event);
      schedule();
    },
  };
}

function setOptions(el: HTMLSelectElement, all: string, values: readonly string[]): void {
  const want = ["", ...values];
  const have = [...el.options].map((o) => o.value);
  if (have.length === want.length && have.every((v, i) => v === want[i])) return;
  const current = el.value;
  el.replaceChildren(...want.map((v) => h("option", { value: v }, v === "" ? all : v)));
  el.value = want.includes(current) ? current : "";
}
