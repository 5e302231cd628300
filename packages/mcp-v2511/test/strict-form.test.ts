/**
 * scripts/lib/strict.mjs, the strict form the generator compiles each
 * package's `./strict` validators from, and definitionsAsDefs of
 * scripts/lib/schema-walk.mjs, on small made-up schemas.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers.js";

type Schema = Record<string, any>;
interface StrictModule {
  strictDefinitions(
    schema: { $defs: Record<string, Schema> },
    open?: Set<string>,
  ): { defs: Schema; closed: number; merged: number; meta: number; envelope: number };
  openPointers(schema: { $defs: Record<string, Schema> }, entries: unknown, options: { draft07: boolean }): Set<string>;
}
const strict = (await import(pathToFileURL(join(repoRoot, "scripts/lib/strict.mjs")).href)) as StrictModule;
const { definitionsAsDefs } = (await import(pathToFileURL(join(repoRoot, "scripts/lib/schema-walk.mjs")).href)) as {
  definitionsAsDefs(schema: Schema): Schema;
};

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
const object = (properties: Schema, extra: Schema = {}) => ({ type: "object", properties, ...extra });

describe("strictDefinitions", () => {
  it("closes every object that lists its members, and nothing else", () => {
    const { defs, closed } = strict.strictDefinitions({
      $defs: {
        Thing: object({ a: { type: "string" }, nested: object({ b: { type: "number" } }) }, { required: ["a"] }),
        Open: object({ _meta: { type: "object", additionalProperties: {} } }, { additionalProperties: {} }),
        AnyObject: { type: "object" },
        Map: { type: "object", additionalProperties: { type: "string" } },
      },
    });
    expect(defs.Thing.additionalProperties).toBe(false);
    expect(defs.Thing.properties.nested.additionalProperties).toBe(false);
    expect(defs.Open.additionalProperties).toEqual({});
    expect(defs.Open.properties._meta.additionalProperties).toEqual({});
    expect(defs.AnyObject).toEqual({ type: "object" });
    expect(defs.Map.additionalProperties).toEqual({ type: "string" });
    expect(closed).toBe(2);
  });

  it("leaves open the objects at the pin's strictOpen pointers, which must name listed objects", () => {
    const schema = { $defs: { Tool: object({ inputSchema: object({ type: { const: "object" } }) }) } };
    const open = strict.openPointers(schema, [{ pointer: "/definitions/Tool/properties/inputSchema", why: "a JSON Schema" }], {
      draft07: true,
    });
    expect([...open]).toEqual(["#/$defs/Tool/properties/inputSchema"]);
    const { defs } = strict.strictDefinitions(schema, open);
    expect(defs.Tool.additionalProperties).toBe(false);
    expect(defs.Tool.properties.inputSchema.additionalProperties).toBeUndefined();
    expect(() => strict.openPointers(schema, [{ pointer: "/$defs/Tool/properties/nope", why: "x" }], { draft07: false })).toThrow(
      /names no object schema/,
    );
    expect(() => strict.openPointers(schema, [{ pointer: "/$defs/Tool" }], { draft07: false })).toThrow(/needs a pointer and a why/);
    expect(() => strict.openPointers(schema, [{ pointer: "/$defs/Tool", why: "x" }], { draft07: true })).toThrow(
      /not under \/definitions\//,
    );
  });

  it("reads an allOf as one object with the members of all its parts, a part's own openness aside", () => {
    const { defs, merged } = strict.strictDefinitions({
      $defs: {
        Result: object({ _meta: { type: "object", additionalProperties: {} } }, { additionalProperties: {} }),
        Task: object({ id: { type: "string" }, status: { type: "string" } }, { required: ["id"] }),
        TaskResult: { description: "d", allOf: [ref("Result"), ref("Task")] },
        Error: object({ code: { type: "integer" }, message: { type: "string" }, data: {} }, { required: ["code", "message"] }),
        Fixed: object({ error: { allOf: [ref("Error"), object({ code: { const: 7 }, data: object({ hint: { type: "string" } }) })] } }),
      },
    });
    expect(merged).toBe(2);
    expect(defs.TaskResult).toEqual({
      description: "d",
      type: "object",
      properties: { _meta: { type: "object", additionalProperties: {} }, id: { type: "string" }, status: { type: "string" } },
      required: ["id"],
      additionalProperties: false,
    });
    const error = defs.Fixed.properties.error;
    expect(Object.keys(error.properties)).toEqual(["code", "message", "data"]);
    expect(error.properties.code).toEqual({ allOf: [{ type: "integer" }, { const: 7 }] });
    expect(error.additionalProperties).toBe(false);
    expect(error.properties.data.additionalProperties).toBe(false);
  });

  it("refuses an allOf it cannot read as one object, and an object that requires a member it does not list", () => {
    const anyOfPart = { $defs: { A: { allOf: [object({ a: {} }), { anyOf: [{ required: ["a"] }] }] } } };
    expect(() => strict.strictDefinitions(anyOfPart)).toThrow(/cannot merge a part with anyOf/);
    const unlisted = { $defs: { A: object({ a: {} }, { required: ["b"] }) } };
    expect(() => strict.strictDefinitions(unlisted)).toThrow(/requires b, which it does not list/);
  });

  it("gives each method its JSON-RPC members and the base's _meta where the schema defines methods apart from them", () => {
    const base = {
      Request: object({
        method: { type: "string" },
        params: object({ _meta: object({ progressToken: {} }) }, { additionalProperties: {} }),
      }),
      Notification: object({ method: { type: "string" }, params: object({ _meta: { type: "object", additionalProperties: {} } }) }),
      JSONRPCRequest: object({ jsonrpc: { const: "2.0" }, id: { type: ["string", "integer"] }, method: { type: "string" } }),
      JSONRPCNotification: object({ jsonrpc: { const: "2.0" }, method: { type: "string" } }),
    };
    const apart = strict.strictDefinitions({
      $defs: {
        ...base,
        PingRequest: object({ method: { const: "ping" }, params: object({}) }, { required: ["method"] }),
        DoneNotification: object({ method: { const: "done" } }),
      },
    });
    expect(Object.keys(apart.defs.PingRequest.properties)).toEqual(["method", "params", "jsonrpc", "id"]);
    expect(apart.defs.PingRequest.required).toEqual(["method"]);
    expect(apart.defs.PingRequest.properties.params.properties._meta).toEqual({
      ...base.Request.properties.params.properties._meta,
      additionalProperties: false,
    });
    expect(Object.keys(apart.defs.DoneNotification.properties)).toEqual(["method", "jsonrpc"]);
    expect({ envelope: apart.envelope, meta: apart.meta }).toEqual({ envelope: 3, meta: 1 });
    // Once one method carries jsonrpc, a method without it is not a message (2026-07-28's input requests).
    const inline = strict.strictDefinitions({
      $defs: {
        ...base,
        PingRequest: object({ jsonrpc: { const: "2.0" }, id: {}, method: { const: "ping" } }),
        ListRootsRequest: object({ method: { const: "roots/list" } }),
      },
    });
    expect(Object.keys(inline.defs.ListRootsRequest.properties)).toEqual(["method"]);
    expect(inline.envelope).toBe(0);
  });
});

describe("definitionsAsDefs", () => {
  it("moves a draft-07 schema's definitions under $defs and points its references there, constants untouched", () => {
    const draft07 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: {
        A: { type: "object", properties: { b: { $ref: "#/definitions/B" }, c: { const: "#/definitions/B" } } },
        B: { anyOf: [{ $ref: "#/definitions/A" }, { type: "string", enum: ["#/definitions/A"] }] },
      },
    };
    expect(definitionsAsDefs(draft07)).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      $defs: {
        A: { type: "object", properties: { b: { $ref: "#/$defs/B" }, c: { const: "#/definitions/B" } } },
        B: { anyOf: [{ $ref: "#/$defs/A" }, { type: "string", enum: ["#/definitions/A"] }] },
      },
    });
    const later = { $schema: "https://json-schema.org/draft/2020-12/schema", $defs: {} };
    expect(definitionsAsDefs(later)).toBe(later);
  });
});
