/**
 * The options every command that talks to a server shares, parsed from the
 * arguments before the target's `--`.
 */
import type { ProtocolChoice } from "@x/client";
import { splitTarget, type Target } from "./target.js";

/** Bad arguments or options: the command exits 2 (`ExitCode.Usage`) and sends nothing. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The options shared by `list`, `call`, `read`, `prompt` and `complete`. */
export interface CommonOptions {
  /** `--json`: one JSON document on stdout, for scripts. */
  readonly json: boolean;
  /** `--quiet`, `-q`: no progress on stderr. */
  readonly quiet: boolean;
  /** `--no-auth`: never start an OAuth authorization (a 401 then fails the command). */
  readonly auth: boolean;
  /** `--protocol auto|<version>`: the era and version (default `auto`). */
  readonly protocol: ProtocolChoice;
  /** `--header "Name: value"`, repeatable: sent on every HTTP request. */
  readonly headers: Readonly<Record<string, string>>;
}

/** What a command's arguments say: the shared options, the target, and the command's own operands. */
export interface Parsed {
  readonly options: CommonOptions;
  readonly target: Target;
  readonly operands: readonly string[];
}

/** The versions `--protocol` accepts besides `auto`. */
export const PROTOCOL_VERSIONS = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** The shared options, as `--help` lists them. */
export const COMMON_HELP = `options:
  --protocol auto|${PROTOCOL_VERSIONS.join("|")}  (default auto: probe, then fall back to initialize)
  --header "Name: value"   an HTTP header on every request (repeatable)
  --json                   machine-readable output on stdout
  --quiet, -q              no progress on stderr
  --no-auth                do not start an OAuth sign-in on a 401
target: a URL (http:// or https://) anywhere, or -- command args... (a stdio server) last:
  x-mcp call add a=1 -- node server.js --stdio`;

/** Whether `args` (before any `--`) ask for help. */
export function wantsHelp(args: readonly string[]): boolean {
  const dash = args.indexOf("--");
  const own = dash < 0 ? args : args.slice(0, dash);
  return own.includes("--help") || own.includes("-h");
}

/**
 * Splits `args` into the shared options, the target and the operands.
 * @throws UsageError for a missing target, an unknown option, a missing option value or a bad `--protocol`/`--header`.
 */
export function parseArgs(args: readonly string[]): Parsed {
  let split: ReturnType<typeof splitTarget>;
  try {
    split = splitTarget(args);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  let json = false;
  let quiet = false;
  let auth = true;
  let protocol: ProtocolChoice = "auto";
  const headers: Record<string, string> = {};
  const operands: string[] = [];
  const rest = split.rest;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const value = (): string => {
      const next = rest[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    if (arg === "--json") json = true;
    else if (arg === "--quiet" || arg === "-q") quiet = true;
    else if (arg === "--no-auth") auth = false;
    else if (arg === "--protocol") {
      const given = value();
      if (given !== "auto" && !(PROTOCOL_VERSIONS as readonly string[]).includes(given))
        throw new UsageError(`--protocol ${given}: expected auto or one of ${PROTOCOL_VERSIONS.join(", ")}`);
      protocol = given as ProtocolChoice;
    } else if (arg === "--header" || arg === "-H") {
      const given = value();
      const colon = given.indexOf(":");
      const name = colon > 0 ? given.slice(0, colon).trim() : "";
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header ${JSON.stringify(given)}: expected "Name: value"`);
      headers[name.toLowerCase()] = given.slice(colon + 1).trim();
    } else if (arg.startsWith("-") && arg.length > 1 && !/^-\d/.test(arg)) throw new UsageError(`unknown option ${arg}`);
    else operands.push(arg);
  }
  if (split.target.kind === "stdio" && Object.keys(headers).length > 0) throw new UsageError("--header applies to a URL target only");
  return { options: { json, quiet, auth, protocol, headers }, target: split.target, operands };
}

/**
 * `key=value` operands (of `call` and `prompt`) as [key, text] pairs, in order.
 * @throws UsageError for an operand without `=` or with an empty key, or a
 * key given twice (one value would be dropped silently).
 */
export function keyValues(operands: readonly string[]): [key: string, text: string][] {
  const seen = new Set<string>();
  return operands.map((pair) => {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`${JSON.stringify(pair)}: expected key=value`);
    const key = pair.slice(0, eq);
    if (seen.has(key)) throw new UsageError(`${JSON.stringify(key)} given twice`);
    seen.add(key);
    return [key, pair.slice(eq + 1)];
  });
}

/** Sets an own property, `__proto__` included (a property name like any other in a tool's arguments). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
