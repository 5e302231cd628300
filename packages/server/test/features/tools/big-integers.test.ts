// What a handler receives of an integer beyond ±(2^53 − 1) (README "Numbers"): by default the
// value JSON.parse gives (the nearest double), so that it has the type its schema declares; the
// exact digits only for a tool that opts in with `bigIntegers`. Request ids keep every digit.
// Bodies and lines are written as text: JSON.stringify in the test would round them itself.
import { PassThrough } from "node:stream";
import { stringifyJson } from "@x/jsonrpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { listen, McpServer, type RunningHttpServer, serveStdio, type ToolConfig } from "../../../src/index.js";
import { stdioConnect } from "../../legacy/helpers.js";
import { headersFor, meta } from "../../helpers.js";

const BIG = "9007199254740993"; // 2^53 + 1: JSON.parse gives 9007199254740992
const BIG_DOUBLE = 9007199254740992;
const HUGE = "12345678901234567890123";
const BEYOND_DOUBLES = `1${"0".repeat(400)}`; // JSON.parse gives Infinity

function numbersServer() {
  const server = new McpServer({ name: "numbers", version: "1" });
  const seen: unknown[] = [];
  server.registerTool(
    "add",
    {
      inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
      outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
    },
    ({ a, b }) => {
      seen.push(a, b);
      return { resultType: "complete", content: [], structuredContent: { sum: a + b } };
    },
  );
  server.registerTool(
    "count",
    {
      inputSchema: {
        type: "object",
        properties: { n: { type: "integer" }, list: { type: "array", items: { type: "integer" } }, deep: { type: "object" } },
      },
    },
    (args) => {
      seen.push(args);
      return "counted";
    },
  );
  server.registerTool("untyped", {}, (args) => {
    seen.push(args);
    return "ok";
  });
  server.registerTool(
    "exact",
    {
      bigIntegers: "bigint",
      inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      outputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
    },
    ({ n }) => {
      seen.push(n);
      return { resultType: "complete", content: [{ type: "text", text: String(n) }], structuredContent: { n } };
    },
  );
  server.registerTool(
    "digits",
    { bigIntegers: "string", inputSchema: { type: "object", properties: { n: { type: "integer", minimum: 0 } }, required: ["n"] } },
    ({ n }) => {
      seen.push(n);
      return String(n);
    },
  );
  server.registerTool("zod_add", { inputSchema: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) => {
    seen.push(a, b);
    return String(a + b);
  });
  return { server, seen };
}

/** A tools/call message as text, so that `id` and `args` go out exactly as written. */
function callText(id: string, tool: string, args: string) {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${tool}","arguments":${args},"_meta":${JSON.stringify(meta())}}}`;
}

describe("integers beyond 2^53 in tool arguments, over Streamable HTTP", () => {
  let running: RunningHttpServer;
  let numbers: ReturnType<typeof numbersServer>;
  beforeAll(async () => {
    numbers = numbersServer();
    running = await listen(numbers.server, { port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await running.close();
  });

  const post = async (tool: string, args: string, id = "1") => {
    const response = await fetch(running.url, {
      method: "POST",
      headers: headersFor({ method: "tools/call", params: { name: tool } }),
      body: callText(id, tool, args),
    });
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) };
  };

  it("a number argument of 2^53 + 1 reaches the handler as JSON.parse's double: add answers the sum, not a tool fault", async () => {
    const { status, body } = await post("add", `{"a":${BIG},"b":1}`);
    expect(status).toBe(200);
    expect(body.result.isError).toBeUndefined();
    expect(body.result.structuredContent).toEqual({ sum: BIG_DOUBLE + 1 });
    expect(numbers.seen.slice(-2)).toEqual([BIG_DOUBLE, 1]);
    const both = await post("add", `{"a":${BIG},"b":-${HUGE}}`);
    expect(both.body.result.structuredContent).toEqual({ sum: BIG_DOUBLE - Number(HUGE) });
  });

  it("integer positions, arrays, nested objects and a tool without an inputSchema get doubles too", async () => {
    await post("count", `{"n":${BIG},"list":[1,-${BIG},${HUGE}],"deep":{"x":[{"y":${BIG}}]}}`);
    expect(numbers.seen.at(-1)).toStrictEqual({
      n: BIG_DOUBLE,
      list: [1, -BIG_DOUBLE, Number(HUGE)],
      deep: { x: [{ y: BIG_DOUBLE }] },
    });
    await post("untyped", `{"k":${HUGE},"s":"${BIG}"}`);
    expect(numbers.seen.at(-1)).toStrictEqual({ k: JSON.parse(HUGE), s: BIG });
  });

  it("an integer beyond the double range is refused as invalid arguments, as 1e400 is, and the handler never runs", async () => {
    const before = numbers.seen.length;
    const { body } = await post("add", `{"a":${BEYOND_DOUBLES},"b":1}`);
    expect(body.result.isError).toBe(true);
    expect(body.result.content[0].text).toBe(
      "Invalid arguments for tool add:\n/a: is not a finite number (JSON has no Infinity, -Infinity or NaN)",
    );
    expect(numbers.seen.length).toBe(before);
  });

  it('a tool that opts in with bigIntegers: "bigint" receives every digit, and its answer carries them', async () => {
    const { text } = await post("exact", `{"n":${HUGE}}`);
    expect(numbers.seen.at(-1)).toBe(BigInt(HUGE));
    expect(text).toContain(`"structuredContent":{"n":${HUGE}}`);
    expect(text).toContain(`"text":"${HUGE}"`);
    await post("exact", `{"n":${BIG}}`);
    expect(numbers.seen.at(-1)).toBe(BigInt(BIG));
    await post("exact", `{"n":42}`);
    expect(numbers.seen.at(-1)).toBe(42);
  });

  it('bigIntegers: "string" gives the decimal digits, after the check as the integer sent', async () => {
    await post("digits", `{"n":${BIG}}`);
    expect(numbers.seen.at(-1)).toBe(BIG);
    const refused = await post("digits", `{"n":-${BIG}}`);
    expect(refused.body.result.content[0].text).toBe("Invalid arguments for tool digits:\n/n: must be >= 0");
  });

  it("a request id of 2^53 + 1 is answered under exactly that id while the arguments become doubles", async () => {
    const { text, body } = await post("add", `{"a":${BIG},"b":1}`, BIG);
    expect(text).toMatch(new RegExp(`"id":${BIG}[,}]`));
    expect(body.result.structuredContent).toEqual({ sum: BIG_DOUBLE + 1 });
  });

  it("a Standard Schema (zod) number gets the double as well, and its handler sums it", async () => {
    const { body } = await post("zod_add", `{"a":${BIG},"b":2}`);
    expect(body.result.content[0].text).toBe(String(BIG_DOUBLE + 2));
    expect(numbers.seen.slice(-2)).toEqual([BIG_DOUBLE, 2]);
  });
});

describe("integers beyond 2^53 in tool arguments, elsewhere", () => {
  it("over stdio: doubles by default, every digit for the tool that opts in, ids exact", async () => {
    const { server, seen } = numbersServer();
    const input = new PassThrough();
    const output = new PassThrough();
    const out: Buffer[] = [];
    output.on("data", (c: Buffer) => out.push(c));
    const done = serveStdio(server, { input, output, errors: new PassThrough() });
    input.end(`${callText(BIG, "add", `{"a":${BIG},"b":1}`)}\n${callText(HUGE, "exact", `{"n":${BIG}}`)}\n`);
    await done;
    const lines = Buffer.concat(out).toString("utf8").trim().split("\n");
    expect(seen).toEqual([BIG_DOUBLE, 1, BigInt(BIG)]);
    expect(lines[0]).toMatch(new RegExp(`^\\{"jsonrpc":"2.0","id":${BIG},`));
    expect(JSON.parse(lines[0]!).result.structuredContent).toEqual({ sum: BIG_DOUBLE + 1 });
    expect(lines[1]).toMatch(new RegExp(`"id":${HUGE}[,}]`));
    expect(lines[1]).toContain(`"structuredContent":{"n":${BIG}}`);
  });

  it("a message handed to McpServer.handle as an object, bigints in it, is read by the same rule", async () => {
    const { server, seen } = numbersServer();
    const message = (name: string, args: Record<string, unknown>) => ({
      jsonrpc: "2.0",
      id: 9007199254740993n,
      method: "tools/call",
      params: { name, arguments: args, _meta: meta() },
    });
    const added = await server.handle(message("add", { a: 9007199254740993n, b: 1 }));
    expect(stringifyJson(added.response)).toMatch(new RegExp(`"id":${BIG}[,}]`));
    expect((added.response as unknown as { result: { structuredContent: unknown } }).result.structuredContent).toEqual({
      sum: BIG_DOUBLE + 1,
    });
    await server.handle(message("exact", { n: 9007199254740993n }));
    expect(seen).toEqual([BIG_DOUBLE, 1, 9007199254740993n]);
  });

  it("prompt and completion arguments are strings: a big integer there is refused with -32602 naming it", async () => {
    const server = new McpServer({ name: "prompts", version: "1" });
    server.registerPrompt("greet", { arguments: [{ name: "who" }], complete: { who: () => ["a"] } }, () => "hi");
    const running = await listen(server, { port: 0, host: "127.0.0.1" });
    try {
      const send = async (method: string, params: string) => {
        const response = await fetch(running.url, {
          method: "POST",
          headers: headersFor({ method, params: { name: "greet" } }),
          body: `{"jsonrpc":"2.0","id":1,"method":"${method}","params":{${params},"_meta":${JSON.stringify(meta())}}}`,
        });
        return { status: response.status, body: await response.json() };
      };
      const got = await send("prompts/get", `"name":"greet","arguments":{"who":${BIG}}`);
      expect(got.status).toBe(200);
      expect(got.body.error).toMatchObject({ code: -32602, data: { argument: "who" } });
      const completed = await send(
        "completion/complete",
        `"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"who","value":""},"context":{"arguments":{"x":${BIG}}}`,
      );
      expect(completed.body.error).toMatchObject({ code: -32602, data: { argument: "x" } });
    } finally {
      await running.close();
    }
  });
});

describe("how a tool opts in", () => {
  it('bigIntegers takes "bigint" or "string"; a tool with a Standard Schema inputSchema cannot opt in', () => {
    const server = new McpServer({ name: "s", version: "1" });
    expect(() => server.registerTool("bad", { bigIntegers: "number" as never }, () => "x")).toThrow(
      new TypeError('tool bad: bigIntegers must be "bigint" or "string", got number'),
    );
    expect(() =>
      server.registerTool("zod", { bigIntegers: "bigint", inputSchema: z.object({ n: z.number() }) } as ToolConfig, () => "x"),
    ).toThrow(/tool zod: bigIntegers needs a JSON Schema inputSchema/);
  });

  it("the server-wide bigIntegers option is gone: it throws, naming the tool option", () => {
    expect(() => new McpServer({ name: "s", version: "1" }, { bigIntegers: "bigint" } as never)).toThrow(
      /ServerOptions\.bigIntegers was removed: a tool opts in with its own bigIntegers/,
    );
  });
});

describe("elicitation answers", () => {
  it("an initialize-era client's answer holding 2^53 + 1 is accepted, and the handler gets the double", async () => {
    const server = new McpServer({ name: "era", version: "1" });
    server.registerTool("ask", {}, async (_args, ctx) => {
      const answer = await ctx.elicit("How many?", { type: "object", properties: { n: { type: "integer" } }, required: ["n"] });
      if (answer.action !== "accept") return answer.action;
      const n = answer.content?.n;
      return `${typeof n} ${String(n)}`;
    });
    const c = stdioConnect(server);
    await c.initialize({ elicitation: {} });
    const rid = c.request("tools/call", { name: "ask", arguments: {} });
    const asked = await c.next();
    expect(asked.method).toBe("elicitation/create");
    c.send({ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { n: 9007199254740993n } } });
    expect((await c.answer(rid)).response.result.content[0].text).toBe(`number ${BIG_DOUBLE}`);
    await c.end();
  });
});
