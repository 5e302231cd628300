// What the 2026-07-28-only entry carries: none of the initialize era. Checked
// twice: on the source (the modules `src/v2607.ts` reaches through run-time
// imports, static and dynamic; a type-only import carries no code) and on a
// bundle of the built entry, as a user's bundler makes it.
import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { bundle, runBundleAlone } from "../../../test-support/bundle.js";

const src = resolve("src");
/** The packages of the initialize era's wire (the revisions before 2026-07-28, their `./members` too). */
const ERA_PACKAGES = /^@x\/mcp-v(2511|2506|2503|2411)(\/|$)/;
/** The run-time imports of one source file: relative ones as paths under src/, the others as written. */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const add = (specifier: string) => {
    found.push(specifier.startsWith(".") ? relative(src, resolve(dirname(file), specifier.replace(/\.js$/, ".ts"))) : specifier);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            bindings.elements.length > 0 &&
            bindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) add(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const typeOnly = node.isTypeOnly || (clause !== undefined && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) add(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every module and package `entry` (under src/) reaches. */
function reach(entry: string): Set<string> {
  const seen = new Set<string>([entry]);
  const queue = [entry];
  // Bounded by the number of files under src/.
  for (let i = 0; i < queue.length && i < 1000; i++) {
    const module = queue[i]!;
    if (!module.endsWith(".ts")) continue;
    for (const target of importsOf(resolve(src, module))) {
      if (seen.has(target)) continue;
      seen.add(target);
      queue.push(target);
    }
  }
  return seen;
}

/** The era's version tables (one per version, the reducer, their loader) and its JSON-RPC batches, on either transport. */
const VERSION_AND_BATCH_MODULES = [
  "revisions/initialize/versions/index.ts",
  "revisions/initialize/versions/tables.ts",
  "revisions/initialize/versions/table.ts",
  "revisions/initialize/versions/2025-11-25.ts",
  "revisions/initialize/versions/2025-06-18.ts",
  "revisions/initialize/versions/2025-03-26.ts",
  "revisions/initialize/versions/2024-11-05.ts",
  "revisions/initialize/batch.ts",
  "revisions/initialize/http/legacy-batch.ts",
];

const isEraModule = (m: string) => m.startsWith("revisions/initialize/") || m === "two-eras.ts" || ERA_PACKAGES.test(m);

describe("the import graph of @x/server/v2607", () => {
  it("reaches no module of the initialize era, no package of its revisions, no plug-in, and not @x/server's McpServer", () => {
    const modules = [...reach("v2607.ts")];
    expect(modules).toContain("server.ts");
    expect(modules).toContain("transports/http/ladder.ts");
    expect(modules).toContain("transports/stdio.ts");
    expect(modules.filter(isEraModule)).toEqual([]);
    expect(modules.filter((m) => VERSION_AND_BATCH_MODULES.includes(m) || m.endsWith("/members"))).toEqual([]);
    // Tasks and action tools are plug-ins on their own entries.
    expect(modules.filter((m) => m.startsWith("tasks/") || m.startsWith("actions/"))).toEqual([]);
  });

  it("while @x/server reaches the era's plug-in, both its framings, its version tables and its batches", () => {
    const modules = reach("index.ts");
    for (const module of [
      "two-eras.ts",
      "revisions/initialize/plugin.ts",
      "revisions/initialize/http/framing.ts",
      "revisions/initialize/stdio.ts",
      ...VERSION_AND_BATCH_MODULES,
      "@x/mcp-v2411/members",
    ]) {
      expect(modules.has(module), module).toBe(true);
    }
  });
});

/** Text only the initialize era's codec and framings hold (their refusals and bounds). */
const ERA_MARKERS = [
  "Mcp-Session-Id header is required",
  "GET stream is already open",
  "initialize has not succeeded on this connection",
  "this session is already initialized",
  "maxSessionsPerPrincipal",
  // The version tables and the batches of 2025-03-26.
  "initialize-era version tables used before the first initialize",
  "Invalid request: an empty batch",
];

const built = existsSync(resolve("dist/v2607.js"));
const program = (entry: string) => `
import { cfworkerValidator, McpServer, createNodeHandler, serveStdio } from ${JSON.stringify(resolve(entry))};
const server = new McpServer({ name: "t", version: "1.0.0" }, { validator: cfworkerValidator });
server.registerTool("echo", {}, () => "hi");
export const handler = createNodeHandler(server);
export const stdio = () => serveStdio(server);
const { response } = await server.handle({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } });
console.log(response.error ? response.error.code : "opened");
`;

describe.runIf(built)("a bundle of the built @x/server/v2607", () => {
  it("carries none of the initialize era's framing or codec, which a bundle of @x/server does", async () => {
    const modern = await bundle(program("dist/v2607.js"), resolve("."));
    const twoEras = await bundle(program("dist/index.js"), resolve("."));
    for (const marker of ERA_MARKERS) {
      expect(modern.includes(marker), marker).toBe(false);
      expect(twoEras.includes(marker), marker).toBe(true);
    }
  });

  it("runs alone, and answers initialize with -32022", async () => {
    expect(await runBundleAlone(program("dist/v2607.js"), resolve("."))).toBe("-32022");
  });
});
