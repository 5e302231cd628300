/**
 * The hand-written constants of a generated revision package against the
 * schema they describe (see packages/mcp-v*\/test/constants.test.ts): its
 * version, every method the schema defines and no other, the `_meta` key
 * the schema declares, and error codes that are integers, distinct and of
 * the spec's names.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RevisionPackage, Schema } from "./revision-package.js";

export interface ConstantsUnderTest {
  pkg: RevisionPackage;
  PROTOCOL_VERSION: string;
  SUPPORTED_PROTOCOL_VERSIONS: readonly string[];
  Method: Record<string, string>;
  ErrorCode: Record<string, number>;
  META_PROGRESS_TOKEN: string;
}

/** The JSON-RPC codes every revision has (the spec's TypeScript schema constants) and -32002 of its resources page. */
const BASE_CODES = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ResourceNotFound: -32002,
};

/** Declares the constants tests of one revision package. */
export function describeConstants(c: ConstantsUnderTest): void {
  const { pkg, Method, ErrorCode } = c;
  const { schema } = pkg;
  const defs = Object.entries(schema.$defs);
  const schemaText = readFileSync(join(pkg.repoRoot, "schema", pkg.revision, "schema.json"), "utf8");

  /** Calls `fn(object)` on every object nested anywhere in the schema's definitions (a superset of the subschemas). */
  function walk(fn: (s: Schema) => void): void {
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value !== null && typeof value === "object") {
        fn(value as Schema);
        Object.values(value).forEach(visit);
      }
    };
    visit(schema.$defs);
  }

  describe("constants", () => {
    it("PROTOCOL_VERSION is this package's revision, the only supported one", () => {
      expect(c.PROTOCOL_VERSION).toBe(pkg.revision);
      expect(c.SUPPORTED_PROTOCOL_VERSIONS).toEqual([pkg.revision]);
      expect(Object.isFrozen(c.SUPPORTED_PROTOCOL_VERSIONS)).toBe(true);
      // The schema's links, where it has any, point at its own revision's pages.
      const linked = new Set(schemaText.match(/\/specification\/\d{4}-\d{2}-\d{2}\//g) ?? []);
      for (const link of linked) expect(link).toBe(`/specification/${pkg.revision}/`);
    });

    it("Method lists exactly the method constants of the schema, with PascalCase keys", () => {
      const fromSchema = new Set<string>();
      walk((s) => {
        const method = (s.properties as Record<string, Schema> | undefined)?.method;
        if (typeof method?.const === "string") fromSchema.add(method.const);
      });
      const ours = Object.values(Method);
      expect(new Set(ours).size).toBe(ours.length);
      expect([...ours].sort()).toEqual([...fromSchema].sort());
      for (const [key, value] of Object.entries(Method)) {
        const pascal = value
          .split(/[/_]/)
          .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
          .join("");
        expect(key).toBe(pascal);
      }
    });

    it("every request and notification definition of the schema belongs to a client or server union", () => {
      const members = new Set<string>();
      for (const union of ["ClientRequest", "ServerRequest", "ClientNotification", "ServerNotification"]) {
        for (const branch of schema.$defs[union]!.anyOf as Schema[]) members.add(String(branch.$ref).replace("#/$defs/", ""));
      }
      const withMethod = defs.filter(([, def]) => typeof def.properties?.method?.const === "string").map(([name]) => name);
      expect(withMethod.length).toBe(Object.keys(Method).length);
      expect(withMethod.filter((name) => !members.has(name))).toEqual([]);
    });

    it("META_PROGRESS_TOKEN is the only property the schema declares on a _meta object", () => {
      const declared = new Set<string>();
      walk((s) => {
        const meta = (s.properties as Record<string, Schema> | undefined)?._meta;
        for (const key of Object.keys(meta?.properties ?? {})) declared.add(key);
      });
      expect([...declared]).toEqual([c.META_PROGRESS_TOKEN]);
      expect(c.META_PROGRESS_TOKEN).toBe("progressToken");
    });

    it("ErrorCode holds the JSON-RPC codes and -32002, integers as the schema's error code is", () => {
      expect(ErrorCode).toEqual(BASE_CODES);
      // No definition fixes an error code in this revision; the codes come from the spec's text.
      const fixed = defs.filter(([, def]) => def.properties?.code?.const !== undefined || def.properties?.error?.properties?.code?.const);
      expect(fixed).toEqual([]);
      expect(schema.$defs.JSONRPCError?.properties?.error?.properties?.code?.type).toBe("integer");
    });

    it("the constant objects are frozen", () => {
      for (const object of [Method, ErrorCode]) expect(Object.isFrozen(object)).toBe(true);
    });
  });
}
