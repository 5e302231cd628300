import { listen, type RunningHttpServer } from "@x/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExampleServer } from "../src/tools.js";

const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

let running: RunningHttpServer;
beforeAll(async () => {
  running = await listen(createExampleServer(), { port: 0 });
});
afterAll(async () => {
  await running.close();
});

let id = 0;
async function call(method: string, params: Record<string, unknown> = {}) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  if (typeof params.name === "string") headers["mcp-name"] = params.name;
  const response = await fetch(running.url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: meta } }),
  });
  expect(response.status).toBe(200);
  return (await response.json()).result;
}

async function units(args: unknown) {
  const result = await call("tools/call", { name: "units", arguments: args });
  return { isError: result.isError === true, body: JSON.parse(result.content[0].text) };
}

describe("the example action tool (units), as in ACTIONS.md", () => {
  it("is listed with its generated inputSchema, next to help", async () => {
    const { tools } = await call("tools/list");
    const tool = tools.find((t: { name: string }) => t.name === "units");
    expect(tool.inputSchema.properties.action).toEqual({
      type: "string",
      enum: ["convert", "units"],
      description:
        "convert: Convert a value from one unit to another of the same kind\nunits: List the units of one kind, or of every kind",
    });
    expect(tools.map((t: { name: string }) => t.name)).toContain("help");
  });

  it("a wrong call is answered with what to change, until the call is right", async () => {
    const first = await units({ action: "convert", data: { amount: 5, from: "km", to: "miles" } });
    expect(first.isError).toBe(true);
    expect(first.body).toMatchObject({
      error: "missing_required_fields",
      missing: ["value"],
      help: { tool: "help", arguments: { tool: "units", action: "convert" } },
    });
    expect(first.body.input_schema.required).toEqual(["value", "from", "to"]);
    const second = await units({ action: "convert", data: { value: 5, amount: 5, from: "km", to: "miles" } });
    expect(second.body).toMatchObject({
      error: "unknown_params",
      unknown: ["/amount"],
      allowed: { "": ["from", "precision", "to", "value"] },
    });
    const third = await units({ action: "convert", data: { value: 5, from: "km", to: "miles" } });
    expect(third.body).toMatchObject({ error: "invalid_values", invalid: [{ path: "/to" }] });
    expect(third.body.invalid[0].problems[0]).toContain('"mi"');
    const right = await units({ action: "convert", data: { value: 5, from: "km", to: "mi" } });
    expect(right.isError).toBe(false);
    expect(right.body).toMatchObject({ value: 5, from: "km", to: "mi", result: 3.11 });
    expect(right.body.hints[0]).toEqual({
      tool: "units",
      action: "convert",
      description: "Convert the result back",
      example: { value: 3.11, from: "mi", to: "km" },
    });
  });

  it("a tool error carries hints; an unknown action lists the valid ones; help describes an action", async () => {
    const mixed = await units({ action: "convert", data: { value: 1, from: "km", to: "kg" } });
    expect(mixed).toEqual({
      isError: true,
      body: {
        error: "Conversion failed: cannot convert length (km) to mass (kg)",
        hints: [{ tool: "units", action: "units", description: "Every length unit", example: { kind: "length" } }],
      },
    });
    const typo = await units({ action: "convrt" });
    expect(typo.body).toMatchObject({ error: "unknown_action", valid_actions: ["convert", "units"] });
    const list = await units({ action: "units", data: { kind: "temperature" } });
    expect(list.body).toEqual({ temperature: ["K", "C", "F"] });
    const help = await call("tools/call", { name: "help", arguments: { tool: "units", action: "convert" } });
    const described = JSON.parse(help.content[0].text);
    expect(described).toMatchObject({
      tool: "units",
      action: "convert",
      required: ["value", "from", "to"],
      defaults: { precision: 2 },
      related: ["units"],
    });
  });
});
