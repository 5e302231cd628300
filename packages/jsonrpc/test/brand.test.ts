import { describe, expect, it, vi } from "vitest";
import { brandAcrossCopies, MissingDependencyError } from "../src/index.js";

/** A second copy of this package's code, as @x/server and @x/client each carry: a module of its own, its own classes. */
async function anotherCopy(): Promise<typeof import("../src/index.js")> {
  vi.resetModules();
  return import("../src/index.js");
}

describe("brandAcrossCopies", () => {
  it("makes an instance of one copy's MissingDependencyError pass the other copy's instanceof, both ways", async () => {
    const copy = await anotherCopy();
    expect(copy.MissingDependencyError).not.toBe(MissingDependencyError);
    const ours = new MissingDependencyError("ajv", new Error("not found"));
    const theirs = new copy.MissingDependencyError("ajv", new Error("not found"));
    expect(ours instanceof copy.MissingDependencyError).toBe(true);
    expect(theirs instanceof MissingDependencyError).toBe(true);
    expect(theirs instanceof Error).toBe(true);
    expect(MissingDependencyError.name).toBe("MissingDependencyError");
  });

  it("does not let other errors or values pass", () => {
    expect(new Error("ajv") instanceof MissingDependencyError).toBe(false);
    expect(Object.assign(new Error("x"), { name: "MissingDependencyError", dependency: "ajv" }) instanceof MissingDependencyError).toBe(
      false,
    );
    for (const value of [null, undefined, "MissingDependencyError", 1, {}]) expect(value instanceof MissingDependencyError).toBe(false);
  });

  it("keeps instanceof of a subclass ordinary", async () => {
    class Stricter extends MissingDependencyError {}
    const copy = await anotherCopy();
    expect(new Stricter("ajv", null) instanceof Stricter).toBe(true);
    expect(new Stricter("ajv", null) instanceof copy.MissingDependencyError).toBe(true);
    expect(new MissingDependencyError("ajv", null) instanceof Stricter).toBe(false);
    expect(new copy.MissingDependencyError("ajv", null) instanceof Stricter).toBe(false);
  });

  it("tells classes of different keys apart", () => {
    class One extends Error {
      static {
        brandAcrossCopies(One, "test/One");
      }
    }
    class Two extends Error {
      static {
        brandAcrossCopies(Two, "test/Two");
      }
    }
    expect(new One() instanceof One).toBe(true);
    expect(new One() instanceof Two).toBe(false);
    expect(new Two() instanceof One).toBe(false);
  });
});
