/** The hand-written constants agree with the schema they describe. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ErrorCode, META_PROGRESS_TOKEN, META_RELATED_TASK, Method, PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "../src/index.js";
import { revision, type Schema, schema, schemaDir } from "./helpers.js";

const defs = Object.entries(schema.$defs);
const schemaText = readFileSync(join(schemaDir, "schema.json"), "utf8");

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
  it("PROTOCOL_VERSION is this package's revision, the one the schema's links point at", () => {
    expect(PROTOCOL_VERSION).toBe(revision);
    expect(PROTOCOL_VERSION).toBe("2025-11-25");
    expect(schemaText).toContain(`/specification/${PROTOCOL_VERSION}/`);
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual([revision]);
    expect(Object.isFrozen(SUPPORTED_PROTOCOL_VERSIONS)).toBe(true);
  });

  it("Method lists exactly the method constants of the schema", () => {
    const fromSchema = new Set<string>();
    walk((s) => {
      const method = (s.properties as Record<string, Schema> | undefined)?.method;
      if (typeof method?.const === "string") fromSchema.add(method.const);
    });
    const ours = Object.values(Method);
    expect(new Set(ours).size).toBe(ours.length);
    expect([...ours].sort()).toEqual([...fromSchema].sort());
    expect(ours.length).toBe(31);
  });

  it("Method has the lifecycle, logging, subscription and task methods of this revision", () => {
    expect(Method.Initialize).toBe("initialize");
    expect(Method.Ping).toBe("ping");
    expect(Method.NotificationsInitialized).toBe("notifications/initialized");
    expect(Method.LoggingSetLevel).toBe("logging/setLevel");
    expect(Method.ResourcesSubscribe).toBe("resources/subscribe");
    expect(Method.ResourcesUnsubscribe).toBe("resources/unsubscribe");
    expect([Method.TasksGet, Method.TasksResult, Method.TasksList, Method.TasksCancel]).toEqual([
      "tasks/get",
      "tasks/result",
      "tasks/list",
      "tasks/cancel",
    ]);
    expect(Method.NotificationsTasksStatus).toBe("notifications/tasks/status");
    expect(Method.NotificationsElicitationComplete).toBe("notifications/elicitation/complete");
  });

  it("Method keys are the PascalCase form of their method strings", () => {
    for (const [key, value] of Object.entries(Method)) {
      const pascal = value
        .split(/[/_]/)
        .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
        .join("");
      expect(key).toBe(pascal);
    }
  });

  it("every request and notification definition of the schema belongs to a client or server union", () => {
    const unions = ["ClientRequest", "ServerRequest", "ClientNotification", "ServerNotification"];
    const members = new Set<string>();
    for (const union of unions) {
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
    expect([...declared]).toEqual([META_PROGRESS_TOKEN]);
    expect(META_PROGRESS_TOKEN).toBe("progressToken");
  });

  it("META_RELATED_TASK is the only reserved io.modelcontextprotocol/ key the schema names", () => {
    const named = new Set(schemaText.match(/io\.modelcontextprotocol\/[A-Za-z0-9_.-]+/g) ?? []);
    expect([...named]).toEqual([META_RELATED_TASK]);
    expect(META_RELATED_TASK).toBe("io.modelcontextprotocol/related-task");
    expect(schema.$defs.RelatedTaskMetadata?.description).toContain(`\`${META_RELATED_TASK}\``);
  });

  it("ErrorCode matches the codes of the schema's error definitions, by name", () => {
    const fromSchema: Record<string, number> = {};
    for (const [name, def] of defs) {
      // Either an error object with a fixed code, or a response whose `error`
      // narrows `Error` with an allOf (`URLElicitationRequiredError`).
      const direct = def.properties?.code?.const;
      const nested = (def.properties?.error?.allOf as Schema[] | undefined)?.find((p) => p.properties?.code?.const !== undefined)
        ?.properties.code.const;
      const code = direct ?? nested;
      if (typeof code === "number") fromSchema[name] = code;
    }
    expect(fromSchema).toEqual({ URLElicitationRequiredError: -32042 });
    for (const [name, code] of Object.entries(fromSchema)) {
      expect((ErrorCode as Record<string, number>)[name.replace(/Error$/, "")]).toBe(code);
    }
  });

  it("ErrorCode adds the JSON-RPC codes and -32002, which the schema has no definitions for", () => {
    expect(ErrorCode).toEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
      ResourceNotFound: -32002,
      URLElicitationRequired: -32042,
    });
    expect(schema.$defs.Error?.properties?.code?.type).toBe("integer");
    for (const code of Object.values(ErrorCode)) expect(Number.isInteger(code)).toBe(true);
    expect(new Set(Object.values(ErrorCode)).size).toBe(Object.keys(ErrorCode).length);
  });

  it("the constant objects are frozen", () => {
    for (const object of [Method, ErrorCode]) expect(Object.isFrozen(object)).toBe(true);
  });
});
