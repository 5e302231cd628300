/** `x-mcp read <target> <uri>`: reads a resource and prints its contents. */
import { COMMON_HELP } from "../args.js";
import type { Command } from "../io.js";
import { ExitCode } from "../main.js";
import { plain } from "../output.js";
import { printJson, runCommand } from "../session.js";

const USAGE = `usage: x-mcp read [options] <target> <uri>
text contents are printed as they are, binary (blob) contents as their bytes;
on a terminal, text is made plain and a blob is summed up (redirect stdout to get its bytes)
${COMMON_HELP}`;

export const run: Command = (args, io) =>
  runCommand("read", args, io, { usage: USAGE, operands: (n) => n === 1 }, async (session) => {
    const result = await session.client.readResource(session.operands[0]!, { onProgress: session.onProgress });
    session.endProgress();
    if (session.options.json) printJson(io, result);
    else
      for (const item of result.contents as { text?: string; blob?: string; mimeType?: string }[]) {
        if (item.text !== undefined) {
          // Redirected to a file the text is written as it is; on a terminal, made plain.
          const text = io.stdout.isTTY === true ? plain(item.text) : item.text;
          io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
        } else if (item.blob !== undefined) {
          const bytes = Buffer.from(item.blob, "base64");
          // A server's bytes on a terminal would be acted on (escape sequences): only to a file or a pipe.
          if (io.stdout.isTTY === true)
            io.stdout.write(`${plain(`[blob ${item.mimeType ?? ""}`.trimEnd())}, ${bytes.length} bytes: redirect stdout to save it]\n`);
          else io.stdout.write(bytes);
        }
      }
    return ExitCode.Ok;
  });
