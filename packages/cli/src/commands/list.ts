/** `x-mcp list [tools|resources|templates|prompts] <target>`: what a server offers. */
import { errorCode } from "@x/client";
import { COMMON_HELP, UsageError } from "../args.js";
import type { Command } from "../io.js";
import { ExitCode } from "../main.js";
import { plain, table } from "../output.js";
import { printJson, runCommand, type Session } from "../session.js";

const KINDS = ["tools", "resources", "templates", "prompts"] as const;
type Kind = (typeof KINDS)[number];

const USAGE = `usage: x-mcp list [tools|resources|templates|prompts] [options] <target>
without a kind, lists all four (those the server offers)
${COMMON_HELP}`;

/** The capability that offers each kind. */
const CAPABILITY: Record<Kind, string> = { tools: "tools", resources: "resources", templates: "resources", prompts: "prompts" };

async function fetchKind(session: Session, kind: Kind): Promise<Record<string, unknown>[]> {
  const { client } = session;
  if (kind === "tools") return (await client.listAllTools()) as Record<string, unknown>[];
  if (kind === "resources") return (await client.listAllResources()) as Record<string, unknown>[];
  if (kind === "templates") return (await client.listAllResourceTemplates()) as Record<string, unknown>[];
  return (await client.listAllPrompts()) as Record<string, unknown>[];
}

function rows(kind: Kind, items: Record<string, unknown>[]): string[][] {
  const text = (v: unknown) => (typeof v === "string" ? plain(v.replaceAll(/\s+/g, " ")) : "");
  return items.map((item) => {
    if (kind === "tools") return [text(item.name), text(item.title ?? item.description)];
    if (kind === "resources") return [text(item.uri), text(item.name), text(item.mimeType)];
    if (kind === "templates") return [text(item.uriTemplate), text(item.name), text(item.mimeType)];
    const args = (item.arguments as { name: string; required?: boolean }[] | undefined) ?? [];
    const list = args.map((a) => `${plain(String(a.name))}${a.required ? "*" : ""}`).join(", ");
    return [text(item.name), `${text(item.description)}${list ? ` (${list})` : ""}`];
  });
}

export const run: Command = (args, io) =>
  runCommand(
    "list",
    args,
    io,
    {
      usage: USAGE,
      operands: (n) => n <= 1,
      check: ([kind]) => {
        if (kind !== undefined && !(KINDS as readonly string[]).includes(kind))
          throw new UsageError(`unknown kind ${kind}: tools, resources, templates or prompts`);
      },
    },
    async (session) => {
      const asked = session.operands[0] as Kind | undefined;
      const kinds = asked ? [asked] : KINDS.filter((k) => session.client.serverCapabilities?.[CAPABILITY[k]] !== undefined);
      const found: Partial<Record<Kind, Record<string, unknown>[]>> = {};
      for (const kind of kinds) {
        try {
          found[kind] = await fetchKind(session, kind);
        } catch (error) {
          // Listing everything: a kind the server does not implement (-32601) is left out.
          if (asked || errorCode(error) !== -32601) throw error;
        }
      }
      if (session.options.json) printJson(io, asked ? found[asked] : found);
      else {
        const parts = Object.entries(found).map(([kind, items]) => {
          const body = items.length === 0 ? "(none)" : table(rows(kind as Kind, items));
          return asked ? body : `${kind}:\n${body.replaceAll(/^/gm, "  ")}`;
        });
        io.stdout.write(`${parts.join("\n\n")}\n`);
      }
      return ExitCode.Ok;
    },
  );
