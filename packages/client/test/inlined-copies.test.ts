import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { MissingDependencyError } from "@x/jsonrpc";
import { describe, expect, it } from "vitest";

// The built @x/client carries its own copies of @x/jsonrpc and @x/json-schema
// (scripts/bundle.mjs --inline; see the server's test of the same name).
const built = resolve("dist/index.js");

describe.runIf(existsSync(built))("the built client's copies of @x/jsonrpc and @x/json-schema", async () => {
  const dist = (await import(built)) as typeof import("../src/index.js");

  it("throw a MissingDependencyError the package's class recognises, and recognise the package's", () => {
    expect(dist.MissingDependencyError).not.toBe(MissingDependencyError);
    // The class keeps its own name (stack traces and util.inspect print it).
    expect(dist.MissingDependencyError.name).toBe("MissingDependencyError");
    expect(new dist.MissingDependencyError("ajv", null) instanceof MissingDependencyError).toBe(true);
    expect(new MissingDependencyError("ajv", null) instanceof dist.MissingDependencyError).toBe(true);
  });

  it("take ajv as the default validator on Node, through the client's own #default-validator", async () => {
    expect(dist.defaultValidator().name).toBe("ajv");
    const none = (await import(resolve("dist/default-none.js"))) as { defaultValidator: unknown };
    expect(none.defaultValidator).toBeUndefined();
  });
});
