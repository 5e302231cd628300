// A JavaScript caller's misspelt option is refused where it is given, naming
// it and the option it was meant to be; a handler's result without
// `resultType`, and a tool's plain string, are answered as each era needs.
import { afterAll, describe, expect, it } from "vitest";
import { createFetchHandler, createNodeHandler, listen, McpServer, serveStdio } from "../src/index.js";
import { createFetchHandler as createFetchHandler2607, McpServer as McpServer2607 } from "../src/v2607.js";
import { rpc } from "./helpers.js";
import { answerOf, open, post, rq, start } from "./legacy/helpers.js";

// What a JavaScript user can pass: the types are bypassed on purpose.
const loose = (server: McpServer) => server as any;

describe("a member that is not an option is refused at registration", () => {
  const server = new McpServer({ name: "s", version: "1" });

  it("names a tool's misspelt inputSchema and tmcp's schema", () => {
    expect(() => loose(server).registerTool("t", { inputschema: { type: "object" } }, () => "t")).toThrow(
      new TypeError('tool t: the config has no option "inputschema"; did you mean "inputSchema"?'),
    );
    expect(() => loose(server).registerTool("t", { schema: { type: "object" } }, () => "t")).toThrow(
      /tool t: the config has no option "schema" \(options: title, description, inputSchema/,
    );
  });

  it("names a prompt's argsSchema, a resource's and a template's mimetype", () => {
    expect(() => loose(server).registerPrompt("p", { argsSchema: {} }, () => "p")).toThrow(
      /^prompt p: the config has no option "argsSchema" \(options: /,
    );
    expect(() => loose(server).registerResource("r", "file:///r", { mimetype: "text/plain" }, () => "r")).toThrow(
      new TypeError('resource r: the config has no option "mimetype"; did you mean "mimeType"?'),
    );
    expect(() => loose(server).registerResourceTemplate("f", "file:///{x}", { mimetype: "text/plain" }, () => "f")).toThrow(
      new TypeError('resource template f: the config has no option "mimetype"; did you mean "mimeType"?'),
    );
  });

  it("registers nothing when it refuses", async () => {
    expect(server.capabilities().tools).toBeUndefined();
    expect(server.capabilities().prompts).toBeUndefined();
    expect(server.capabilities().resources).toBeUndefined();
  });

  it("names a misspelt McpServer option", () => {
    expect(() => new McpServer({ name: "s", version: "1" }, { pagesize: 10 } as any)).toThrow(
      new TypeError('McpServer has no option "pagesize"; did you mean "pageSize"?'),
    );
  });
});

describe("a member that is not an option of a transport is refused where it is given", () => {
  const server = new McpServer({ name: "s", version: "1" });

  it("names the nearest option of each HTTP maker and of serveStdio", async () => {
    expect(() => createFetchHandler(server, { allowedhosts: ["a"] } as any)).toThrow(
      new TypeError('createFetchHandler has no option "allowedhosts"; did you mean "allowedHosts"?'),
    );
    expect(() => createNodeHandler(server, { maxBodybytes: 1 } as any)).toThrow(
      new TypeError('createNodeHandler has no option "maxBodybytes"; did you mean "maxBodyBytes"?'),
    );
    await expect(listen(server, { port: 0, keepAliveTimeout: 1 } as any)).rejects.toThrow(
      new TypeError('listen has no option "keepAliveTimeout"; did you mean "keepAliveTimeoutMs"?'),
    );
    expect(() => serveStdio(server, { maxLinebytes: 1 } as any)).toThrow(
      new TypeError('serveStdio has no option "maxLinebytes"; did you mean "maxLineBytes"?'),
    );
  });

  it("takes the session options only where a revision with sessions reads them", () => {
    // The default server has the initialize era, whose framing reads them.
    expect(() => createFetchHandler(server, { maxSessions: 5, sessionIdleTimeoutMs: 1000 })).not.toThrow();
    // A 2026-only server has no sessions: the option would do nothing, so it is refused.
    const modern = new McpServer2607({ name: "m", version: "1" });
    expect(() => createFetchHandler2607(modern, { maxSessions: 5 } as any)).toThrow(/createFetchHandler has no option "maxSessions"/);
  });

  it("still takes listen's own options beside the handler's", async () => {
    const running = await listen(server, { port: 0, host: "127.0.0.1", headersTimeoutMs: 5000, keepAliveTimeoutMs: 1000, path: "/mcp" });
    await running.close();
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });
});

describe("what a handler returns without resultType", () => {
  const server = new McpServer({ name: "s", version: "1" });
  server.registerTool("plain", {}, () => ({ content: [{ type: "text", text: "hand-built" }] }));
  server.registerTool("word", {}, () => "just text");
  server.registerPrompt("p", {}, () => ({ messages: [{ role: "user", content: { type: "text", text: "hi" } }] }));
  server.registerResource("r", "file:///r", {}, (uri) => ({ contents: [{ uri, text: "body" }] }));
  const running = start(server);
  afterAll(async () => (await running).stop());

  it("is answered with resultType complete on 2026-07-28", async () => {
    const { url } = await running;
    const plain = (await rpc(url, "tools/call", { name: "plain", arguments: {} })).json.result;
    expect(plain).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "hand-built" }] });
    const word = (await rpc(url, "tools/call", { name: "word", arguments: {} })).json.result;
    expect(word).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "just text" }] });
    expect((await rpc(url, "prompts/get", { name: "p" })).json.result).toMatchObject({ resultType: "complete" });
    const read = (await rpc(url, "resources/read", { uri: "file:///r" })).json.result;
    expect(read).toMatchObject({ resultType: "complete", contents: [{ uri: "file:///r", text: "body" }] });
  });

  it("is answered without resultType on an initialize-era session", async () => {
    const { url } = await running;
    const { headers } = await open(url);
    const word = await answerOf(await post(url, rq("tools/call", { name: "word", arguments: {} }), headers));
    expect(word.result).toEqual({ content: [{ type: "text", text: "just text" }] });
    const plain = await answerOf(await post(url, rq("tools/call", { name: "plain", arguments: {} }), headers));
    expect(plain.result).toEqual({ content: [{ type: "text", text: "hand-built" }] });
  });
});
