import { describe, expect, it } from "vitest";
import { asMissingDependency, MissingDependencyError } from "../src/index.js";

const notFound = (code: string, message: string) => Object.assign(new Error(message), { code });

describe("asMissingDependency", () => {
  it("names the package when the loader could not find that very package", async () => {
    const specifier = "not-a-package-x-mcp-test";
    const imported = await import(specifier).catch((error: unknown) => error);
    const mapped = asMissingDependency(imported, "not-a-package-x-mcp-test");
    expect(mapped).toBeInstanceOf(MissingDependencyError);
    expect((mapped as MissingDependencyError).dependency).toBe("not-a-package-x-mcp-test");
    expect((mapped as MissingDependencyError).cause).toBe(imported);
    const required = asMissingDependency(notFound("MODULE_NOT_FOUND", "Cannot find module 'ajv'"), "ajv");
    expect(required).toBeInstanceOf(MissingDependencyError);
  });

  it("gives back any other error as it is: another package not found, or a module that threw while loading", () => {
    const other = notFound("ERR_MODULE_NOT_FOUND", "Cannot find package 'left-pad'");
    expect(asMissingDependency(other, "ajv")).toBe(other);
    const threw = new SyntaxError("Unexpected token in ajv");
    expect(asMissingDependency(threw, "ajv")).toBe(threw);
    expect(asMissingDependency("not an error", "ajv")).toBe("not an error");
    expect(asMissingDependency(null, "ajv")).toBeNull();
  });
});
