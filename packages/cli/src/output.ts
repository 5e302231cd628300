/**
 * Human-readable output: content blocks, resource contents and lists as
 * plain text (`--json` prints the results as they came instead).
 */
import type { ContentBlock } from "@x/client";

/** One content block as text: text as it is, other blocks as a one-line summary. */
export function blockText(block: ContentBlock): string {
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
