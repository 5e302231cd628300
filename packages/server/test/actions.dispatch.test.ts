import { describe, expect, it } from "vitest";
import { headersFor, meta, request, rpc } from "./helpers.js";
import { callTool, serve } from "./actions-fixture.js";

const srv = serve();

describe("action tools: the dispatch gates, over HTTP", () => {
  it("[A46] a property is supplied when its key is present, even with null, for required and requiredOneOf", async () => {
    const required = await callTool(srv.url, "tasks", { action: "get", data: { id: null } });
    // Supplied (the required gate passes); the value gate then refuses null for an integer.
    expect(required.body.error).toBe("invalid_values");
    expect(required.body.invalid).toEqual([{ path: "/id", problems: ["must be integer"] }]);
    const oneOf = await callTool(srv.url, "tasks", { action: "get_pull_request", data: { url: null } });
    expect(oneOf.body.error).toBe("invalid_values");
    const absent = await callTool(srv.url, "tasks", { action: "get", data: {} });
    expect(absent.body.error).toBe("missing_required_fields");
    expect(absent.body.missing).toEqual(["id"]);
  });

  it("[A47] defaults are applied after the gates, fill only omitted keys and never satisfy required", async () => {
    const filled = await callTool(srv.url, "tasks", { action: "create", data: { name: "a" } });
    expect(filled.result.isError).toBeUndefined();
    expect(filled.body).toMatchObject({ created: "a", priority: 3, tags: ["inbox"] });
    const kept = await callTool(srv.url, "tasks", { action: "create", data: { name: "b", priority: 5, tags: [] } });
    expect(kept.body).toMatchObject({ created: "b", priority: 5, tags: [] });
    // echo has a default for s: a sent value wins, and the default is not checked against the caller's types.
    const echo = await callTool(srv.url, "tasks", { action: "echo", data: { s: "mine" } });
    expect(echo.body.data).toEqual({ s: "mine" });
    const echoDefault = await callTool(srv.url, "tasks", { action: "echo", data: {} });
    expect(echoDefault.body.data).toEqual({ s: "default" });
    // A default never stands in for a required property: create without name is refused.
    const missing = await callTool(srv.url, "tasks", { action: "create", data: { priority: 2 } });
    expect(missing.body.error).toBe("missing_required_fields");
    // The value gate reads the data as sent, before defaults: a bad sent value is refused even where a default exists.
    const badPriority = await callTool(srv.url, "tasks", { action: "create", data: { name: "c", priority: "high" } });
    expect(badPriority.body.error).toBe("invalid_values");
  });

  it("[A48] null is checked by the value gate; a clearable field declares [T, null]", async () => {
    const refused = await callTool(srv.url, "tasks", { action: "create", data: { name: null } });
    expect(refused.body).toMatchObject({ error: "invalid_values", invalid: [{ path: "/name", problems: ["must be string"] }] });
    const cleared = await callTool(srv.url, "tasks", { action: "create", data: { name: "n", note: null } });
    expect(cleared.result.isError).toBeUndefined();
    const help = await callTool(srv.url, "help", { tool: "tasks", action: "create" });
    expect(help.body.properties.note).toEqual({ type: ["string", "null"] });
  });

  it("[A49] the gates run in order, first failure wins; names are checked before types", async () => {
    const gates: [unknown, string][] = [
      [{ action: 5, extra: 1 }, "unknown_arguments"],
      [{ action: 5, data: [] }, "invalid_argument_type"],
      [{ data: { zzz: 1 } }, "missing_action"],
      [{ action: "nope", data: { zzz: 1 } }, "unknown_action"],
      [{ action: "create", data: { zzz: 1, priority: "x" } }, "missing_required_fields"],
      [{ action: "get_pull_request", data: { zzz: 1, pr_id: "x" } }, "required_one_of_unsatisfied"],
      [{ action: "create", data: { name: "x", zzz: 1, priority: "x" } }, "unknown_params"],
      [{ action: "create", data: { name: "x", priority: "x" } }, "invalid_values"],
    ];
    for (const [args, expected] of gates) {
      const { result, body } = await callTool(srv.url, "tasks", args);
      expect(result.isError, expected).toBe(true);
      expect(body.error, JSON.stringify(args)).toBe(expected);
    }
    // Fixing one mistake surfaces the next one, one per attempt.
    const typeAfterName = await callTool(srv.url, "tasks", { action: 5 });
    expect(typeAfterName.body).toMatchObject({ error: "invalid_argument_type", argument: "action", expected: "string", got: "number" });
    const nullData = await callTool(srv.url, "tasks", { action: "get", data: null });
    expect(nullData.body).toMatchObject({ error: "invalid_argument_type", argument: "data", expected: "object", got: "null" });
  });

  it("[A50] every gate answers isError content (not a JSON-RPC error) with a help pointer", async () => {
    const cases: [unknown, Record<string, unknown>][] = [
      [{ bogus: 1 }, { tool: "tasks" }],
      [{ action: [] }, { tool: "tasks" }],
      [{}, { tool: "tasks" }],
      [{ action: "nope" }, { tool: "tasks" }],
      [{ action: "get" }, { tool: "tasks", action: "get" }],
      [
        { action: "get_pull_request", data: {} },
        { tool: "tasks", action: "get_pull_request" },
      ],
      [
        { action: "get", data: { id: 1, x: 1 } },
        { tool: "tasks", action: "get" },
      ],
      [
        { action: "get", data: { id: "1" } },
        { tool: "tasks", action: "get" },
      ],
    ];
    for (const [args, pointer] of cases) {
      const res = await rpc(srv.url, "tools/call", { name: "tasks", arguments: args });
      expect(res.status).toBe(200);
      expect(res.json.error).toBeUndefined();
      const result = res.json.result;
      expect(result.isError).toBe(true);
      expect(result.content).toHaveLength(1);
      const body = JSON.parse(result.content[0].text);
      expect(result.structuredContent).toEqual(body);
      expect(body.help).toEqual({ tool: "help", arguments: pointer });
      expect(typeof body.message).toBe("string");
      // The pointer is a call that works.
      const followed = await callTool(srv.url, body.help.tool, body.help.arguments);
      expect(followed.result.isError).toBeUndefined();
    }
  });

  it("[A51] gates 5-8 carry the input_schema digest; required_one_of only when declared", async () => {
    const missing = await callTool(srv.url, "tasks", { action: "create", data: {} });
    expect(missing.body.input_schema).toEqual({
      properties: {
        name: { type: "string", description: "The task's name, as written" },
        priority: { type: "integer", minimum: 1, maximum: 5 },
        due: { type: "string", format: "date" },
        tags: { type: "array", items: { type: "string" } },
        note: { type: ["string", "null"] },
      },
      required: ["name"],
      defaults: { priority: 3, tags: ["inbox"] },
    });
    expect("required_one_of" in missing.body.input_schema).toBe(false);
    const oneOf = await callTool(srv.url, "tasks", { action: "get_pull_request", data: { project_key: "P" } });
    expect(oneOf.body.error).toBe("required_one_of_unsatisfied");
    expect(oneOf.body.input_schema.required_one_of).toEqual([["url"], ["project_key", "repo_slug", "pr_id"]]);
    expect(oneOf.body.input_schema.required).toEqual([]);
    expect(oneOf.body.input_schema.defaults).toEqual({});
    const unknown = await callTool(srv.url, "tasks", { action: "get", data: { id: 1, x: 1 } });
    expect(unknown.body.input_schema).toEqual({ properties: { id: { type: "integer" } }, required: ["id"], defaults: {} });
    const invalid = await callTool(srv.url, "tasks", { action: "get", data: { id: "1" } });
    expect(invalid.body.input_schema).toEqual(unknown.body.input_schema);
    // The arguments-level and action gates carry no digest.
    for (const args of [{ bogus: 1 }, { action: 1 }, {}, { action: "nope" }]) {
      expect((await callTool(srv.url, "tasks", args)).body.input_schema).toBeUndefined();
    }
    // The digest states the closure the gate enforces.
    const configure = await callTool(srv.url, "tasks", { action: "configure", data: { nope: 1 } });
    expect(configure.body.input_schema.properties.settings.additionalProperties).toBe(false);
    expect(configure.body.input_schema.properties.settings.properties.layout.additionalProperties).toBe(false);
    expect(configure.body.input_schema.properties.extras.additionalProperties).toBe(true);
    expect(configure.body.input_schema.properties.free.additionalProperties).toBeUndefined();
  });

  it("[A52] the action gates list the valid action names", async () => {
    const names = ["configure", "create", "echo", "fail", "fail_hinted", "get", "get_pull_request"];
    const missing = await callTool(srv.url, "tasks", { data: {} });
    expect(missing.body).toMatchObject({ error: "missing_action", valid_actions: names });
    const unknown = await callTool(srv.url, "tasks", { action: "crate" });
    expect(unknown.body).toMatchObject({ error: "unknown_action", action: "crate", valid_actions: names });
    expect(unknown.body.message).toContain("create");
  });

  it("[A53] unknown keys at every depth, with the closure rules; one bounded answer; a bulk call refused whole", async () => {
    const nested = await callTool(srv.url, "tasks", {
      action: "configure",
      data: {
        settings: { theme: "dark", layout: { cols: 2, rows: 3 }, font: "x" },
        labels: { bug: { color: "red", shade: 1 }, anything: {} },
        extras: { a: "x", whatever: { deep: true } },
        free: { any: { thing: 1 } },
        sealed: { k: 1 },
        stray: true,
      },
    });
    expect(nested.body.error).toBe("unknown_params");
    expect(nested.body.unknown).toEqual(["/labels/bug/shade", "/sealed/k", "/settings/font", "/settings/layout/rows", "/stray"]);
    expect(nested.body.unknown_count).toBe(5);
    // Every object on the way to a listed key, data itself under "", with the names it admits.
    expect(nested.body.allowed).toEqual({
      "": ["extras", "free", "items", "labels", "sealed", "settings"],
      "/labels": ["<any string key>"],
      "/labels/bug": ["color"],
      "/sealed": [],
      "/settings": ["layout", "theme"],
      "/settings/layout": ["cols"],
    });
    // additionalProperties: true, a free-form object and an additionalProperties schema admit their keys.
    const open = await callTool(srv.url, "tasks", {
      action: "configure",
      data: { extras: { a: "x", b: 1 }, free: { z: 1 }, labels: { any: { color: "x" } } },
    });
    expect(open.result.isError).toBeUndefined();
    expect(open.body.configured).toEqual(["extras", "free", "labels"]);
    // Many unknown keys: the first ten in sort order are listed, all are counted; one bad item refuses the bulk call.
    const items = Array.from({ length: 30 }, (_, i) => ({ id: i, [`k${String(i).padStart(2, "0")}`]: 1 }));
    const bulk = await callTool(srv.url, "tasks", { action: "configure", data: { items } });
    expect(bulk.body.unknown_count).toBe(30);
    expect(bulk.body.unknown).toHaveLength(10);
    expect(bulk.body.unknown).toEqual([...bulk.body.unknown].sort());
    expect(bulk.body.unknown[0]).toBe("/items/0/k00");
    expect(Object.keys(bulk.body.allowed)).toHaveLength(11);
    expect(bulk.body.allowed["/items/0"]).toEqual(["id"]);
    const oneBad = await callTool(srv.url, "tasks", { action: "configure", data: { items: [{ id: 1 }, { id: 2, x: 1 }, { id: 3 }] } });
    expect(oneBad.body).toMatchObject({ error: "unknown_params", unknown: ["/items/1/x"], unknown_count: 1 });
  });

  it("[A53] a __proto__ or constructor key is an unknown key like any other", async () => {
    const args = JSON.parse('{"action":"get","data":{"id":1,"__proto__":{"polluted":true},"constructor":1}}');
    const res = await callTool(srv.url, "tasks", args);
    expect(res.body).toMatchObject({ error: "unknown_params", unknown: ["/__proto__", "/constructor"], unknown_count: 2 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const action = await callTool(srv.url, "tasks", { action: "constructor" });
    expect(action.body.error).toBe("unknown_action");
  });

  it("[A53] an additionalProperties schema shows as <any string key> in allowed", async () => {
    const res = await callTool(srv.url, "tasks", { action: "configure", data: { labels: { a: { color: "x", weight: 1 } } } });
    expect(res.body.unknown).toEqual(["/labels/a/weight"]);
    expect(res.body.allowed).toEqual({
      "": ["extras", "free", "items", "labels", "sealed", "settings"],
      "/labels": ["<any string key>"],
      "/labels/a": ["color"],
    });
  });

  it("[A54] the value gate runs last, formats asserted, before defaults, never quoting a value; 2.0 arrives as 2", async () => {
    const secret = "SECRET-VALUE-THAT-MUST-NOT-COME-BACK";
    const res = await callTool(srv.url, "tasks", {
      action: "create",
      data: { name: 5, priority: 9, due: secret, tags: [1, "ok", 2] },
    });
    expect(res.body.error).toBe("invalid_values");
    expect(res.body.invalid_count).toBe(5);
    expect(res.body.invalid).toEqual([
      { path: "/due", problems: ['must match format "date"'] },
      { path: "/name", problems: ["must be string"] },
      { path: "/priority", problems: ["must be <= 5"] },
      { path: "/tags/0", problems: ["must be string"] },
      { path: "/tags/2", problems: ["must be string"] },
    ]);
    expect(res.text).not.toContain(secret);
    // More than ten bad values: ten listed, all counted.
    const many = await callTool(srv.url, "tasks", { action: "create", data: { name: "x", tags: Array.from({ length: 25 }, (_, i) => i) } });
    expect(many.body.invalid).toHaveLength(10);
    expect(many.body.invalid_count).toBe(25);
    // A whole-number float for an integer property passes and reaches the action as an integer.
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 77,
      method: "tools/call",
      params: { name: "tasks", arguments: { action: "echo", data: { n: 2 } }, _meta: meta() },
    }).replace('"n":2', '"n":2.0');
    expect(body).toContain('"n":2.0');
    const raw = await fetch(srv.url, { method: "POST", headers: headersFor({ method: "tools/call", params: { name: "tasks" } }), body });
    const answer = await raw.json();
    const echoed = JSON.parse(answer.result.content[0].text);
    expect(echoed).toMatchObject({ data: { n: 2, s: "default" }, isInteger: true });
    const fraction = await callTool(srv.url, "tasks", { action: "echo", data: { n: 2.5 } });
    expect(fraction.body.invalid).toEqual([{ path: "/n", problems: ["must be integer"] }]);
  });

  it("[A55] quoted names and values are bounded; unknown_arguments lists the first ten sorted keys and unknown_count", async () => {
    const huge = "k".repeat(100_000);
    const args: Record<string, unknown> = { action: "get", [huge]: 1 };
    for (let i = 0; i < 15; i++) args[`x${String(i).padStart(2, "0")}`] = i;
    const res = await callTool(srv.url, "tasks", args);
    expect(res.body.error).toBe("unknown_arguments");
    expect(res.body.unknown_count).toBe(16);
    expect(res.body.unknown).toHaveLength(10);
    expect(res.body.unknown[0]!.length).toBeLessThan(200);
    expect(res.body.unknown[0]).toMatch(/^k+…\(\d+ more characters\)$/);
    expect(res.body.unknown.slice(1)).toEqual(["x00", "x01", "x02", "x03", "x04", "x05", "x06", "x07", "x08"]);
    expect(res.body.allowed).toEqual(["action", "data"]);
    expect(res.text.length).toBeLessThan(3000);
    const action = await callTool(srv.url, "tasks", { action: huge });
    expect(action.body.action.length).toBeLessThan(200);
    expect(action.text.length).toBeLessThan(2000);
    const param = await callTool(srv.url, "tasks", { action: "get", data: { id: 1, [huge]: 1 } });
    expect(param.body.unknown[0].length).toBeLessThan(200);
    expect(param.text.length).toBeLessThan(3000);
    const value = await callTool(srv.url, "tasks", { action: "configure", data: { labels: { [huge]: { color: 5 } } } });
    expect(value.body.error).toBe("invalid_values");
    expect(value.body.invalid[0].path.length).toBeLessThan(250);
    expect(value.text.length).toBeLessThan(3000);
  });

  it("[A56] JSON-RPC errors only for CallToolRequest failures: -32602 for no name, non-object arguments, an unknown tool; -32601/404 for an unknown method", async () => {
    // Over HTTP a call without a name already fails the Mcp-Name header check (-32020); the dispatcher's own answer is -32602.
    const noName = await srv.server!.handle(request("tools/call", { arguments: { action: "get" } }));
    expect(noName.response).toMatchObject({ error: { code: -32602 } });
    const badArgs = await rpc(srv.url, "tools/call", { name: "tasks", arguments: ["get"] });
    expect(badArgs.json.error.code).toBe(-32602);
    const unknownTool = await rpc(srv.url, "tools/call", { name: "taskz", arguments: { action: "get" } });
    expect(unknownTool.status).toBe(200);
    expect(unknownTool.json.error.code).toBe(-32602);
    expect(unknownTool.json.error.message).toContain("taskz");
    const unknownMethod = await rpc(srv.url, "tasks/run", {});
    expect(unknownMethod.status).toBe(404);
    expect(unknownMethod.json.error.code).toBe(-32601);
    // Everything inside the arguments, by contrast, is the gates' isError answer.
    const inside = await rpc(srv.url, "tools/call", { name: "tasks", arguments: { action: "nope" } });
    expect(inside.json.result.isError).toBe(true);
  });
});
