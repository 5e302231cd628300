/**
 * Elicitation answered at the terminal: the question and a form built from
 * the requested schema on stderr, the answers read from stdin line by line
 * (spec 2026-07-28, client/elicitation). Enums are choices, booleans y/n,
 * defaults shown and taken on an empty line, required fields marked `*`.
 */
import type { ElicitRequestParams, ElicitResult } from "@x/client";
import type { Io } from "./io.js";
import type { LineReader } from "./lines.js";
import { plain } from "./output.js";

/** Tries per field before the form is cancelled: a bounded loop, whatever stdin holds. */
export const MAX_TRIES = 5;

type Field = {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  enumNames?: string[];
  oneOf?: { const?: unknown; title?: string }[];
  items?: { enum?: unknown[]; anyOf?: { const?: unknown; title?: string }[] };
  minimum?: number;
  maximum?: number;
  format?: string;
};

/** The choices of an enum field (single or multi-select), as values and labels. */
function choicesOf(field: Field): { value: unknown; label: string }[] | undefined {
  if (field.enum) return field.enum.map((value, i) => ({ value, label: field.enumNames?.[i] ?? String(value) }));
  if (field.oneOf) return field.oneOf.map((o) => ({ value: o.const, label: o.title ?? String(o.const) }));
  if (field.items?.enum) return field.items.enum.map((value) => ({ value, label: String(value) }));
  if (field.items?.anyOf) return field.items.anyOf.map((o) => ({ value: o.const, label: o.title ?? String(o.const) }));
  return undefined;
}

/**
 * Parses one typed answer for `field`.
 * @returns the value, or a message saying what is expected.
 */
export function parseAnswer(field: Field, text: string): { value: unknown } | { problem: string } {
  const choices = choicesOf(field);
  const pick = (word: string) => {
    const n = Number(word);
    if (Number.isInteger(n) && n >= 1 && choices && n <= choices.length) return choices[n - 1];
    return choices?.find((c) => String(c.value) === word || c.label === word);
  };
  if (field.type === "array") {
    const picked = text
      .split(",")
      .map((w) => w.trim())
      .filter(Boolean)
      .map(pick);
    if (picked.some((p) => p === undefined)) return { problem: "pick numbers or values from the list, separated by commas" };
    return { value: picked.map((p) => p!.value) };
  }
  if (choices) {
    const chosen = pick(text);
    return chosen ? { value: chosen.value } : { problem: "pick a number or a value from the list" };
  }
  if (field.type === "boolean") {
    if (/^(y|yes|true)$/i.test(text)) return { value: true };
    if (/^(n|no|false)$/i.test(text)) return { value: false };
    return { problem: "answer y or n" };
  }
  if (field.type === "number" || field.type === "integer") {
    const n = Number(text);
    if (text === "" || !Number.isFinite(n)) return { problem: "a number is expected" };
    if (field.type === "integer" && !Number.isInteger(n)) return { problem: "a whole number is expected" };
    if (field.minimum !== undefined && n < field.minimum) return { problem: `at least ${field.minimum}` };
    if (field.maximum !== undefined && n > field.maximum) return { problem: `at most ${field.maximum}` };
    return { value: n };
  }
  return { value: text };
}

/** The prompt line of a field: its name, title, choices, default and whether it is required. */
function label(name: string, field: Field, required: boolean): string {
  const title = field.title ?? field.description;
  const choices = choicesOf(field);
  const lines = [`${name}${required ? " *" : ""}${title ? ` (${title})` : ""}`];
  if (choices) lines.push(...choices.map((c, i) => `  ${i + 1}) ${c.label}`));
  let hint = field.type === "boolean" ? " [y/n]" : field.type === "array" ? " [numbers, comma-separated]" : "";
  if (field.default !== undefined) hint += ` (default ${Array.isArray(field.default) ? field.default.join(",") : String(field.default)})`;
  return `${lines.join("\n")}\n${hint ? `${hint.trim()} ` : ""}> `;
}

/**
 * An elicitation handler for the client: asks on `io.stderr`, reads `lines`.
 * The first question is whether to answer at all: `y` (the default) fills
 * the form, `n` declines, `c` (or the end of stdin) cancels.
 */
export function terminalElicitation(io: Io, lines: LineReader, beforeAsking: () => void) {
  return async (params: ElicitRequestParams): Promise<ElicitResult> => {
    beforeAsking();
    // Everything said here quotes the server (message, URL, titles, choices).
    const say = (text: string) => io.stderr.write(plain(text));
    const request = params as ElicitRequestParams & {
      mode?: string;
      url?: string;
      requestedSchema?: { properties?: Record<string, Field>; required?: string[] };
    };
    say(`\nThe server asks: ${request.message}\n`);
    if (request.mode === "url") say(`Open this URL to continue: ${request.url}\n`);
    let first: string | undefined;
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      say(request.mode === "url" ? "Done? [Y]es / [n]o (decline) / [c]ancel > " : "Answer? [Y]es / [n]o (decline) / [c]ancel > ");
      const line = await lines.next();
      first = line === undefined ? "c" : line.trim().toLowerCase();
      if (["", "y", "yes", "n", "no", "c", "cancel"].includes(first)) break;
      first = undefined;
    }
    if (first === undefined || first.startsWith("c")) return { action: "cancel" };
    if (first.startsWith("n")) return { action: "decline" };
    if (request.mode === "url") return { action: "accept" };
    const schema = request.requestedSchema ?? {};
    const required = new Set(schema.required ?? []);
    const content: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(schema.properties ?? {})) {
      let answered = false;
      for (let attempt = 0; attempt < MAX_TRIES && !answered; attempt++) {
        say(label(name, field, required.has(name)));
        const line = await lines.next();
        if (line === undefined) return { action: "cancel" };
        const text = line.trim();
        if (text === "") {
          if (field.default !== undefined) content[name] = field.default;
          if (field.default !== undefined || !required.has(name)) answered = true;
          else say("required\n");
          continue;
        }
        const parsed = parseAnswer(field, text);
        if ("value" in parsed) {
          content[name] = parsed.value;
          answered = true;
        } else say(`${parsed.problem}\n`);
      }
      if (!answered) {
        say(`no valid answer for ${name} after ${MAX_TRIES} tries: cancelled\n`);
        return { action: "cancel" };
      }
    }
    return { action: "accept", content: content as ElicitResult["content"] };
  };
}
