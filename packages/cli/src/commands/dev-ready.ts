/**
 * The line the runner of `x-mcp dev` writes on its stdout once the server
 * file is served: one place for its format, read by `commands/dev.ts`.
 */

/** What the runner announces: the MCP endpoint and its own process id. */
export interface Ready {
  readonly url: string;
  readonly pid: number;
  /** The devtools page's URL, with its token, under `--devtools`. */
  readonly devtools?: string | undefined;
}

const PREFIX = "x-mcp-dev-ready ";

/** The announcement line for `ready`, without its newline. */
export function readyLine(ready: Ready): string {
  return `${PREFIX}${JSON.stringify(ready)}`;
}

/** The announcement in `line`, or `undefined` for any other output of the server file. */
export function parseReady(line: string): Ready | undefined {
  if (!line.startsWith(PREFIX)) return undefined;
  try {
    const value: unknown = JSON.parse(line.slice(PREFIX.length));
    if (typeof value !== "object" || value === null) return undefined;
    const { url, pid, devtools } = value as Record<string, unknown>;
    if (typeof url !== "string" || typeof pid !== "number") return undefined;
    return typeof devtools === "string" ? { url, pid, devtools } : { url, pid };
  } catch {
    return undefined;
  }
}
