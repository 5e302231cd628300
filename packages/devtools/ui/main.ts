// The devtools page: boots from api/info, then two tabs (Traffic, Try it) and the elicitation dialog.
import { events, getInfo } from "./api.js";
import { asks } from "./ask.js";
import { h } from "./h.js";
import { trafficView } from "./traffic/view.js";
import { tryPanel } from "./try/panel.js";

async function boot(): Promise<void> {
  const root = h("div", { class: "app" });
  document.body.replaceChildren(root);
  let info: Awaited<ReturnType<typeof getInfo>>;
  try {
    info = await getInfo();
  } catch (error) {
    root.append(h("p", { class: "fatal" }, `Cannot reach the devtools backend: ${String(error)}`));
    return;
  }
  document.title = `${info.server.title ?? info.server.name} · MCP devtools`;
  const traffic = trafficView();
  const dialog = asks();
  const connection = h("span", { class: "conn", "data-testid": "connection" }, "connecting…");
  events(
    (event) => {
      if (event.type === "ask") dialog.ask(event.ask);
      else if (event.type === "ask-done") dialog.done(event.id);
      else traffic.push(event);
    },
    (connected) => {
      connection.textContent = connected ? "live" : "reconnecting…";
      connection.className = `conn ${connected ? "live" : "down"}`;
    },
  );

  let tryEl: HTMLElement | undefined;
  const panels = {
    traffic: h("div", { role: "tabpanel", id: "panel-traffic", "aria-labelledby": "tab-traffic" }, traffic.el),
    try: h("div", { role: "tabpanel", id: "panel-try", "aria-labelledby": "tab-try", hidden: true }),
  };
  const tab = (name: keyof typeof panels, text: string) =>
    h(
      "button",
      {
        type: "button",
        role: "tab",
        id: `tab-${name}`,
        "data-testid": `tab-${name}`,
        "aria-controls": `panel-${name}`,
        onclick: () => select(name),
      },
      text,
    );
  const tabs = { traffic: tab("traffic", "Traffic"), try: tab("try", "Try it") };
  function select(name: keyof typeof panels, focus = false): void {
    for (const key of Object.keys(panels) as (keyof typeof panels)[]) {
      const on = key === name;
      tabs[key].setAttribute("aria-selected", String(on));
      tabs[key].tabIndex = on ? 0 : -1;
      panels[key].hidden = !on;
    }
    if (name === "try" && !tryEl) {
      tryEl = tryPanel(info);
      panels.try.append(tryEl);
    }
    if (focus) tabs[name].focus();
  }
  const tablist = h("div", { role: "tablist", "aria-label": "Views" }, tabs.traffic, tabs.try);
  tablist.addEventListener("keydown", (event) => {
    const order: (keyof typeof panels)[] = ["traffic", "try"];
    const at = order.findIndex((k) => tabs[k] === document.activeElement);
    if (at < 0) return;
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (event.key === "Home" || event.key === "End")
      select(order[event.key === "Home" ? 0 : order.length - 1] as keyof typeof panels, true);
    else if (step) select(order[(at + step + order.length) % order.length] as keyof typeof panels, true);
    else return;
    event.preventDefault();
  });
  select("traffic");

  root.append(
    h(
      "header",
      {},
      h("h1", {}, "MCP devtools ", h("span", { class: "server" }, `${info.server.title ?? info.server.name} ${info.server.version}`)),
      tablist,
      connection,
    ),
    h("main", {}, panels.traffic, panels.try),
    dialog.el,
  );
}

// The script may load before the body is parsed.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => void boot());
else void boot();
