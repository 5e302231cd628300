/**
 * The run of one command against a server: parse the shared options,
 * connect, run the command's body, print, close, and map what failed to
 * an exit code (see `ExitCode`).
 */
import { type Client, ClientErrorCode, errorCode, isMcpClientError, type ProgressNotificationParams } from "@x/client";
import { type CommonOptions, parseArgs, UsageError, wantsHelp } from "./args.js";
import { oauthFor } from "./auth.js";
import { terminalElicitation } from "./elicit.js";
import type { Io } from "./io.js";
import { LineReader } from "./lines.js";
import { ExitCode } from "./main.js";
import { jsonEscaped, plain } from "./output.js";
import { progressOn } from "./progress.js";
import { connectTo } from "./target.js";

/** What a command's body gets: the connected client, its operands and options, and the request hooks. */
export interface Session {
  readonly client: Client;
  readonly operands: readonly string[];
  readonly options: CommonOptions;
  readonly io: Io;
  /** Pass to a request's `onProgress`: the bar on stderr. */
  readonly onProgress: (params: ProgressNotificationParams) => void;
  /** Ends the progress bar's line before printing. */
  readonly endProgress: () => void;
}

/** A command's body: resolves with its exit code. */
export type Body = (session: Session) => Promise<number>;

/** A command's usage and how many operands it takes, checked before anything is sent. */
export interface Spec {
  readonly usage: string;
  readonly operands: (count: number) => boolean;
  /** Checks the operands further (before connecting). @throws UsageError */
  readonly check?: (operands: readonly string[]) => void;
}

/** Writes `error` as one line on stderr. */
function report(io: Io, name: string, error: unknown): void {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`x-mcp ${name}: ${plain(message)}${code === undefined ? "" : ` (${code})`}\n`);
}

/** Whether `error` means the server could not be reached (or the connection broke). */
function unreachable(error: unknown): boolean {
  return isMcpClientError(error, ClientErrorCode.TransportFailed) || isMcpClientError(error, ClientErrorCode.RequestTimeout);
}

/** Runs `body` for command `name` with `args`; never rejects. */
export async function runCommand(name: string, args: readonly string[], io: Io, spec: Spec, body: Body): Promise<number> {
  if (wantsHelp(args)) {
    io.stdout.write(`${spec.usage}\n`);
    return ExitCode.Ok;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs(args);
    if (!spec.operands(parsed.operands.length)) throw new UsageError(`wrong number of arguments`);
    spec.check?.(parsed.operands);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`x-mcp ${name}: ${error.message}\n${spec.usage.split("\n")[0]} (--help for more)\n`);
    return ExitCode.Usage;
  }
  const { options, target, operands } = parsed;
  const lines = new LineReader(io);
  const progress = progressOn(io, options.quiet);
  const oauth = target.kind === "url" && options.auth ? await oauthFor(io) : undefined;
  let client: Client | undefined;
  try {
    try {
      client = await connectTo(target, {
        protocol: options.protocol,
        headers: options.headers,
        ...(oauth ? { auth: oauth.auth } : {}),
        elicitation: terminalElicitation(io, lines, () => progress.done()),
        stderr: (text) => io.stderr.write(text),
      });
    } catch (error) {
      report(io, name, error);
      return ExitCode.Unreachable;
    }
    const session: Session = {
      client,
      operands,
      options,
      io,
      onProgress: (params) => progress.update(params),
      endProgress: () => progress.done(),
    };
    try {
      return await body(session);
    } catch (error) {
      progress.done();
      if (error instanceof UsageError) {
        io.stderr.write(`x-mcp ${name}: ${plain(error.message)}\n`);
        return ExitCode.Usage;
      }
      report(io, name, error);
      return unreachable(error) ? ExitCode.Unreachable : ExitCode.Refused;
    }
  } finally {
    progress.done();
    lines.close();
    await client?.close().catch(() => {});
    await oauth?.close();
  }
}

/** Writes `value` as JSON on stdout (`--json`), control characters escaped ({@link jsonEscaped}). */
export function printJson(io: Io, value: unknown): void {
  io.stdout.write(`${jsonEscaped(JSON.stringify(value, null, 2))}\n`);
}
