/**
 * What a command reads and writes: the process's streams and environment,
 * passed in so that tests run a command in-process on their own streams.
 */
import type { Readable, Writable } from "node:stream";

/** The streams and environment of one run of `x-mcp`. */
export interface Io {
  /** Standard input: the answers typed at an elicitation form. */
  readonly stdin: Readable & {
    isTTY?: boolean;
    /** Raw mode of a terminal (a TTY's `setRawMode`); absent off a terminal. */
    setRawMode?(mode: boolean): unknown;
  };
  /** Standard output: results (or JSON with `--json`). */
  readonly stdout: Writable & { isTTY?: boolean };
  /** Standard error: progress, prompts, warnings and errors. */
  readonly stderr: Writable & { isTTY?: boolean };
  /** The environment (`XDG_CONFIG_HOME`, `HOME`, ...). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The directory relative paths are read from. */
  readonly cwd: string;
}

/** One command of `x-mcp`: runs with the arguments after its name, resolves with the exit code. */
export type Command = (args: readonly string[], io: Io) => Promise<number>;
