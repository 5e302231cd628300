/**
 * `x-mcp types <target> [--out file] [--check]`: TypeScript types for the
 * server's tools and a typed wrapper over `@x/client` (see typegen.ts).
 */
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { Client, type Tool } from "@x/client";
import type { Io } from "../io.js";
import { ExitCode } from "../main.js";
import { plain } from "../output.js";
import { splitTarget, transportTo } from "../target.js";
import { generate, readStamps, type ToolStamp } from "../typegen.js";

const USAGE = `usage: x-mcp types [--out <file.ts>] [--check] <url | -- command args...>
  writes TypeScript types for every tool's arguments and structuredContent, and typedTools(client)
  --out <file>  write there (default: standard output)
  --check       write nothing; exit 4 when <file> no longer matches the server's tools`;

interface Options {
  out?: string;
  check: boolean;
}

function parse(rest: readonly string[]): Options | string {
  const options: Options = { check: false };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === "--check") options.check = true;
    else if (arg === "--out" || arg === "-o") {
      const file = rest[++i];
      if (file === undefined || file.startsWith("-")) return `${arg} needs a file name`;
      options.out = file;
    } else if (arg.startsWith("--out=")) options.out = arg.slice("--out=".length);
    else return `unknown argument ${JSON.stringify(arg)}`;
  }
  if (options.check && options.out === undefined) return "--check needs --out <file>: the file to compare";
  if (options.out === "") return "--out needs a file name";
  return options;
}

/** What changed between the stamps of a file and those of the server's tools now, one phrase per tool. */
export function changedTools(before: readonly ToolStamp[], now: readonly ToolStamp[]): string[] {
  const old = new Map(before.map((stamp) => [stamp.name, stamp.hash]));
  const current = new Map(now.map((stamp) => [stamp.name, stamp.hash]));
  const changes: string[] = [];
  for (const [name, hash] of current) {
    if (!old.has(name)) changes.push(`${JSON.stringify(name)} (new)`);
    else if (old.get(name) !== hash) changes.push(`${JSON.stringify(name)} (schema changed)`);
  }
  for (const name of old.keys()) if (!current.has(name)) changes.push(`${JSON.stringify(name)} (removed)`);
  return changes;
}

/** Lists every tool of the target's server, and its name. */
async function listTools(args: readonly string[], io: Io): Promise<{ server: string; tools: Tool[] } | number> {
  const { target } = splitTarget(args);
  const client = new Client(
    { name: "x-mcp", version: "0.1.0" },
    { onWarning: (message) => io.stderr.write(`x-mcp types: ${plain(message)}\n`) },
  );
  try {
    try {
      await client.connect(transportTo(target, (text) => io.stderr.write(text)));
    } catch (error) {
      io.stderr.write(`x-mcp types: cannot connect: ${plain(error instanceof Error ? error.message : String(error))}\n`);
      return ExitCode.Unreachable;
    }
    const tools = await client.listAllTools();
    const info = client.serverInfo ?? {};
    const server = typeof info.name === "string" && info.name !== "" ? info.name : "unnamed";
    return { server, tools };
  } finally {
    await client.close().catch(() => {});
  }
}

/** Runs `x-mcp types`. */
export async function run(args: readonly string[], io: Io): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(`${USAGE}\n`);
    return ExitCode.Ok;
  }
  let rest: readonly string[];
  try {
    rest = splitTarget(args).rest;
  } catch (error) {
    io.stderr.write(`x-mcp types: ${(error as Error).message}\n${USAGE}\n`);
    return ExitCode.Usage;
  }
  const options = parse(rest);
  if (typeof options === "string") {
    io.stderr.write(`x-mcp types: ${options}\n${USAGE}\n`);
    return ExitCode.Usage;
  }
  const listed = await listTools(args, io);
  if (typeof listed === "number") return listed;
  const generated = await generate(listed.server, listed.tools);
  if (options.out === undefined) {
    io.stdout.write(generated.text);
    return ExitCode.Ok;
  }
  const file = resolve(io.cwd, options.out);
  if (!options.check) {
    await writeFile(file, generated.text);
    io.stderr.write(`x-mcp types: wrote ${listed.tools.length} tool(s) of ${plain(JSON.stringify(listed.server))} to ${options.out}\n`);
    return ExitCode.Ok;
  }
  let existing: string;
  try {
    existing = await readFile(file, "utf8");
  } catch (error) {
    io.stderr.write(`x-mcp types: cannot read ${options.out}: ${(error as Error).message}\n`);
    return ExitCode.Outdated;
  }
  if (existing === generated.text) {
    io.stdout.write(`${options.out} matches the server's ${listed.tools.length} tool(s)\n`);
    return ExitCode.Ok;
  }
  const changes = changedTools(readStamps(existing), generated.stamps);
  const what = changes.length > 0 ? `tools changed: ${plain(changes.join(", "))}` : "the file differs from what x-mcp types generates now";
  io.stderr.write(`x-mcp types: ${options.out} is out of date: ${what}; regenerate it with --out\n`);
  return ExitCode.Outdated;
}
