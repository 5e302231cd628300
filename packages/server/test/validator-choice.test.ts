// The JSON Schema validator is chosen, not imported: a bundle of a server
// carries the validator its program names (ServerOptions.validator) and no
// other, none when its tools take Standard Schemas, and the cfworker one
// under the worker condition when it names none. The protocol's own
// messages need none. Bundled as a user's bundler would, from the built
// entries; each program also runs alone in an empty folder.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";
import { runBundleAlone } from "../../../test-support/bundle.js";

const here = resolve(".");
const entry = JSON.stringify(resolve("dist/index.js"));
const ajvEntry = JSON.stringify(resolve("dist/ajv.js"));
const built = existsSync(resolve("dist/index.js"));

const META = `{ "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} }`;
/** A server with one `echo` tool; `tool` is its registration, `options` its ServerOptions. Prints the answers to a good and a bad call. */
const program = (options: string, tool: string, imports = "") => `
import { McpServer } from ${entry};
${imports}
const server = new McpServer({ name: "t", version: "1.0.0" }, ${options});
try {
  ${tool}
} catch (error) {
  console.log(error.name + ": " + error.message);
  process.exit(0);
}
const call = async (args) => {
  const { response } = await server.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: args, _meta: ${META} } });
  return response.error ? "error " + response.error.code : "ok " + (response.result.isError === true ? "isError" : response.result.content[0].text);
};
console.log(await call({ text: "hi" }));
console.log(await call({ text: 5 }));
`;
const JSON_TOOL = `server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, ({ text }) => ({ content: [{ type: "text", text }] }));`;
const STANDARD_TOOL = `server.registerTool("echo", { inputSchema: toStandardJsonSchema(v.object({ text: v.string() })) }, ({ text }) => ({ content: [{ type: "text", text }] }));`;
const VALIBOT = `import { toStandardJsonSchema } from "@valibot/to-json-schema";\nimport * as v from "valibot";`;

/** The packages (and @x/json-schema's meta-schema checks) a bundle of `source` carries. */
async function carried(source: string, conditions: string[] = []): Promise<string[]> {
  const result = await esbuild.build({
    stdin: { contents: source, resolveDir: here },
    bundle: true,
    format: "esm",
    platform: "node",
    conditions,
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  const found = new Set<string>();
  // The files with code in the output: esbuild resolves more than it keeps.
  const kept = Object.entries(Object.values(result.metafile.outputs)[0]!.inputs).filter(([, input]) => input.bytesInOutput > 0);
  for (const [file] of kept) {
    const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(file)?.[1];
    if (inPackage) found.add(inPackage);
    if (/json-schema\/dist\/meta\//.test(file)) found.add("meta-schema checks");
  }
  return [...found].sort();
}

const VALIDATORS = ["ajv", "ajv-draft-04", "ajv-formats", "fast-uri", "meta-schema checks", "@cfworker/json-schema"];
const validatorsIn = (packages: string[]) => packages.filter((name) => VALIDATORS.includes(name));

describe.runIf(built)("the validator a server's bundle carries", () => {
  it("cfworkerValidator named: that one, no ajv", async () => {
    const source = program(`{ validator: cfworkerValidator }`, JSON_TOOL, `import { cfworkerValidator } from ${entry};`);
    expect(validatorsIn(await carried(source))).toEqual(["@cfworker/json-schema"]);
    expect((await runBundleAlone(source, here)).split("\n")).toEqual(["ok hi", "ok isError"]);
  });

  it("ajvValidator named: ajv, without the meta-schema checks (the server's schemas are its own) and without cfworker", async () => {
    const source = program(`{ validator: ajvValidator }`, JSON_TOOL, `import { ajvValidator } from ${ajvEntry};`);
    expect(validatorsIn(await carried(source))).toEqual(["ajv", "ajv-draft-04", "ajv-formats", "fast-uri"]);
    expect((await runBundleAlone(source, here)).split("\n")).toEqual(["ok hi", "ok isError"]);
  });

  it("Standard Schema tools only: none, and the protocol's messages are still checked", async () => {
    const source = program(`{}`, STANDARD_TOOL, VALIBOT);
    expect(validatorsIn(await carried(source))).toEqual([]);
    expect((await runBundleAlone(source, here)).split("\n")).toEqual(["ok hi", "ok isError"]);
  });

  it("none named, under the worker condition: the cfworker default", async () => {
    const source = program(`{}`, JSON_TOOL);
    expect(validatorsIn(await carried(source, ["worker"]))).toEqual(["@cfworker/json-schema"]);
    expect((await runBundleAlone(source, here, { conditions: ["worker"] })).split("\n")).toEqual(["ok hi", "ok isError"]);
  });

  it("none named on Node: none bundled, and registering a JSON Schema tool with nothing beside the bundle throws a TypeError naming the option", async () => {
    const source = program(`{}`, JSON_TOOL);
    expect(validatorsIn(await carried(source))).toEqual([]);
    expect(await runBundleAlone(source, here)).toBe(
      'TypeError: tool echo: inputSchema is a JSON Schema, and this server has no JSON Schema validator: set ServerOptions.validator to cfworkerValidator (from "@x/server") or ajvValidator (from "@x/server/ajv"); a bundle carries only the validator its program names',
    );
  });

  it("none named on Node, unbundled: ajv, found at run time beside the package", async () => {
    const { McpServer, defaultValidator } = (await import(resolve("dist/index.js"))) as typeof import("../src/index.js");
    expect(defaultValidator()?.name).toBe("ajv");
    const server = new McpServer({ name: "t", version: "1.0.0" });
    expect(() =>
      server.registerTool("echo", { inputSchema: { type: "object", properties: { text: { type: "string" } } } }, () => ({
        content: [],
        resultType: "complete",
      })),
    ).not.toThrow();
  });
});
