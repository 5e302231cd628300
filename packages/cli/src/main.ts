/**
 * `x-mcp`, the command line: the first argument names the command, each
 * command lives in `commands/<name>.ts` and is loaded only when run.
 */
import type { Command, Io } from "./io.js";

/** Exit codes of `x-mcp` (documented in the README, "Command line"). */
export const ExitCode = {
  /** The command did what it was asked. */
  Ok: 0,
  /** The server answered with an error, or a tool result with `isError`. */
  Refused: 1,
  /** Bad arguments or options: nothing was sent. */
  Usage: 2,
  /** The server could not be reached, or the connection failed. */
  Unreachable: 3,
  /** `types --check`: the file no longer matches the server's tools. */
  Outdated: 4,
} as const;

/** The commands by name, each loaded on first use. */
const COMMANDS: Readonly<Record<string, () => Promise<{ run: Command }>>> = {
  list: () => import("./commands/list.js"),
  call: () => import("./commands/call.js"),
  read: () => import("./commands/read.js"),
  prompt: () => import("./commands/prompt.js"),
  complete: () => import("./commands/complete.js"),
  types: () => import("./commands/types.js"),
  dev: () => import("./commands/dev.js"),
};

const USAGE = `usage: x-mcp <command> [options] <target> ...
commands: ${Object.keys(COMMANDS).join(", ")}
a target is a URL (Streamable HTTP, or HTTP+SSE) or "-- command args..." (stdio)
x-mcp <command> --help for its options`;

/**
 * Runs `x-mcp` with `argv` (the arguments after the program's name).
 * @returns the exit code ({@link ExitCode}); never rejects.
 */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h") {
    io.stdout.write(`${USAGE}\n`);
    return name === undefined ? ExitCode.Usage : ExitCode.Ok;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    io.stderr.write(`x-mcp: unknown command ${JSON.stringify(name)}\n${USAGE}\n`);
    return ExitCode.Usage;
  }
  try {
    return await (await load()).run(rest, io);
  } catch (error) {
    io.stderr.write(`x-mcp ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.Refused;
  }
}
