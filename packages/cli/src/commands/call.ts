/** `x-mcp call <target> <tool> [json-args | key=value ...]`: calls a tool and prints its result. */
import type { CallToolResult, Tool } from "@x/client";
import { COMMON_HELP, keyValues, setOwn, UsageError } from "../args.js";
import type { Command } from "../io.js";
import { ExitCode } from "../main.js";
import { blockText } from "../output.js";
import { printJson, runCommand } from "../session.js";

const USAGE = `usage: x-mcp call [options] <target> <tool> [json-args | key=value ...]
arguments: one JSON object ('{"a":1}'), or key=value pairs; a value is read as JSON
(number, true, null, object...) unless the tool's input schema types it a string
exit code 1 when the tool reports an error (isError)
${COMMON_HELP}`;

/** Whether the tool's input schema says `key` is a string (then `key=007` stays "007"). */
function isString(tool: Tool | undefined, key: string): boolean {
  const property = (tool?.inputSchema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties?.[key];
  return property?.type === "string";
}

/**
 * The arguments of the call from its operands.
 * @throws UsageError for JSON that is not an object, or a bad pair ({@link keyValues}).
 */
export function callArguments(operands: readonly string[], tool?: Tool): Record<string, unknown> {
  if (operands.length === 1 && operands[0]!.trimStart().startsWith("{")) {
    let value: unknown;
    try {
      value = JSON.parse(operands[0]!);
    } catch (error) {
      throw new UsageError(`arguments are not JSON: ${(error as Error).message}`);
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw new UsageError("the JSON arguments must be an object");
    return value as Record<string, unknown>;
  }
  const args: Record<string, unknown> = {};
  for (const [key, text] of keyValues(operands)) {
    let value: unknown = text;
    if (!isString(tool, key)) {
      try {
        value = JSON.parse(text);
      } catch {
        value = text;
      }
    }
    setOwn(args, key, value);
  }
  return args;
}

export const run: Command = (args, io) =>
  runCommand(
    "call",
    args,
    io,
    {
      usage: USAGE,
      operands: (n) => n >= 1,
      // Checked before connecting: a malformed argument sends nothing.
      check: ([, ...rest]) => void callArguments(rest),
    },
    async (session) => {
      const [name, ...rest] = session.operands as [string, ...string[]];
      const tools = await session.client.listAllTools().catch(() => [] as Tool[]);
      const tool = tools.find((t) => t.name === name);
      if (tools.length > 0 && !tool)
        throw new UsageError(`no tool ${JSON.stringify(name)} (the server has: ${tools.map((t) => t.name).join(", ")})`);
      const result = (await session.client.callTool(name, callArguments(rest, tool), { onProgress: session.onProgress })) as CallToolResult;
      session.endProgress();
      if (session.options.json) printJson(io, result);
      else {
        const text = (result.content ?? []).map(blockText).join("\n");
        const structured = result.structuredContent;
        const out = text !== "" ? text : structured !== undefined ? JSON.stringify(structured, null, 2) : "";
        (result.isError ? io.stderr : io.stdout).write(out === "" ? "" : `${out}\n`);
      }
      return result.isError ? ExitCode.Refused : ExitCode.Ok;
    },
  );
