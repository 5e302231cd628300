// Action tools are a plug-in on `@x/server/actions`: `@x/server` alone carries none of their code.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bundle, runBundleAlone } from "../../../test-support/bundle.js";
import { defineActionTool, ok, registerActionTool } from "../src/actions/index.js";
import { McpServer } from "../src/index.js";
import { request } from "./helpers.js";

const here = dirname(fileURLToPath(import.meta.url));

const units = defineActionTool({
  name: "units",
  description: "Converts units",
  actions: { convert: { description: "Convert a value", properties: { value: { type: "number" } } } },
  runAction: (_action, data) => ok({ value: data.value }),
});

async function toolNames(server: McpServer): Promise<string[]> {
  const outcome = await server.handle(request("tools/list"));
  return (outcome.response as unknown as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
}

describe("@x/server/actions", () => {
  it("a server without the plug-in may name a tool help; registerActionTool then refuses it, naming the clash", async () => {
    const core = new McpServer({ name: "core", version: "1" });
    expect("registerActionTool" in core).toBe(false);
    core.registerTool("echo", {}, () => "hi");
    core.registerTool("help", {}, () => "mine");
    expect(await toolNames(core)).toEqual(["echo", "help"]);
    expect(() => registerActionTool(core, units)).toThrow(/^tool name help is taken by a tool registered with registerTool/);
    expect(await toolNames(core)).toEqual(["echo", "help"]);
    expect(core.removeTool("help")).toBe(true);
  });

  it("the full server mounts an action tool and help with one tools/list_changed, and help leaves with the last action tool", async () => {
    const server = new McpServer({ name: "full", version: "1" });
    // toolsListChanged is granted to a listener only while the server has tools.
    server.registerTool("echo", {}, () => "x");
    const seen: string[] = [];
    const listening = server.handle(request("subscriptions/listen", { notifications: { toolsListChanged: true } }), {
      notify: (n) => {
        seen.push(n.method);
        return true;
      },
    });
    registerActionTool(server, units);
    expect(await toolNames(server)).toEqual(["echo", "units", "help"]);
    expect(() => server.registerTool("help", {}, () => "x")).toThrow(/reserved/);
    expect(seen.filter((m) => m === "notifications/tools/list_changed")).toHaveLength(1);
    expect(() => registerActionTool(server, units)).toThrow(/already registered/);
    expect(await toolNames(server)).toEqual(["echo", "units", "help"]);
    expect(server.removeTool("help")).toBe(false);
    expect(server.removeTool("units")).toBe(true);
    expect(await toolNames(server)).toEqual(["echo"]);
    expect(seen.filter((m) => m === "notifications/tools/list_changed")).toHaveLength(2);
    // Once action tools were registered, the name stays theirs.
    expect(() => server.registerTool("help", {}, () => "x")).toThrow(/reserved/);
    server.close();
    await listening;
  });

  it("a server bundled from @x/server leaves the action-tool code out; one that registers an action tool keeps it", async () => {
    const root = JSON.stringify(join(here, "..", "dist", "index.js"));
    const actions = JSON.stringify(join(here, "..", "dist", "actions", "index.js"));
    const plain = `import { McpServer } from ${root}; new McpServer({ name: "m", version: "1" }).registerTool("t", {}, () => "x");`;
    const withActions = `${plain} import { registerActionTool, defineActionTool, ok } from ${actions}; registerActionTool(new McpServer({ name: "m", version: "1" }), defineActionTool({ name: "u", description: "U", actions: { go: { description: "Go", properties: {} } }, runAction: () => ok(1) }));`;
    const core = await bundle(plain, here);
    const full = await bundle(withActions, here);
    expect(core).not.toContain("runAction");
    expect(full).toContain("runAction");
    expect(core.length).toBeLessThan(full.length);
  });

  it("a server bundled carries the JSON Schema validator it names: it compiles with nothing beside it, or names what was left out", async () => {
    const program = `import { McpServer } from ${JSON.stringify(join(here, "..", "dist", "index.js"))};
import { ajvValidator } from ${JSON.stringify(join(here, "..", "dist", "ajv.js"))};
const s = new McpServer({ name: "b", version: "1" }, { validator: ajvValidator });
try { s.registerTool("t", { inputSchema: { type: "object" } }, () => "x"); console.log("registered"); }
catch (e) { console.log(e.name + ": " + e.dependency); }`;
    expect(await runBundleAlone(program, here)).toBe("registered");
    expect(await runBundleAlone(program, here, { external: ["ajv", "ajv-formats"] })).toBe("MissingDependencyError: ajv");
  });
});
