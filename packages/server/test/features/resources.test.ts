// The resources feature (src/features/resources.ts): resources and templates, the resources capability,
// resources/list, resources/templates/list and resources/read.
import { validate } from "@x/mcp-v2607";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpServer, type RunningHttpServer } from "../../src/index.js";
import { listenTo, rpc, send } from "../helpers.js";

function resourceServer(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer({ name: "resources", version: "1.0.0" }, options);
  server.registerResource("readme", "file:///readme.md", { description: "The readme", mimeType: "text/markdown" }, () => "# Hello");
  server.registerResource("logo", "file:///logo.png", { mimeType: "image/png", cache: { ttlMs: 5000, cacheScope: "public" } }, (uri) => ({
    uri,
    mimeType: "image/png",
    blob: "iVBORw0KGgo=",
  }));
  server.registerResourceTemplate("user", "users://{id}/profile", { mimeType: "application/json" }, (uri, { id }) =>
    JSON.stringify({ id, uri }),
  );
  server.registerResourceTemplate(
    "files",
    "files:///{+path}{?rev}",
    { mimeType: "text/plain" },
    (_uri, vars) => `path=${vars.path} rev=${vars.rev ?? "-"}`,
  );
  return server;
}

let running: RunningHttpServer;
beforeAll(async () => {
  running = await listen(resourceServer({ cache: { ttlMs: 1000, cacheScope: "private" } }), { port: 0 });
});
afterAll(() => running.close());

describe("resources/list and resources/templates/list", () => {
  it("lists static resources with cache hints, and templates separately", async () => {
    const list = (await rpc(running.url, "resources/list")).json.result;
    expect(validate("ListResourcesResult", list).ok).toBe(true);
    expect(list.resources.map((r: { uri: string }) => r.uri)).toEqual(["file:///readme.md", "file:///logo.png"]);
    expect(list.resources[0]).toEqual({ uri: "file:///readme.md", name: "readme", description: "The readme", mimeType: "text/markdown" });
    expect(list).toMatchObject({ ttlMs: 1000, cacheScope: "private" });
    const templates = (await rpc(running.url, "resources/templates/list")).json.result;
    expect(validate("ListResourceTemplatesResult", templates).ok).toBe(true);
    expect(templates.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual([
      "users://{id}/profile",
      "files:///{+path}{?rev}",
    ]);
  });

  it("adds the concrete resources a template lists after the static ones, and publishes size, title and annotations", async () => {
    const s = new McpServer({ name: "r", version: "1" });
    s.registerResource("a", "file:///a", { title: "A", size: 12, annotations: { priority: 0.5 } }, () => "a");
    s.registerResourceTemplate(
      "users",
      "users://{id}",
      { description: "A user", list: async () => [{ uri: "users://1", name: "one" }] },
      (_uri, { id }) => `user ${id}`,
    );
    const list = (await send(s, "resources/list")).result;
    expect(list.resources).toEqual([
      { uri: "file:///a", name: "a", title: "A", size: 12, annotations: { priority: 0.5 } },
      { uri: "users://1", name: "one" },
    ]);
    expect((await send(s, "resources/templates/list")).result.resourceTemplates).toEqual([
      { uriTemplate: "users://{id}", name: "users", description: "A user" },
    ]);
  });

  it("pages both lists with the server's pageSize", async () => {
    const s = new McpServer({ name: "r", version: "1" }, { pageSize: 2 });
    for (const n of [1, 2, 3]) {
      s.registerResource(`r${n}`, `file:///${n}`, {}, () => "");
      s.registerResourceTemplate(`t${n}`, `t${n}://{x}`, {}, () => "");
    }
    for (const [method, key] of [
      ["resources/list", "resources"],
      ["resources/templates/list", "resourceTemplates"],
    ] as const) {
      const first = (await send(s, method)).result;
      expect(first[key], method).toHaveLength(2);
      const second = (await send(s, method, { cursor: first.nextCursor })).result;
      expect(second[key], method).toHaveLength(1);
      expect("nextCursor" in second, method).toBe(false);
      expect((await send(s, method, { cursor: "junk" })).error.code, method).toBe(-32602);
    }
  });
});

describe("resources/read", () => {
  it("reads text and blob contents, with per-registration cache hints winning", async () => {
    const text = (await rpc(running.url, "resources/read", { uri: "file:///readme.md" })).json.result;
    expect(validate("ReadResourceResult", text).ok).toBe(true);
    expect(text.contents).toEqual([{ uri: "file:///readme.md", mimeType: "text/markdown", text: "# Hello" }]);
    expect(text).toMatchObject({ ttlMs: 1000, cacheScope: "private" });
    const blob = (await rpc(running.url, "resources/read", { uri: "file:///logo.png" })).json.result;
    expect(blob.contents[0]).toEqual({ uri: "file:///logo.png", mimeType: "image/png", blob: "iVBORw0KGgo=" });
    expect(blob).toMatchObject({ ttlMs: 5000, cacheScope: "public" });
  });

  it("matches URI templates (levels 1 to 4) and passes the variables", async () => {
    const user = (await rpc(running.url, "resources/read", { uri: "users://alice/profile" })).json.result;
    expect(JSON.parse(user.contents[0].text)).toEqual({ id: "alice", uri: "users://alice/profile" });
    const file = (await rpc(running.url, "resources/read", { uri: "files:///a/b/c.txt?rev=7" })).json.result;
    expect(file.contents[0].text).toBe("path=a/b/c.txt rev=7");
  });

  it("passes an exploded variable as a list", async () => {
    const s = new McpServer({ name: "t", version: "1" });
    s.registerResourceTemplate("path", "tree://x{/path*}", {}, (_uri, { path }) => JSON.stringify(path));
    const read = (await send(s, "resources/read", { uri: "tree://x/a/b/c" })).result;
    expect(JSON.parse(read.contents[0].text)).toEqual(["a", "b", "c"]);
  });

  it("never lets a simple variable swallow a slash", async () => {
    const res = await rpc(running.url, "resources/read", { uri: "users://a/b/profile" });
    expect(res.json.error).toMatchObject({ code: -32602, data: { uri: "users://a/b/profile" } });
  });

  it("answers an unknown URI with -32602 and data.uri, never empty contents", async () => {
    const res = await rpc(running.url, "resources/read", { uri: "file:///nope" });
    expect(res.status).toBe(200);
    expect(res.json.error).toEqual({ code: -32602, message: "Resource not found", data: { uri: "file:///nope" } });
  });

  it("answers a uri that is not a string with -32602", async () => {
    const s = resourceServer();
    expect((await send(s, "resources/read", {})).error.code).toBe(-32602);
    expect((await send(s, "resources/read", { uri: 7 })).error.code).toBe(-32602);
  });

  it("tries a static resource first, then the templates in registration order", async () => {
    const s = new McpServer({ name: "order", version: "1" });
    s.registerResourceTemplate("any", "items://{id}", {}, (_uri, { id }) => `first template: ${id}`);
    s.registerResourceTemplate("also", "items://{id}", {}, () => "second template");
    s.registerResource("fixed", "items://fixed", {}, () => "static");
    const read = async (uri: string) => (await send(s, "resources/read", { uri })).result.contents[0].text;
    expect(await read("items://fixed")).toBe("static");
    expect(await read("items://7")).toBe("first template: 7");
    s.removeResourceTemplate("any");
    expect(await read("items://7")).toBe("second template");
  });

  it("shapes every handler return: contents, one entry, a full result; anything else is -32603", async () => {
    const errors: unknown[] = [];
    const s = new McpServer({ name: "shapes", version: "1" }, { onError: (error) => errors.push(error) });
    s.registerResource("list", "x:///list", {}, (uri) => [
      { uri, text: "one" },
      { uri: `${uri}#2`, blob: "AA==" },
    ]);
    s.registerResource("entry", "x:///entry", { mimeType: "text/plain" }, (uri) => ({ uri, text: "entry" }));
    s.registerResource("full", "x:///full", {}, (uri) => ({ resultType: "complete", contents: [{ uri, text: "full" }] }) as never);
    s.registerResource("junk", "x:///junk", {}, () => 42 as never);
    const read = async (uri: string) => send(s, "resources/read", { uri });
    expect((await read("x:///list")).result.contents).toEqual([
      { uri: "x:///list", text: "one" },
      { uri: "x:///list#2", blob: "AA==" },
    ]);
    // A contents entry is sent as returned: the registration's mimeType fills in only a string return.
    expect((await read("x:///entry")).result.contents).toEqual([{ uri: "x:///entry", text: "entry" }]);
    expect((await read("x:///full")).result.contents).toEqual([{ uri: "x:///full", text: "full" }]);
    expect((await read("x:///junk")).error).toEqual({ code: -32603, message: "Internal error" });
    expect(String(errors[0])).toMatch(/not a ReadResourceResult/);
  });

  it("a result's own hints win over the registration's and the method's, and are checked", async () => {
    const s = new McpServer({ name: "h", version: "1" }, { cache: { ttlMs: 10 }, onError: () => {} });
    s.registerResource("own", "file:///own", { cache: { ttlMs: 20 } }, (uri) => ({
      resultType: "complete",
      contents: [{ uri, text: "x" }],
      ttlMs: 30,
      cacheScope: "public",
    }));
    s.registerResource("registered", "file:///registered", { cache: { ttlMs: 20 } }, () => "x");
    s.registerResource("bad", "file:///bad", {}, (uri) => ({ resultType: "complete", contents: [{ uri, text: "x" }], ttlMs: -1 }) as never);
    expect((await send(s, "resources/read", { uri: "file:///own" })).result).toMatchObject({ ttlMs: 30, cacheScope: "public" });
    expect((await send(s, "resources/read", { uri: "file:///registered" })).result).toMatchObject({ ttlMs: 20, cacheScope: "private" });
    expect((await send(s, "resources/read", { uri: "file:///bad" })).error.code).toBe(-32603);
  });
});

describe("a template's list()", () => {
  it("is checked: an entry without a string uri is an internal error", async () => {
    const s = new McpServer({ name: "l", version: "1" });
    s.registerResourceTemplate("t", "x://{a}", { list: () => [{ name: "no uri" }] as never }, () => "");
    expect((await send(s, "resources/list")).error.code).toBe(-32603);
  });
});

describe("registration", () => {
  it("refuses a taken URI or template name, an empty name or URI, a template that is no string, bad hints or completers", () => {
    const s = resourceServer();
    expect(() => s.registerResource("again", "file:///readme.md", {}, () => "")).toThrow(
      /resource file:\/\/\/readme\.md is already registered/,
    );
    expect(() => s.registerResourceTemplate("user", "other://{x}", {}, () => "")).toThrow(/resource template user is already registered/);
    expect(() => s.registerResource("", "file:///x", {}, () => "")).toThrow(/non-empty/);
    expect(() => s.registerResource("x", "", {}, () => "")).toThrow(/resource x: uri/);
    expect(() => s.registerResource("h", "file:///h", {}, "x" as never)).toThrow(/resource h: read handler must be a function/);
    expect(() => s.registerResourceTemplate("broken", 5 as never, {}, () => "")).toThrow(
      /resource template broken: 5 is not an RFC 6570 template/,
    );
    expect(() => s.registerResource("r", "file:///r", { cache: { ttlMs: 1.5 } }, () => "")).toThrow(/ttlMs/);
    expect(() => s.registerResourceTemplate("t", "x://{a}", { complete: { b: () => [] } }, () => "")).toThrow(/names no template variable/);
  });

  it("refuses a template that is not RFC 6570 syntax, and accepts every operator and modifier it defines", () => {
    const s = resourceServer();
    for (const bad of ["x://{a", "y://{}", "z://a}", "w://{a b}", "v://{=a}", "u://{a:0}", "t://{a:10000}", "s://{a..b}", "r://{{a}}"]) {
      expect(() => s.registerResourceTemplate(`bad ${bad}`, bad, {}, () => ""), bad).toThrow(/is not an RFC 6570 template/);
    }
    const good = [
      "a://{x}",
      "b://{+x}",
      "c://{#x}",
      "d://x{.y}",
      "e://x{/y*}",
      "f://x{;y}",
      "g://x{?y,z}",
      "h://x{&y:3}",
      "i://{x.y}",
      "j://{%41}",
    ];
    for (const uri of good) s.registerResourceTemplate(`good ${uri}`, uri, {}, () => "");
  });

  it("never matches a read against a broken template (it is refused at registration instead)", async () => {
    const s = resourceServer();
    expect(() => s.registerResourceTemplate("open", "x://{a", {}, () => "matched")).toThrow();
    const r = await send(s, "resources/read", { uri: "x://q" });
    expect(r.error?.code).toBe(-32602);
  });
});

describe("resources capability and notifications/resources/list_changed", () => {
  it("is advertised while there is a resource or a template; every change tells resourcesListChanged listeners", async () => {
    const s = new McpServer({ name: "r", version: "1" });
    expect(s.capabilities().resources).toBeUndefined();
    for (const method of ["resources/list", "resources/templates/list", "resources/read"]) {
      expect((await send(s, method, { uri: "file:///a" })).error.code, method).toBe(-32601);
    }
    s.registerResourceTemplate("t", "t://{x}", {}, () => "t");
    expect((await send(s, "server/discover")).result.capabilities.resources).toEqual({ listChanged: true, subscribe: true });
    const listener = listenTo(s, { resourcesListChanged: true });
    expect(listener.granted()).toEqual({ resourcesListChanged: true });
    s.registerResource("a", "file:///a", {}, () => "a");
    expect(s.removeResource("file:///a")).toBe(true);
    expect(s.removeResource("file:///a")).toBe(false);
    expect(s.removeResourceTemplate("t")).toBe(true);
    expect(s.removeResourceTemplate("t")).toBe(false);
    // The acknowledgement, then one notification a change.
    expect(listener.methods()).toEqual([
      "notifications/subscriptions/acknowledged",
      ...Array(3).fill("notifications/resources/list_changed"),
    ]);
    expect(s.capabilities().resources).toBeUndefined();
    await listener.close();
  });
});
