import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { SchemaCompileError } from "@x/json-schema";
import { MissingDependencyError } from "@x/jsonrpc";
import { describe, expect, it } from "vitest";

// The built @x/server carries its own copies of @x/jsonrpc and @x/json-schema
// (scripts/bundle.mjs --inline): fewer packages for a cold import to resolve.
// What the copies throw must pass the packages' own instanceof checks, and
// the copy of @x/json-schema must pick its default validator as the package does.
const built = resolve("dist/index.js");

describe.runIf(existsSync(built))("the built server's copies of @x/jsonrpc and @x/json-schema", async () => {
  const dist = (await import(built)) as typeof import("../src/index.js");

  it("throw errors the packages' classes recognise, and recognise theirs", () => {
    expect(dist.MissingDependencyError).not.toBe(MissingDependencyError);
    // The class keeps its own name (stack traces and util.inspect print it).
    expect(dist.MissingDependencyError.name).toBe("MissingDependencyError");
    expect(new dist.MissingDependencyError("ajv", null) instanceof MissingDependencyError).toBe(true);
    expect(new MissingDependencyError("ajv", null) instanceof dist.MissingDependencyError).toBe(true);
  });

  it("refuse a schema of an unknown dialect with a cause that is a SchemaCompileError of @x/json-schema", () => {
    const server = new dist.McpServer({ name: "t", version: "1.0.0" });
    let thrown: unknown;
    try {
      server.registerTool("t", { inputSchema: { $schema: "https://example.com/not-a-dialect", type: "object" } }, () => ({
        content: [],
        resultType: "complete",
      }));
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).message).toMatch(/^tool t: inputSchema does not compile: /);
    const cause = (thrown as Error).cause;
    expect(cause).toBeInstanceOf(SchemaCompileError);
    expect((cause as SchemaCompileError).reason).toBe("unknown-dialect");
  });

  it("take ajv as the default validator on Node, found at run time: the server's own #default-validator imports none", async () => {
    expect(dist.defaultValidator()?.name).toBe("ajv");
    const none = (await import(resolve("dist/default-none.js"))) as { defaultValidator: unknown };
    expect(none.defaultValidator).toBeUndefined();
    const worker = (await import(resolve("dist/default-cfworker.js"))) as { defaultValidator: { name: string } };
    expect(worker.defaultValidator.name).toBe("cfworker");
  });
});
