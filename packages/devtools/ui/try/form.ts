// Draws a form from the described fields ([data-field] = dotted path) and reads it back.
import { h } from "../h.js";
import type { JsonObject } from "../types.js";
import {
  type ArrayItems,
  addItem,
  type Built,
  buildArguments,
  type Field,
  formFields,
  initialText,
  lastKey,
  removeItem,
} from "./schema.js";

let uid = 0;

export interface SchemaForm {
  el: HTMLFormElement;
  collect(): Built;
}

/** A form for an object schema; `onSubmit` gets the arguments once they are valid. */
export function schemaForm(schema: JsonObject | undefined, onSubmit?: (value: JsonObject) => void, testid = "call-form"): SchemaForm {
  const fields = formFields(schema);
  const items: ArrayItems = new Map();
  const body = h("div", { class: "fields" });
  const problems = h("ul", { class: "problems", "data-testid": "form-problems", "aria-live": "polite" });
  const form = h("form", { class: "schema-form", "data-testid": testid, novalidate: true }, body, problems);
  const read = (path: string): string | boolean | undefined => {
    const el = form.querySelector<HTMLInputElement>(`[data-field="${CSS.escape(path)}"]`);
    if (!el) return undefined;
    return el.type === "checkbox" ? el.checked : el.value;
  };
  const collect = (): Built => {
    const built = buildArguments(fields, read, items);
    problems.replaceChildren(...built.problems.map((p) => h("li", {}, p)));
    return built;
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const built = collect();
    if (built.problems.length === 0) onSubmit?.(built.value);
  });
  for (const field of fields) body.append(drawField(field, field.path, items));
  if (fields.length === 0) body.append(h("p", { class: "muted" }, "No arguments."));
  return { el: form, collect };
}

function labelFor(field: Field, id: string): HTMLElement {
  return h(
    "label",
    { for: id },
    field.label || lastKey(field.path),
    field.required ? h("span", { class: "req", "aria-hidden": "true" }, " *") : undefined,
    field.description ? h("small", { class: "muted" }, ` ${field.description}`) : undefined,
  );
}

function drawField(field: Field, path: string, items: ArrayItems): HTMLElement {
  const id = `f${++uid}`;
  const req = field.required ? { required: true, "aria-required": "true" } : {};
  switch (field.kind) {
    case "object":
      return h(
        "fieldset",
        { class: "object", "data-object": path },
        h("legend", {}, field.label || lastKey(path), field.required ? " *" : ""),
        ...field.fields.map((sub) => drawField(sub, `${path}.${lastKey(sub.path)}`, items)),
      );
    case "array": {
      const list = h("div", { class: "items" });
      const add = (text?: string) => {
        const itemId = addItem(items, path);
        const itemPath = `${path}.${itemId}`;
        const row = h("div", { class: "array-item" }, drawField(field.item, itemPath, items));
        row.append(
          h(
            "button",
            {
              type: "button",
              class: "small",
              "data-testid": "array-remove",
              "aria-label": `Remove item ${itemId}`,
              onclick: () => {
                removeItem(items, path, itemId);
                row.remove();
              },
            },
            "Remove",
          ),
        );
        list.append(row);
        const input = row.querySelector<HTMLInputElement>(`[data-field="${CSS.escape(itemPath)}"]`);
        if (input && text !== undefined) input.value = text;
        return input;
      };
      const button = h(
        "button",
        { type: "button", class: "small", "data-testid": "array-add", "data-array": path, onclick: () => add()?.focus() },
        "Add item",
      );
      for (const value of field.default ?? []) add(typeof value === "object" ? JSON.stringify(value) : String(value));
      return h(
        "fieldset",
        { class: "array", "data-array": path },
        h("legend", {}, field.label || lastKey(path), field.required ? " *" : ""),
        list,
        button,
      );
    }
    case "boolean": {
      if (field.required || field.default !== undefined) {
        const box = h("input", { type: "checkbox", id, "data-field": path, ...req });
        box.checked = field.default === true;
        return h("div", { class: "field check" }, box, labelFor(field, id));
      }
      const select = h(
        "select",
        { id, "data-field": path },
        h("option", { value: "" }, "(unset)"),
        h("option", { value: "true" }, "true"),
        h("option", { value: "false" }, "false"),
      );
      return h("div", { class: "field" }, labelFor(field, id), select);
    }
    case "enum": {
      const select = h(
        "select",
        { id, "data-field": path, ...req },
        field.required && field.default !== undefined ? undefined : h("option", { value: "" }, field.required ? "(choose)" : "(unset)"),
        ...field.options.map((o) => h("option", { value: String(o.value) }, o.label)),
      );
      select.value = initialText(field);
      return h("div", { class: "field" }, labelFor(field, id), select);
    }
    case "json": {
      const area = h("textarea", { id, "data-field": path, rows: 3, placeholder: "JSON", spellcheck: "false", ...req });
      area.value = initialText(field);
      return h("div", { class: "field" }, labelFor(field, id), area);
    }
    default: {
      const type = field.kind === "string" ? field.input : "number";
      const step = field.kind === "integer" ? "1" : field.kind === "number" ? "any" : undefined;
      const extra = field.kind === "number" || field.kind === "integer" ? { min: field.min, max: field.max } : {};
      const input = h("input", { id, type, "data-field": path, step, ...extra, ...req });
      input.value = initialText(field);
      return h("div", { class: "field" }, labelFor(field, id), input);
    }
  }
}
