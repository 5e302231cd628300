// From a JSON Schema to a form description, and from form values back to the
// arguments object. Pure (no DOM): unit-tested.
import type { Json, JsonObject } from "../types.js";
import { isObject } from "../types.js";

interface Common {
  path: string;
  label: string;
  required: boolean;
  description?: string;
}
export type Field =
  | (Common & { kind: "string"; input: "text" | "email" | "url" | "date" | "datetime-local" | "time"; default?: string })
  | (Common & { kind: "number" | "integer"; default?: number; min?: number; max?: number })
  | (Common & { kind: "boolean"; default?: boolean })
  | (Common & { kind: "enum"; options: { value: Json; label: string }[]; default?: Json })
  | (Common & { kind: "object"; fields: Field[] })
  | (Common & { kind: "array"; item: Field; default?: Json[] })
  | (Common & { kind: "json"; default?: Json });

/** Nesting deeper than this is edited as JSON text. */
export const MAX_DEPTH = 6;

const FORMATS: Record<string, "email" | "url" | "date" | "datetime-local" | "time"> = {
  email: "email",
  uri: "url",
  url: "url",
  date: "date",
  "date-time": "datetime-local",
  time: "time",
};

const join = (path: string, key: string) => (path === "" ? key : `${path}.${key}`);

/** Describes the fields of an object schema (a tool's `inputSchema`, an elicitation's `requestedSchema`). */
export function formFields(schema: Json | undefined): Field[] {
  const root = describe(isObject(schema) ? schema : {}, "", "", true, 0);
  return root.kind === "object" ? root.fields : [root];
}

/** Describes one field at `path`. */
export function describe(schema: JsonObject, path: string, name: string, required: boolean, depth: number): Field {
  const common: Common = { path, label: typeof schema.title === "string" ? schema.title : name, required };
  if (typeof schema.description === "string") common.description = schema.description;
  const fallback = (): Field => ({ ...common, kind: "json", ...(schema.default !== undefined ? { default: schema.default } : {}) });
  if (depth > MAX_DEPTH) return fallback();
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    const options = schema.enum.map((value, i) => ({ value, label: typeof names[i] === "string" ? (names[i] as string) : String(value) }));
    return { ...common, kind: "enum", options, ...(schema.default !== undefined ? { default: schema.default } : {}) };
  }
  if (schema.const !== undefined)
    return { ...common, kind: "enum", options: [{ value: schema.const, label: String(schema.const) }], default: schema.const };
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(alternatives)) {
    // Titled single-choice enums (oneOf of consts) are a select; other unions are JSON text.
    if (alternatives.length > 0 && alternatives.every((a) => isObject(a) && a.const !== undefined)) {
      const options = (alternatives as JsonObject[]).map((a) => ({
        value: a.const as Json,
        label: typeof a.title === "string" ? a.title : String(a.const),
      }));
      return { ...common, kind: "enum", options, ...(schema.default !== undefined ? { default: schema.default } : {}) };
    }
    return fallback();
  }
  let type = schema.type;
  if (Array.isArray(type)) {
    const solid = type.filter((t) => t !== "null");
    if (solid.length !== 1) return fallback();
    type = solid[0];
  }
  if (type === undefined && isObject(schema.properties)) type = "object";
  switch (type) {
    case "string": {
      const input = (typeof schema.format === "string" && FORMATS[schema.format]) || "text";
      const value = typeof schema.default === "string" ? schema.default : undefined;
      return {
        ...common,
        kind: "string",
        input,
        ...(value !== undefined ? { default: input === "datetime-local" ? value.slice(0, 16) : value } : {}),
      };
    }
    case "number":
    case "integer": {
      const field: Field = { ...common, kind: type };
      if (typeof schema.default === "number") field.default = schema.default;
      if (typeof schema.minimum === "number") field.min = schema.minimum;
      if (typeof schema.maximum === "number") field.max = schema.maximum;
      return field;
    }
    case "boolean":
      return { ...common, kind: "boolean", ...(typeof schema.default === "boolean" ? { default: schema.default } : {}) };
    case "object": {
      const properties = isObject(schema.properties) ? schema.properties : {};
      const needed = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : []);
      if (Object.keys(properties).length === 0 && path !== "") return fallback();
      const fields = Object.entries(properties).map(([key, sub]) =>
        describe(isObject(sub) ? sub : {}, join(path, key), key, needed.has(key), depth + 1),
      );
      return { ...common, kind: "object", fields };
    }
    case "array": {
      if (!isObject(schema.items)) return fallback();
      const item = describe(schema.items, `${path}.*`, "item", true, depth + 1);
      return { ...common, kind: "array", item, ...(Array.isArray(schema.default) ? { default: schema.default } : {}) };
    }
    default:
      return fallback();
  }
}

/** The array items' ids, by array path: an item keeps its id (and so its fields' paths) when another is removed. */
export type ArrayItems = Map<string, number[]>;

export function addItem(items: ArrayItems, path: string): number {
  const list = items.get(path) ?? [];
  const id = list.length === 0 ? 0 : Math.max(...list) + 1;
  items.set(path, [...list, id]);
  return id;
}
export function removeItem(items: ArrayItems, path: string, id: number): void {
  items.set(
    path,
    (items.get(path) ?? []).filter((i) => i !== id),
  );
}

/** Where a field's value is read from: the text of an input/select/textarea, or a checkbox's state. */
export type Read = (path: string) => string | boolean | undefined;

export interface Built {
  value: JsonObject;
  problems: string[];
}

/** Builds the arguments object: numbers parsed, empty optional fields left out, required ones reported. */
export function buildArguments(fields: Field[], read: Read, items: ArrayItems): Built {
  const problems: string[] = [];
  const value: JsonObject = {};
  for (const field of fields) {
    const v = fieldValue(field, field.path, read, items, problems);
    if (v !== undefined) value[lastKey(field.path)] = v;
  }
  return { value, problems };
}

/** The last member of a dotted path (the property name). */
export const lastKey = (path: string) => path.slice(path.lastIndexOf(".") + 1);

function fieldValue(field: Field, path: string, read: Read, items: ArrayItems, problems: string[]): Json | undefined {
  const missing = () => {
    if (field.required) problems.push(`${path}: required`);
    return undefined;
  };
  switch (field.kind) {
    case "object": {
      const out: JsonObject = {};
      for (const sub of field.fields) {
        const v = fieldValue(sub, join(path, lastKey(sub.path)), read, items, problems);
        if (v !== undefined) out[lastKey(sub.path)] = v;
      }
      return Object.keys(out).length === 0 && !field.required ? undefined : out;
    }
    case "array": {
      const ids = items.get(path) ?? [];
      if (ids.length === 0) return field.required ? [] : undefined;
      return ids.map((id) => fieldValue(field.item, `${path}.${id}`, read, items, problems) ?? null);
    }
    case "boolean": {
      const raw = read(path);
      if (typeof raw === "boolean") return raw;
      if (raw === "true") return true;
      if (raw === "false") return false;
      return missing();
    }
    default: {
      const raw = read(path);
      if (typeof raw !== "string" || raw === "") return missing();
      if (field.kind === "string") return field.input === "datetime-local" ? toDateTime(raw) : raw;
      if (field.kind === "enum") {
        const option = field.options.find((o) => String(o.value) === raw);
        return option ? option.value : raw;
      }
      if (field.kind === "json") {
        try {
          return JSON.parse(raw) as Json;
        } catch {
          problems.push(`${path}: not valid JSON`);
          return undefined;
        }
      }
      const n = Number(raw);
      if (!Number.isFinite(n)) problems.push(`${path}: not a number`);
      else if (field.kind === "integer" && !Number.isInteger(n)) problems.push(`${path}: not an integer`);
      return Number.isFinite(n) ? n : undefined;
    }
  }
}

/** A datetime-local value (`2026-07-28T10:30`) as an RFC 3339 date-time in UTC. */
export function toDateTime(local: string): string {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
}

/** The text a field starts with (its default), for inputs and selects. */
export function initialText(field: Field): string {
  if (!("default" in field) || field.default === undefined) return "";
  if (field.kind === "json") return JSON.stringify(field.default, null, 2);
  return String(field.default);
}
