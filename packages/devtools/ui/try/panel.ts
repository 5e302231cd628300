// The Try it tab: the era, the catalog lists, a form for the chosen item, its result.
import { type Catalog, type CallRequest, call, getCatalog } from "../api.js";
import { h } from "../h.js";
import type { Info, JsonObject } from "../types.js";
import { isObject } from "../types.js";
import { schemaForm } from "./form.js";
import { drawResult } from "./result.js";
import { expandTemplate, promptSchema, templateSchema } from "./template.js";

type Kind = "tool" | "prompt" | "resource" | "template";

export function tryPanel(info: Info): HTMLElement {
  let era = info.eras[0] ?? "2026-07-28";
  const eraSelect = h(
    "select",
    {
      "data-testid": "era-select",
      "aria-label": "Protocol version of the in-process client",
      onchange: () => {
        era = eraSelect.value;
        void load();
      },
    },
    ...info.eras.map((e) => h("option", { value: e }, e)),
  );
  const lists = h("nav", { class: "catalog", "aria-label": "Catalog" });
  const work = h("div", { class: "work" }, h("p", { class: "muted" }, "Choose a tool, a prompt or a resource."));
  const status = h("span", { class: "note", "aria-live": "polite" });

  async function load(): Promise<void> {
    status.textContent = "loading…";
    let catalog: Catalog;
    try {
      catalog = await getCatalog(era);
    } catch (error) {
      status.textContent = `catalog failed: ${String(error)}`;
      return;
    }
    status.textContent = "";
    const section = (title: string, kind: Kind, testid: string, entries: JsonObject[], key: (e: JsonObject) => string, attr: string) =>
      h(
        "section",
        {},
        h("h3", {}, `${title} (${entries.length})`),
        h(
          "ul",
          {},
          ...entries.map((entry) =>
            h(
              "li",
              {},
              h(
                "button",
                {
                  type: "button",
                  class: "item",
                  "data-testid": testid,
                  [attr]: key(entry),
                  title: String(entry.description ?? ""),
                  onclick: (event: Event) => {
                    for (const b of lists.querySelectorAll(".item.selected")) b.classList.remove("selected");
                    (event.currentTarget as HTMLElement).classList.add("selected");
                    choose(kind, entry);
                  },
                },
                String(entry.title ?? entry.name ?? key(entry)),
                kind === "tool" || kind === "prompt" ? undefined : h("small", { class: "muted" }, ` ${key(entry)}`),
              ),
            ),
          ),
        ),
      );
    const name = (e: JsonObject) => String(e.name ?? "");
    lists.replaceChildren(
      section("Tools", "tool", "tool-item", catalog.tools, name, "data-name"),
      section("Prompts", "prompt", "prompt-item", catalog.prompts, name, "data-name"),
      section("Resources", "resource", "resource-item", catalog.resources, (e) => String(e.uri ?? ""), "data-uri"),
      section("Templates", "template", "template-item", catalog.resourceTemplates, (e) => String(e.uriTemplate ?? ""), "data-uri-template"),
    );
  }

  function choose(kind: Kind, entry: JsonObject): void {
    const output = h("div", { class: "output", "aria-live": "polite" });
    const run = async (request: CallRequest) => {
      submit.disabled = true;
      output.replaceChildren(h("p", { class: "muted", "data-testid": "calling" }, "calling…"));
      try {
        output.replaceChildren(drawResult(await call(request)));
      } catch (error) {
        output.replaceChildren(drawResult({ ok: false, error: { code: 0, message: String(error) } }));
      } finally {
        submit.disabled = false;
      }
    };
    const template = String(entry.uriTemplate ?? "");
    const schema =
      kind === "tool"
        ? isObject(entry.inputSchema)
          ? entry.inputSchema
          : undefined
        : kind === "prompt"
          ? promptSchema(entry.arguments)
          : kind === "template"
            ? templateSchema(template)
            : undefined;
    const form = schemaForm(schema, (value) => {
      const name = String(entry.name ?? "");
      if (kind === "tool" || kind === "prompt") void run({ era, kind, name, arguments: value });
      else void run({ era, kind: "resource", uri: kind === "template" ? expandTemplate(template, value) : String(entry.uri ?? "") });
    });
    const submit = h(
      "button",
      { type: "submit", class: "primary", "data-testid": "call-submit" },
      kind === "tool" ? "Call tool" : kind === "prompt" ? "Get prompt" : "Read resource",
    );
    form.el.append(submit);
    const title = String(entry.title ?? entry.name ?? entry.uri ?? template);
    work.replaceChildren(
      h("h2", {}, title, h("small", { class: "muted" }, ` ${kind}`)),
      entry.description ? h("p", { class: "description" }, String(entry.description)) : "",
      form.el,
      output,
    );
    (form.el.querySelector<HTMLElement>("[data-field]") ?? submit).focus();
  }

  void load();
  return h(
    "section",
    { class: "try" },
    h("div", { class: "toolbar" }, h("label", {}, "Era ", eraSelect), status),
    h("div", { class: "split" }, lists, work),
  );
}
