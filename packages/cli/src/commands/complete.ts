/** `x-mcp complete <target> <ref> <argument> <value>`: completions for a prompt's or a resource template's argument. */
import { COMMON_HELP } from "../args.js";
import type { Command } from "../io.js";
import { ExitCode } from "../main.js";
import { plain } from "../output.js";
import { printJson, runCommand } from "../session.js";

const USAGE = `usage: x-mcp complete [options] <target> <ref> <argument> <value>
ref: a URI template (units://{unit}) for a resource template, else a prompt's name
(prompt:<name> when the name itself contains "://")
${COMMON_HELP}`;

/** The `ref` of `completion/complete` for the operand given. */
export function completionRef(ref: string): { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string } {
  if (ref.startsWith("prompt:")) return { type: "ref/prompt", name: ref.slice("prompt:".length) };
  return ref.includes("://") ? { type: "ref/resource", uri: ref } : { type: "ref/prompt", name: ref };
}

export const run: Command = (args, io) =>
  runCommand("complete", args, io, { usage: USAGE, operands: (n) => n === 3 }, async (session) => {
    const [ref, name, value] = session.operands as [string, string, string];
    const result = await session.client.complete({ ref: completionRef(ref), argument: { name, value } });
    if (session.options.json) printJson(io, result);
    else {
      const { values, total, hasMore } = result.completion;
      io.stdout.write(values.map((v) => `${plain(String(v))}\n`).join(""));
      if (hasMore) io.stderr.write(`(${values.length} of ${total ?? "more"})\n`);
    }
    return ExitCode.Ok;
  });
