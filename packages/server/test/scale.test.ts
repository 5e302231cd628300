/**
 * Horizontal scale: two server processes that share one requestState key,
 * behind nginx balancing round-robin on loopback. A retry that lands on the
 * other process completes; a state sealed with a different key is refused.
 * nginx comes from Debian's package; it is installed when missing (as
 * root, as on CI), else the test says how to install it
 * (test-support/nginx.ts, shared with the Redis scale test).
 */
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Balancer, startBalancer } from "../../../test-support/nginx.js";
import { type Listening, startListening, stopProcess } from "../../../test-support/processes.js";
import { headersFor, meta } from "./helpers.js";

const fixture = resolve("test/fixtures/scale-server.mjs");
const instances: Listening[] = [];
let balancer: Balancer | undefined;

async function startInstance(name: string, key: Buffer): Promise<string> {
  const instance = await startListening(fixture, { INSTANCE: name, MCP_REQUEST_STATE_KEYS: key.toString("base64") });
  instances.push(instance);
  return instance.url;
}

let front: string;
let direct: { a: string; b: string; other: string };

beforeAll(async () => {
  const shared = Buffer.alloc(32, 42);
  const a = await startInstance("A", shared);
  const b = await startInstance("B", shared);
  const other = await startInstance("C", Buffer.alloc(32, 43));
  direct = { a, b, other };
  balancer = await startBalancer([a, b]);
  front = `${balancer.origin}/mcp`;
}, 300_000);

afterAll(async () => {
  await balancer?.stop();
  for (const instance of instances) await stopProcess(instance.child);
});

async function call(url: string, id: number, extra: Record<string, unknown> = {}) {
  const body = {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "greet", arguments: {}, ...extra, _meta: meta({ "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } }) },
  };
  const response = await fetch(url, { method: "POST", headers: headersFor(body), body: JSON.stringify(body) });
  return (await response.json()) as any;
}

describe("two instances sharing a key behind nginx (round-robin)", () => {
  it("a retry that lands on the other instance completes", async () => {
    const first = await call(front, 1);
    expect(first.result.resultType).toBe("input_required");
    const asker = /asked by (\w)/.exec(first.result.inputRequests["elicit-1"].params.message)![1];
    const second = await call(front, 2, {
      inputResponses: { "elicit-1": { action: "accept", content: { name: "Ray" } } },
      requestState: first.result.requestState,
    });
    const answerer = /answered by (\w)/.exec(second.result.content[0].text)![1];
    expect(second.result.content[0].text).toMatch(/^Hello Ray/);
    expect(answerer).not.toBe(asker);
  });

  it("a state signed with a different key is refused", async () => {
    const first = await call(direct.other, 3);
    const retry = await call(front, 4, {
      inputResponses: { "elicit-1": { action: "accept", content: { name: "Ray" } } },
      requestState: first.result.requestState,
    });
    expect(retry.error).toMatchObject({ code: -32602, message: "Invalid requestState: failed verification" });
    const fromA = await call(direct.a, 5);
    const onC = await call(direct.other, 6, {
      inputResponses: { "elicit-1": { action: "decline" } },
      requestState: fromA.result.requestState,
    });
    expect(onC.error.code).toBe(-32602);
  });
});
