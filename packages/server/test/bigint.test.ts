// Integers beyond ±(2^53 − 1) keep every digit: in the arguments of tools that opt in
// (bigIntegers), results, notifications, requestState and request ids, over real HTTP and over
// stdio; elicitation answers reach handlers as JSON.parse's doubles. Bodies are written and read as
// text here: JSON.parse in the test would round them itself.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import * as esbuild from "esbuild";
import { META_CLIENT_CAPABILITIES, META_LOG_LEVEL } from "@x/mcp-v2607";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, McpServer, type RunningHttpServer, type ServerOptions, serveStdio } from "../src/index.js";
import { headersFor, meta } from "./helpers.js";

const BIG = "9007199254740993"; // 2^53 + 1: JSON.parse gives ...992
const HUGE = "12345678901234567890123";

function bigServer(options: ServerOptions = {}) {
  const server = new McpServer({ name: "big", version: "1" }, options);
  const seen: unknown[] = [];
  server.registerTool(
    "echo_n",
    {
      bigIntegers: "bigint",
      inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      outputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
    },
    (args) => {
      seen.push(args.n);
      return { resultType: "complete", content: [{ type: "text", text: String(args.n) }], structuredContent: { n: args.n as never } };
    },
  );
  server.registerTool(
    "number_n",
    { bigIntegers: "bigint", inputSchema: { type: "object", properties: { n: { type: "number", minimum: 0 } } } },
    (args) => String(args.n),
  );
  server.registerTool(
    "small_n",
    { bigIntegers: "bigint", inputSchema: { type: "object", properties: { n: { type: "integer", maximum: 100 } } } },
    (args) => String(args.n),
  );
  server.registerTool(
    "digits_n",
    { bigIntegers: "string", inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } },
    (args) => {
      seen.push(args.n);
      return String(args.n);
    },
  );
  server.registerTool("big_result", {}, () => ({
    resultType: "complete",
    content: [],
    structuredContent: { big: 2n ** 64n, negative: -(10n ** 30n), small: 7 } as never,
  }));
  server.registerTool("progress_n", {}, async (_args, ctx) => {
    seen.push(ctx.meta.progressToken);
    ctx.progress(1, 2);
    return "progressed";
  });
  server.registerTool("log_n", { bigIntegers: "bigint" }, async (args, ctx) => {
    ctx.log("info", { n: args.n });
    return "logged";
  });
  const integer = { type: "object" as const, properties: { v: { type: "integer" as const } }, required: ["v"] };
  server.registerTool("ask_twice", { bigIntegers: "bigint" }, async (args, ctx) => {
    const a = await ctx.elicit("a?", integer);
    const b = await ctx.elicit("b?", integer);
    const value = (answer: typeof a) => (answer.action === "accept" ? answer.content?.v : undefined);
    return { resultType: "complete", content: [], structuredContent: { arg: args.k, a: value(a), b: value(b) } as never };
  });
  return { server, seen };
}

/** A tools/call body as text, so that `id` and `args` go out exactly as written. */
function callText(id: string, tool: string, args: string, extraMeta: Record<string, unknown> = {}, extraParams = "") {
  return `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${tool}","arguments":${args}${extraParams},"_meta":${JSON.stringify(meta(extraMeta))}}}`;
}

describe("big integers over Streamable HTTP", () => {
  let running: RunningHttpServer;
  let big: ReturnType<typeof bigServer>;
  beforeAll(async () => {
    big = bigServer({ logging: true });
    running = await listen(big.server, { port: 0 });
  });
  afterAll(async () => {
    await running.close();
  });

  const post = async (text: string, tool = "echo_n", headers: Record<string, string> = {}) => {
    const response = await fetch(running.url, {
      method: "POST",
      headers: { ...headersFor({ method: "tools/call", params: { name: tool } }), ...headers },
      body: text,
    });
    return { status: response.status, type: response.headers.get("content-type") ?? "", text: await response.text() };
  };

  it("an argument of 2^53 + 1 reaches a tool that opts in as that bigint and comes back with every digit (text and structuredContent)", async () => {
    const res = await post(callText("1", "echo_n", `{"n":${BIG}}`));
    expect(res.status).toBe(200);
    expect(big.seen.at(-1)).toBe(BigInt(BIG));
    expect(res.text).toContain(`"structuredContent":{"n":${BIG}}`);
    expect(res.text).toContain(`"text":"${BIG}"`);
  });

  it("a safe integer stays a number", async () => {
    await post(callText("2", "echo_n", `{"n":42}`));
    expect(big.seen.at(-1)).toBe(42);
    await post(callText("3", "echo_n", `{"n":${"9".repeat(15)}}`));
    expect(big.seen.at(-1)).toBe(999_999_999_999_999);
  });

  it("a bigint passes type integer and type number; a bound compares its value", async () => {
    expect((await post(callText("4", "number_n", `{"n":${HUGE}}`), "number_n")).text).toContain(`"text":"${HUGE}"`);
    const refused = await post(callText("5", "small_n", `{"n":${BIG}}`), "small_n");
    expect(refused.text).toContain('"isError":true');
    expect(refused.text).toContain("/n: must be <= 100");
    const negative = await post(callText("6", "number_n", `{"n":-${BIG}}`), "number_n");
    expect(negative.text).toContain("/n: must be >= 0");
  });

  it("a request id of 2^53 + 1, or of 23 digits, is echoed with exactly its digits", async () => {
    const a = await post(callText(BIG, "echo_n", `{"n":1}`));
    expect(a.text).toMatch(new RegExp(`"id":${BIG}[,}]`));
    const b = await post(callText(HUGE, "echo_n", `{"n":1}`));
    expect(b.text).toMatch(new RegExp(`"id":${HUGE}[,}]`));
    const negative = await post(callText(`-${HUGE}`, "echo_n", `{"n":1}`));
    expect(negative.text).toMatch(new RegExp(`"id":-${HUGE}[,}]`));
  });

  it("an id that cannot be echoed exactly (1e400, 2^53 + 1 written as a decimal, 1.5) is refused with -32600 and no id", async () => {
    for (const id of ["1e400", `${BIG}.0`, "1.5", "1e20"]) {
      const res = await post(callText(id, "echo_n", `{"n":1}`));
      expect(res.status).toBe(400);
      const body = JSON.parse(res.text);
      expect(body.error.code).toBe(-32600);
      expect(body.id ?? null).toBeNull();
    }
  });

  it("a header refusal (-32020) carries the big id exactly", async () => {
    const res = await post(callText(BIG, "echo_n", `{"n":1}`), "echo_n", { "mcp-method": "tools/list" });
    expect(res.status).toBe(400);
    expect(res.text).toContain('"code":-32020');
    expect(res.text).toMatch(new RegExp(`"id":${BIG}[,}]`));
  });

  it("a bigint a handler returns is written exactly", async () => {
    const res = await post(callText("7", "big_result", "{}"), "big_result");
    expect(res.text).toContain(`"structuredContent":{"big":18446744073709551616,"negative":-1${"0".repeat(30)},"small":7}`);
  });

  it("a notification on the SSE stream carries the big integer and the big id exactly", async () => {
    const res = await post(callText(BIG, "log_n", `{"n":${HUGE}}`, { [META_LOG_LEVEL]: "info" }), "log_n");
    expect(res.type).toMatch(/^text\/event-stream/);
    expect(res.text).toContain(`"data":{"n":${HUGE}}`);
    expect(res.text).toMatch(new RegExp(`"id":${BIG}[,}]`));
  });

  it("a progressToken beyond 2^53 is accepted (the schema allows any integer) and progress carries it exactly", async () => {
    const res = await post(callText("7", "progress_n", "{}", { progressToken: "__TOKEN__" }).replace('"__TOKEN__"', HUGE), "progress_n");
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/event-stream/);
    expect(res.text).toContain(`"progressToken":${HUGE},"progress":1`);
    expect(res.text).toContain("progressed");
  });

  it("a progressToken of 2^53 + 1 reaches the handler as that bigint, and its progress notification carries every digit", async () => {
    const res = await post(callText("8", "progress_n", "{}", { progressToken: "__TOKEN__" }).replace('"__TOKEN__"', BIG), "progress_n");
    expect(res.status).toBe(200);
    expect(big.seen.at(-1)).toBe(BigInt(BIG));
    expect(res.text).toContain(`"params":{"progressToken":${BIG},"progress":1,"total":2}`);
  });

  it("elicitation answers reach the handler as JSON.parse's doubles, from inputResponses and from the sealed requestState", async () => {
    const caps = { [META_CLIENT_CAPABILITIES]: { elicitation: {} } };
    const args = `{"k":${HUGE}}`;
    const r1 = JSON.parse((await post(callText("10", "ask_twice", args, caps), "ask_twice")).text);
    expect(r1.result.resultType).toBe("input_required");
    const answer = (key: string, v: string) => `{"${key}":{"action":"accept","content":{"v":${v}}}}`;
    const r2text = (await post(callText("11", "ask_twice", args, caps, `,"inputResponses":${answer("elicit-1", BIG)}`), "ask_twice")).text;
    const r2 = JSON.parse(r2text);
    expect(Object.keys(r2.result.inputRequests ?? {})).toEqual(["elicit-2"]);
    const state = JSON.stringify(r2.result.requestState);
    const r3 = await post(
      callText("12", "ask_twice", args, caps, `,"inputResponses":${answer("elicit-2", `-${BIG}`)},"requestState":${state}`),
      "ask_twice",
    );
    expect(r3.text).toContain(`"structuredContent":{"arg":${HUGE},"a":9007199254740992,"b":-9007199254740992}`);
  });
});

describe("big integers over stdio", () => {
  function run(server: McpServer, lines: string[]) {
    const input = new PassThrough();
    const output = new PassThrough();
    const out: Buffer[] = [];
    output.on("data", (c) => out.push(c));
    const done = serveStdio(server, { input, output, errors: new PassThrough() });
    for (const line of lines) input.write(`${line}\n`);
    input.end();
    return done.then(() =>
      Buffer.concat(out)
        .toString("utf8")
        .split("\n")
        .filter((l) => l !== ""),
    );
  }

  it("echoes a 2^53 + 1 argument and answers ids of 2^53 + 1 and 23 digits under exactly those ids", async () => {
    const { server, seen } = bigServer();
    const lines = await run(server, [callText(BIG, "echo_n", `{"n":${BIG}}`), callText(HUGE, "echo_n", `{"n":${HUGE}}`)]);
    expect(seen).toEqual([BigInt(BIG), BigInt(HUGE)]);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`"id":${BIG}[,}]`));
    expect(lines[0]).toContain(`"structuredContent":{"n":${BIG}}`);
    expect(lines[1]).toMatch(new RegExp(`"id":${HUGE}[,}]`));
    expect(lines[1]).toContain(`"structuredContent":{"n":${HUGE}}`);
  });

  it("refuses an id of 1e400 with -32600 and no id", async () => {
    const lines = await run(bigServer().server, [callText("1e400", "echo_n", `{"n":1}`)]);
    const body = JSON.parse(lines[0]!);
    expect(body.error.code).toBe(-32600);
    expect(body.id ?? null).toBeNull();
  });

  it("notifications/cancelled for 2^53 + 1 aborts that request, not the one with id 2^53", async () => {
    const server = new McpServer({ name: "big", version: "1" });
    const aborted: string[] = [];
    server.registerTool(
      "wait",
      {},
      (args, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => aborted.push(String(args.who)));
          setTimeout(() => resolve(`done ${String(args.who)}`), 100);
        }),
    );
    const cancel = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${BIG}}}`;
    const lines = await run(server, [
      callText(BIG, "wait", '{"who":"plus-one"}'),
      callText("9007199254740992", "wait", '{"who":"two-to-the-53"}'),
      cancel,
    ]);
    expect(aborted).toEqual(["plus-one"]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/"id":9007199254740992[,}]/);
  });

  it('a tool with bigIntegers: "string" gets such integers as decimal strings, still checked as integers', async () => {
    const { server, seen } = bigServer();
    const lines = await run(server, [callText(BIG, "digits_n", `{"n":${BIG}}`), callText("2", "digits_n", `{"n":7}`)]);
    expect(seen).toEqual([BIG, 7]);
    expect(lines[0]).toMatch(new RegExp(`"id":${BIG}[,}]`));
  });
});

describe("in a bundle, alone in its folder", () => {
  it("a bundled server answers big request ids with every digit, with no dependency for it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "x-mcp-server-bundle-"));
    try {
      await esbuild.build({
        stdin: {
          contents: `import { McpServer, serveStdio } from ${JSON.stringify(resolve("dist/index.js"))}; serveStdio(new McpServer({ name: "s", version: "1" }));`,
          resolveDir: resolve("."),
        },
        bundle: true,
        format: "esm",
        platform: "node",
        outfile: join(dir, "server.mjs"),
        logLevel: "silent",
      });
      const line = (id: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{}}\n`;
      const child = spawnSync(process.execPath, [join(dir, "server.mjs")], {
        cwd: dir,
        input: line(BIG) + line("2") + line(HUGE),
        encoding: "utf8",
        env: { ...process.env, NODE_PATH: "" },
      });
      const ids = child.stdout
        .trim()
        .split("\n")
        .map((l) => /"id":(-?\d+|null)[,}]/.exec(l)?.[1]);
      expect(ids).toEqual([BIG, "2", HUGE]);
      expect(child.stderr).not.toContain("MissingDependencyError");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
