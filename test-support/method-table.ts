/**
 * The method-table tests every generated revision package runs (see
 * packages/mcp-v*\/test/methods.test.ts): the generated method table
 * (src/generated/methods.ts) against the schema and the hand-written `Method`
 * constants, and the generator's refusal to guess a result it cannot find
 * (scripts/lib/methods.mjs). Each package calls it once with its own revision.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** A JSON Schema, loosely typed for walking. */
type Schema = { [key: string]: any };

/** What the tests need of one revision package. */
export interface RevisionUnderTest {
  /** The package's hand-written `Method` constants. */
  Method: Record<string, string>;
  /** The repository root (where scripts/lib/methods.mjs is). */
  repoRoot: string;
  /** The package's src/generated folder. */
  generatedDir: string;
  /** The revision's synced schema.json. */
  schema: { $defs: Record<string, Schema> };
}

interface MethodsModule {
  methodTable(schema: { $defs: Record<string, Schema> }): {
    requests: { method: string; name: string; result: string; response: string[] }[];
    notifications: { method: string; name: string }[];
  };
}

/** Declares the method-table tests of one revision package. */
export async function describeMethodTable({ Method, repoRoot, generatedDir, schema }: RevisionUnderTest): Promise<void> {
  const methods = (await import(pathToFileURL(join(repoRoot, "scripts/lib/methods.mjs")).href)) as MethodsModule;

  /** The property names of an exported interface of methods.ts, read with the compiler, not with a regular expression. */
  function interfaceKeys(name: string): string[] {
    const source = ts.createSourceFile("methods.ts", readFileSync(join(generatedDir, "methods.ts"), "utf8"), ts.ScriptTarget.ES2022, false);
    const declaration = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
    if (!declaration) throw new Error(`methods.ts declares no interface ${name}`);
    return declaration.members.map((member) => {
      if (!member.name || !ts.isStringLiteral(member.name)) throw new Error(`${name} has a member that is not a string literal`);
      return member.name.text;
    });
  }

  /** Method strings of the schema's `*<suffix>` definitions whose `method` is a `const`. */
  function schemaMethods(suffix: string): Set<string> {
    const found = new Set<string>();
    for (const [name, def] of Object.entries(schema.$defs)) {
      const method = (def.properties as Record<string, Schema> | undefined)?.method?.const;
      if (name.endsWith(suffix) && typeof method === "string") found.add(method);
    }
    return found;
  }

  describe("methods.ts", () => {
    const requestKeys = interfaceKeys("RequestMethods");
    const notificationKeys = interfaceKeys("NotificationMethods");

    it("RequestMethods lists every request method of Method that the schema defines, and nothing else", () => {
      const requests = schemaMethods("Request");
      const expected = Object.values(Method).filter((m) => requests.has(m));
      expect(expected.length).toBeGreaterThan(0);
      expect([...requestKeys].sort()).toEqual([...expected].sort());
    });

    it("NotificationMethods lists every notification method of Method that the schema defines, and nothing else", () => {
      const notifications = schemaMethods("Notification");
      const expected = Object.values(Method).filter((m) => notifications.has(m));
      expect([...notificationKeys].sort()).toEqual([...expected].sort());
    });

    it("every method of Method is in exactly one of the two tables", () => {
      for (const method of Object.values(Method)) {
        expect(Number(requestKeys.includes(method)) + Number(notificationKeys.includes(method)), method).toBe(1);
      }
    });
  });

  describe("the method table generator", () => {
    const copy = () => structuredClone(schema) as { $defs: Record<string, Schema> };

    it("pairs each request with a result definition of the schema", () => {
      const table = methods.methodTable(copy());
      for (const request of table.requests) {
        expect(Object.hasOwn(schema.$defs, request.result), request.method).toBe(true);
        expect(request.response).toContain(request.result);
      }
    });

    it("fails on a request whose result it cannot find, naming it", () => {
      const defs = copy().$defs;
      defs.FrobnicateRequest = {
        properties: { method: { const: "x/frobnicate", type: "string" }, params: { $ref: "#/$defs/PaginatedRequestParams" } },
        required: ["method"],
        type: "object",
      };
      expect(() => methods.methodTable({ $defs: defs })).toThrow(/cannot find the result of FrobnicateRequest \("x\/frobnicate"\)/);
    });

    it("fails when a response definition and the naming rule disagree", () => {
      const defs = copy().$defs;
      const link = Object.keys(defs).find((n) => n.endsWith("ResultResponse") && n !== "JSONRPCResultResponse");
      if (link === undefined) {
        // This revision links requests to results by name only: break the naming rule's target instead.
        delete defs.CallToolResult;
        expect(() => methods.methodTable({ $defs: defs })).toThrow(/cannot find the result of CallToolRequest/);
        return;
      }
      (defs[link] as Schema).properties.result = { $ref: "#/$defs/EmptyResult" };
      expect(() => methods.methodTable({ $defs: defs })).toThrow(/but the naming rule gives/);
    });

    it("fails when a direction union's result union lacks a request's result", () => {
      const defs = copy().$defs;
      const results = defs.ServerResult as Schema;
      results.anyOf = (results.anyOf as Schema[]).filter((member) => member.$ref !== "#/$defs/ListToolsResult");
      expect(() => methods.methodTable({ $defs: defs })).toThrow(
        /ListToolsRequest is in ClientRequest, but its result ListToolsResult is not in ServerResult/,
      );
    });
  });
}
