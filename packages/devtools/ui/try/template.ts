// URI templates (RFC 6570, the simple and reserved expansions resource templates use) and prompt arguments as a schema. Pure.
import type { Json, JsonObject } from "../types.js";
import { isObject } from "../types.js";

const EXPRESSION = /\{([+#./;?&]?)([^}]+)\}/g;

/** The variable names of a URI template, in order, once each. */
export function templateVars(template: string): string[] {
  const names = new Set<string>();
  for (const [, , list] of template.matchAll(EXPRESSION))
    for (const v of (list ?? "").split(",")) names.add(v.replace(/[*]$|:\d+$/, "").trim());
  return [...names].filter(Boolean);
}

/** Expands a URI template with string values (a missing value expands to nothing). */
export function expandTemplate(template: string, values: Record<string, Json | undefined>): string {
  return template.replace(EXPRESSION, (_, op: string, list: string) => {
    const names = list.split(",").map((v) => v.replace(/[*]$|:\d+$/, "").trim());
    const present = names.filter((n) => values[n] !== undefined && values[n] !== "");
    const encode = (s: string) => (op === "+" || op === "#" ? encodeURI(s) : encodeURIComponent(s));
    const parts = present.map((n) =>
      op === "?" || op === "&" || op === ";" ? `${n}=${encode(String(values[n]))}` : encode(String(values[n])),
    );
    if (parts.length === 0) return "";
    const first = op === "+" ? "" : op;
    const sep = op === "" || op === "+" || op === "#" ? "," : op === "?" ? "&" : op;
    return first + parts.join(sep);
  });
}

/** A prompt's `arguments` list as an object schema of strings. */
export function promptSchema(args: Json | undefined): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const arg of Array.isArray(args) ? args : []) {
    if (!isObject(arg) || typeof arg.name !== "string") continue;
    properties[arg.name] = { type: "string", ...(typeof arg.description === "string" ? { description: arg.description } : {}) };
    if (arg.required === true) required.push(arg.name);
  }
  return { type: "object", properties, required };
}

/** A URI template's variables as an object schema of required strings. */
export const templateSchema = (template: string): JsonObject => {
  const vars = templateVars(template);
  return { type: "object", properties: Object.fromEntries(vars.map((v) => [v, { type: "string" }])), required: vars };
};
