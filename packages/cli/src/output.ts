/**
 * Human-readable output: content blocks, resource contents and lists as
 * plain text (`--json` prints the results as they came instead).
 */
import type { ContentBlock } from "@x/client";

/**
 * What a terminal may act on rather than print: C0 controls but tab and
 * newline (ESC, BEL, CR, ...), DEL, C1 controls (U+009B is a CSI by itself)
 * and the bidirectional overrides and isolates that reorder what is shown.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` (a server's) made safe to print on a terminal: each control
 * character shown as a visible escape (`\x1b`, `\u202e`), so that a server
 * cannot move the cursor, clear the screen, set the window title or hide
 * text. Tab and newline are kept.
 */
export function plain(text: string): string {
  return text.replace(CONTROLS, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
  });
}

/**
 * JSON text (`JSON.stringify`'s, which escapes C0 controls only) with DEL,
 * the C1 controls, the line and paragraph separators and the bidi controls
 * escaped too (`\u009b`): the same value, printable on a terminal and
 * embeddable in TypeScript source.
 */
export function jsonEscaped(json: string): string {
  return json.replace(/[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** One content block as text ({@link plain}): text as it is, other blocks as a one-line summary. */
export function blockText(block: ContentBlock): string {
  return plain(blockSummary(block));
}

function blockSummary(block: ContentBlock): string {
  const b = block as ContentBlock & Record<string, unknown>;
  switch (b.type) {
    case "text":
      return String(b.text);
    case "image":
    case "audio":
      return `[${b.type} ${String(b.mimeType)}, ${Math.floor((String(b.data).length * 3) / 4)} bytes]`;
    case "resource_link":
      return `[link ${String(b.uri)}${b.name ? ` ${String(b.name)}` : ""}]`;
    case "resource": {
      const r = b.resource as { uri: string; text?: string; mimeType?: string };
      return r.text ?? `[resource ${r.uri}${r.mimeType ? ` ${r.mimeType}` : ""}]`;
    }
    default:
      return JSON.stringify(block);
  }
}

/** Rows of columns, padded to line up. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
