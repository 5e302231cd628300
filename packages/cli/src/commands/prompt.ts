/** `x-mcp prompt <target> <name> [key=value ...]`: gets a prompt and prints its messages. */
import { COMMON_HELP, keyValues, setOwn } from "../args.js";
import type { Command } from "../io.js";
import { ExitCode } from "../main.js";
import { blockText } from "../output.js";
import { printJson, runCommand } from "../session.js";

const USAGE = `usage: x-mcp prompt [options] <target> <name> [key=value ...]
prompt arguments are strings
${COMMON_HELP}`;

/** The prompt's arguments from `key=value` operands. @throws UsageError for a bad pair ({@link keyValues}). */
export function promptArguments(pairs: readonly string[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (const [key, text] of keyValues(pairs)) setOwn(args, key, text);
  return args;
}

export const run: Command = (args, io) =>
  runCommand(
    "prompt",
    args,
    io,
    { usage: USAGE, operands: (n) => n >= 1, check: ([, ...rest]) => void promptArguments(rest) },
    async (session) => {
      const [name, ...rest] = session.operands as [string, ...string[]];
      const result = await session.client.getPrompt(name, promptArguments(rest), { onProgress: session.onProgress });
      session.endProgress();
      if (session.options.json) printJson(io, result);
      else
        io.stdout.write(
          `${result.messages.map((m) => `${m.role}: ${blockText(m.content as Parameters<typeof blockText>[0])}`).join("\n\n")}\n`,
        );
      return ExitCode.Ok;
    },
  );
