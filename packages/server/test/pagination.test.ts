// List cursors (src/pagination.ts): opaque, signed by the server's key ring, bound to one list.
import { describe, expect, it } from "vitest";
import { McpServer } from "../src/index.js";
import { send } from "./helpers.js";

function paged(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const s = new McpServer({ name: "p", version: "1" }, { pageSize: 2, ...options });
  for (const name of ["a", "b", "c", "d", "e"]) s.registerTool(name, {}, () => name);
  return s;
}

describe("cursors", () => {
  it("answers a forged, tampered or foreign cursor with -32602", async () => {
    const server = paged();
    const first = (await send(server, "tools/list")).result;
    const good: string = first.nextCursor;
    const [body, tag] = good.split(".");
    const forged = `${Buffer.from(JSON.stringify(["tools/list", 0])).toString("base64url")}.${tag}`;
    const flipped = `${body}.${tag!.startsWith("A") ? "B" : "A"}${tag!.slice(1)}`;
    for (const cursor of ["", "junk", forged, flipped, `${body}.`, 42]) {
      const res = await send(server, "tools/list", { cursor });
      expect(res.error?.code, String(cursor)).toBe(-32602);
    }
    // A cursor of one server is refused by another with different keys.
    const other = new McpServer({ name: "o", version: "1" }, { pageSize: 2 });
    other.registerTool("x", {}, () => "x");
    expect((await send(other, "tools/list", { cursor: good })).error.code).toBe(-32602);
  });

  it("shares cursors between instances that share keys", async () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    const make = () => {
      const s = new McpServer({ name: "k", version: "1" }, { pageSize: 1, requestStateKeys: [key] });
      s.registerTool("x", {}, () => "x").registerTool("y", {}, () => "y");
      return s;
    };
    const first = (await send(make(), "tools/list")).result;
    const second = (await send(make(), "tools/list", { cursor: first.nextCursor })).result;
    expect(second.tools.map((t: { name: string }) => t.name)).toEqual(["y"]);
  });

  it("refuses a cursor of one list on another list of the same server", async () => {
    const server = paged();
    for (const name of ["p1", "p2", "p3"]) server.registerPrompt(name, {}, () => name);
    const toolsCursor = (await send(server, "tools/list")).result.nextCursor;
    const promptsCursor = (await send(server, "prompts/list")).result.nextCursor;
    expect((await send(server, "prompts/list", { cursor: toolsCursor })).error).toMatchObject({
      code: -32602,
      message: "Invalid cursor: not a cursor of prompts/list",
    });
    expect((await send(server, "tools/list", { cursor: promptsCursor })).error.code).toBe(-32602);
    expect((await send(server, "prompts/list", { cursor: promptsCursor })).result.prompts).toEqual([{ name: "p3" }]);
  });

  it("a cursor past the end of a list that shrank gives an empty last page", async () => {
    const server = paged();
    const second = (await send(server, "tools/list", { cursor: (await send(server, "tools/list")).result.nextCursor })).result;
    for (const name of ["a", "b", "c", "d"]) server.removeTool(name);
    const late = (await send(server, "tools/list", { cursor: second.nextCursor })).result;
    expect(late.tools).toEqual([]);
    expect("nextCursor" in late).toBe(false);
  });
});
