/**
 * The file `x-mcp types` writes: TypeScript types for every tool's input and
 * output (json-schema-to-typescript), and `typedTools(client)`, a typed
 * wrapper over `@x/client`'s `callTool`.
 */
import { createHash } from "node:crypto";
import type { Tool } from "@x/client";
import { compile, type JSONSchema } from "json-schema-to-typescript";
import { jsonEscaped, plain } from "./output.js";

/** One tool's line in the header: its name and the hash of its schemas. */
export interface ToolStamp {
  readonly name: string;
  readonly hash: string;
}

/** The generated file, and the stamps written in its header. */
export interface Generated {
  readonly text: string;
  readonly stamps: readonly ToolStamp[];
}

/** Keys that json-schema-to-typescript copies into the output verbatim: a server must not write code into the file. */
const VERBATIM_KEYS = new Set(["tsType", "tsEnumNames"]);

/** A hash of what the file is generated from: the name and both schemas, keys sorted. */
function stampOf(tool: Tool): string {
  const canonical = canonicalJson({ name: tool.name, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema ?? null });
  return createHash("sha256").update(canonical).digest("hex").slice(0, 16);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * A copy of a tool's schema that is safe to compile and to embed under
 * `#/definitions/<at>`: local `$ref`s re-rooted there, remote ones (files,
 * URLs: never fetched) and generator directives dropped, and control
 * characters ({@link plain}) and `*\/` broken in the strings that become comments. Depth is bounded by the schema the
 * client accepted, which JSON nesting limits.
 */
function sanitize(schema: unknown, at: string, inLiteral = false): unknown {
  // Strings that become comments: no control character (a terminal would act on it), no end of comment.
  if (typeof schema === "string") return inLiteral ? schema : plain(schema).replaceAll("*/", "*\\/");
  if (Array.isArray(schema)) return schema.map((item) => sanitize(item, at, inLiteral));
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (VERBATIM_KEYS.has(key)) continue;
    if (key === "$ref" && typeof value === "string" && !inLiteral) {
      if (value === "#" || value.startsWith("#/")) out.$ref = `#/definitions/${at}${value.slice(1)}`;
      continue; // a remote reference: left unknown rather than read
    }
    if (key === "$id" && !inLiteral) continue; // would change how references resolve
    put(out, key, sanitize(value, at, inLiteral || key === "enum" || key === "const"));
  }
  return out;
}

/** Sets an own property, `__proto__` included (a name a server may choose). */
function put(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

/** `Add`, `GetWeather`, ... from a tool's name; `Tool` when nothing is left. */
function pascal(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  return /^[A-Za-z]/.test(joined) ? joined : `Tool${joined}`;
}

/** A string as a TypeScript string literal; the separators and controls JSON leaves as they are are escaped too. */
function literal(text: string): string {
  return jsonEscaped(JSON.stringify(text));
}

/** A property key: bare when it is an identifier, else quoted. */
function key(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : literal(name);
}

/** Whether a tool's arguments may be left out: its input schema requires nothing. */
function argsOptional(schema: Tool["inputSchema"]): boolean {
  const required = (schema as { required?: unknown }).required;
  return !Array.isArray(required) || required.length === 0;
}

/**
 * Generates the file for `tools` of the server named `server`.
 * @throws what json-schema-to-typescript throws on a schema it cannot compile.
 */
export async function generate(server: string, tools: readonly Tool[]): Promise<Generated> {
  const sorted = [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const used = new Set<string>();
  const unique = (base: string) => {
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}${n}`;
    used.add(name);
    return name;
  };
  const definitions: Record<string, unknown> = {};
  const properties: Record<string, unknown> = {};
  for (const tool of sorted) {
    const base = pascal(tool.name);
    const input = unique(`${base}Input`);
    definitions[input] = { ...(sanitize(tool.inputSchema, input) as object), title: input };
    const entry: Record<string, unknown> = { input: { $ref: `#/definitions/${input}` } };
    if (tool.outputSchema) {
      const output = unique(`${base}Output`);
      definitions[output] = { ...(sanitize(tool.outputSchema, output) as object), title: output };
      entry.output = { $ref: `#/definitions/${output}` };
    }
    put(properties, tool.name, { type: "object", properties: entry, required: Object.keys(entry), additionalProperties: false });
  }
  const root = {
    title: "ToolSchemas",
    description: "Each tool's arguments (`input`) and, when it declares an outputSchema, its structuredContent (`output`).",
    type: "object",
    properties,
    required: sorted.map((tool) => tool.name),
    additionalProperties: false,
    definitions,
  };
  const types = await compile(root as JSONSchema, "ToolSchemas", {
    bannerComment: "",
    // An argument the schema does not name is a compile error unless the schema allows others.
    additionalProperties: false,
    format: true,
    unreachableDefinitions: false,
    $refOptions: { resolve: { external: false, file: false, http: false } },
  });

  const stamps = sorted.map((tool) => ({ name: tool.name, hash: stampOf(tool) }));
  const header = [
    `// Generated by \`x-mcp types\` from the tools of the MCP server ${literal(server)}. Do not edit:`,
    "// regenerate with `x-mcp types <server> --out <this file>`; `--check` tells whether it is current.",
    ...stamps.map((stamp) => `// tool ${stamp.hash} ${literal(stamp.name)}`),
  ];
  const methods = sorted.map((tool) => {
    const args = `args${argsOptional(tool.inputSchema) ? "?" : ""}: ToolSchemas[${literal(tool.name)}]["input"]`;
    const returns = tool.outputSchema ? `ToolSchemas[${literal(tool.name)}]["output"]` : "CallToolResult";
    const doc = tool.description ? `  /** ${plain(tool.description.replace(/\s+/g, " ")).replaceAll("*/", "*\\/")} */\n` : "";
    return `${doc}  ${key(tool.name)}(${args}, options?: ToolCallOptions): Promise<${returns}>;`;
  });
  const entries = sorted.map(
    (tool) =>
      `    ${key(tool.name)}: (args, options) => call(${literal(tool.name)}, args, options, ${tool.outputSchema ? "true" : "false"}) as never,`,
  );
  // json-schema-to-typescript's literals escape C0 controls only; what is left can only be in literals (comments are plain).
  const body = `import type { CallToolOptions, CallToolResult, Client } from "@x/client";

${jsonEscaped(types.trim())}

/** \`callTool\`'s options; input requests are resolved (through the client's handlers), never returned. */
export type ToolCallOptions = CallToolOptions & { inputRequired?: "resolve" };

/** One method per tool: typed arguments; the typed structuredContent, or the CallToolResult of a tool without an outputSchema. */
export interface TypedTools {
${methods.join("\n")}
}

/** A tool's result with \`isError\`: the tool ran and reported a failure. */
export class ToolCallError extends Error {
  /** The tool's name. */
  readonly tool: string;
  /** The result, with its content. */
  readonly result: CallToolResult;
  constructor(tool: string, result: CallToolResult) {
    const text = result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join(" ");
    super(\`Tool \${JSON.stringify(tool)} failed\${text ? \`: \${text}\` : ""}\`);
    this.name = "ToolCallError";
    this.tool = tool;
    this.result = result;
  }
}

/**
 * Typed calls to the server's tools through \`client\` (connected). The tools
 * are listed once before the first call so that the client checks each
 * structuredContent against its outputSchema (a mismatch throws McpClientError -32092).
 * @throws ToolCallError for a result with \`isError\`; what \`client.callTool\` throws.
 */
export function typedTools(client: Client): TypedTools {
  let listed: Promise<unknown> | undefined;
  const call = async (name: string, args: object | undefined, options: ToolCallOptions | undefined, structured: boolean) => {
    listed ??= client.listAllTools().catch((error: unknown) => {
      listed = undefined;
      throw error;
    });
    await listed;
    const result = await client.callTool(name, { ...args }, options);
    if (result.isError === true) throw new ToolCallError(name, result);
    return structured ? result.structuredContent : result;
  };
  return {
${entries.join("\n")}
  };
}
`;
  return { text: `${header.join("\n")}\n${body}`, stamps };
}

/** The stamps in the header of a file written by {@link generate}; empty when it has none. */
export function readStamps(text: string): ToolStamp[] {
  const stamps: ToolStamp[] = [];
  for (const line of text.split("\n")) {
    const match = /^\/\/ tool ([0-9a-f]{16}) (".*")$/.exec(line);
    if (!match) continue;
    try {
      stamps.push({ hash: match[1]!, name: JSON.parse(match[2]!) });
    } catch {
      // not a line this generator wrote
    }
  }
  return stamps;
}
