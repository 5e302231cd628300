/**
 * Issue 39's scale-out check of the initialize era: three server processes
 * with their sessions in a RedisSessionStore and their events in a
 * RedisEventStore, behind nginx balancing round-robin (not sticky), and the
 * official client 2.4.0 with its default settings (it opens with
 * `initialize` and negotiates 2025-11-25). Every answer names the instance
 * that gave it (`x-instance`), so the test sees where each request landed.
 * With the in-memory stores (STORES=memory in the fixture) it fails: a
 * request landing on an instance that did not mint the session gets 404.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Balancer, startBalancer } from "../../../test-support/nginx.js";
import { type Listening, startListening, stopProcess } from "../../../test-support/processes.js";
import { type RedisServer, startRedis } from "../../../test-support/redis.js";
import { eventually } from "./helpers.js";

const FIXTURE = resolve(import.meta.dirname, "fixtures/sessions-server.mjs");
const NAMES = ["A", "B", "C"] as const;
type Name = (typeof NAMES)[number];

/** One HTTP exchange of the client, as the test saw it. */
interface Exchange {
  method: string;
  body: any;
  status: number;
  instance: string;
  lastEventId: string | null;
  /** Settles once the answer's headers came (status and instance are known from then on). */
  answered: Promise<void>;
}

/** A GET stream of the client: where it landed, and what the test kept from the client (`swallow`). */
interface GetStream {
  instance: string;
  lastEventId: string | null;
  swallow: boolean;
  swallowed: string;
}

let redis: RedisServer;
let balancer: Balancer;
const instances = {} as Record<Name, Listening>;
const log: Exchange[] = [];
const gets: GetStream[] = [];

/**
 * The client's fetch: records each exchange; a GET stream's bytes pass
 * through unless its `swallow` is set, then they are kept from the client,
 * as bytes in flight when a connection breaks are.
 */
const recordingFetch: typeof fetch = async (input, init) => {
  const method = init?.method ?? "GET";
  const lastEventId = new Headers(init?.headers).get("last-event-id");
  const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
  // Logged when sent, so that a request the server has already acted on is in the log,
  // though its own answer (a 202 to a POSTed response, say) may come later.
  let settle = () => {};
  const exchange: Exchange = { method, body, status: 0, instance: "?", lastEventId, answered: new Promise((r) => (settle = r)) };
  log.push(exchange);
  let response: Response;
  try {
    response = await fetch(input, init);
  } catch (error) {
    settle();
    throw error;
  }
  const instance = response.headers.get("x-instance") ?? "?";
  exchange.status = response.status;
  exchange.instance = instance;
  settle();
  if (method !== "GET" || response.status !== 200 || !response.body) return response;
  const stream: GetStream = { instance, lastEventId, swallow: false, swallowed: "" };
  gets.push(stream);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const passed = new ReadableStream<Uint8Array>({
    // Reads until a chunk is passed on (a pull that enqueues nothing is not called again); ends with the upstream.
    async pull(controller) {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return controller.close();
        if (!stream.swallow) return controller.enqueue(value);
        stream.swallowed += decoder.decode(value, { stream: true });
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(passed, { status: response.status, statusText: response.statusText, headers: response.headers });
};

const text = (result: { content?: unknown }) =>
  ((result.content as { type: string; text?: string }[] | undefined) ?? []).map((c) => c.text).join("");
const updatesIn = (sse: string) => (sse.match(/notifications\/resources\/updated/g) ?? []).length;

beforeAll(async () => {
  redis = await startRedis();
  const env = { REDIS_URL: redis.url, PREFIX: "sessions:", STORES: process.env.X_MCP_SESSION_STORES ?? "redis" };
  const started = await Promise.all(NAMES.map((name) => startListening(FIXTURE, { ...env, INSTANCE: name })));
  NAMES.forEach((name, i) => {
    instances[name] = started[i]!;
  });
  balancer = await startBalancer(started.map((s) => s.url));
}, 300_000);

afterAll(async () => {
  for (const instance of Object.values(instances)) await stopProcess(instance.child);
  await balancer?.stop();
  await redis?.stop();
});

describe("initialize-era sessions shared through Redis, three instances behind nginx round-robin", () => {
  it("the official client connects, lists, calls, answers an elicitation across instances, resumes its GET stream elsewhere and outlives the instance that opened its session", async () => {
    const client = new Client({ name: "official-sdk-client", version: "2.4.0" }, { capabilities: { elicitation: {} } });
    const transport = new StreamableHTTPClientTransport(new URL(`${balancer.origin}/mcp`), { fetch: recordingFetch });
    try {
      await client.connect(transport);
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      const opener = log.find((e) => e.body?.method === "initialize")!.instance as Name;
      expect(NAMES).toContain(opener);

      // Lists and calls: round-robin spreads them over the instances, each serving the session.
      const listed = await client.listTools();
      expect(listed.tools.map((t) => t.name).sort()).toEqual(["confirm", "touch", "whoami"]);
      const served = new Set<string>();
      for (let i = 0; i < 3; i++) served.add(text(await client.callTool({ name: "whoami", arguments: {} })));
      expect([...served].sort()).toEqual(["instance A", "instance B", "instance C"]);

      // An elicitation sent by one instance, answered by a POST landing on another (round-robin makes that
      // the usual case; a few tries cover requests of the client's own that came between).
      const asked: string[] = [];
      client.setRequestHandler("elicitation/create", async (request) => {
        asked.push(String(request.params.message));
        return { action: "accept", content: { ok: true } };
      });
      let sender = "";
      let receiver = "";
      let result = "";
      for (let attempt = 0; attempt < 6 && (sender === "" || sender === receiver); attempt++) {
        const from = log.length;
        result = text(await client.callTool({ name: "confirm", arguments: {} }));
        const exchanges = log.slice(from);
        sender = exchanges.find((e) => e.body?.method === "tools/call")!.instance;
        // The answer was POSTed before the tool could return; its own 202 may still be on its way.
        const answer = exchanges.find((e) => e.body && e.body.method === undefined && "result" in e.body)!;
        await answer.answered;
        receiver = answer.instance;
      }
      expect(receiver).not.toBe(sender);
      // The handler waiting on the sender got the answer POSTed to the receiver.
      expect(result).toBe(`accepted, asked on ${sender}`);
      expect(asked.at(-1)).toMatch(new RegExp(`^Go ahead\\? \\(asked on ${sender}, pid ${instances[sender as Name].child.pid}\\)$`));

      // Resource updates on the GET stream, whichever instance holds it.
      let heard = 0;
      client.setNotificationHandler("notifications/resources/updated", () => {
        heard++;
      });
      await client.subscribeResource({ uri: "memo://board" });
      expect(await eventually(() => gets.length === 1)).toBe(true);
      const first = gets[0]!;
      const holder = first.instance as Name;
      for (let i = 1; i <= 3; i++) {
        await client.callTool({ name: "touch", arguments: {} });
        expect(await eventually(() => heard === i)).toBe(true);
      }
      // Three more, sent by the holder and stored, but lost in flight: the client never reads them.
      first.swallow = true;
      for (let i = 1; i <= 3; i++) await client.callTool({ name: "touch", arguments: {} });
      expect(await eventually(() => updatesIn(first.swallowed) === 3)).toBe(true);
      expect(heard).toBe(3);

      // The instance holding the GET stream dies: the client resumes with Last-Event-ID on another one,
      // which replays the three it missed from Redis.
      await stopProcess(instances[holder].child, "SIGKILL");
      expect(await eventually(() => heard === 6, 20_000)).toBe(true);
      const resumed = gets[1]!;
      expect(resumed.lastEventId).toMatch(/^get\./);
      expect(resumed.instance).not.toBe(holder);
      expect(NAMES).toContain(resumed.instance);
      // Live again on the resumed stream, nothing twice.
      for (let i = 7; i <= 8; i++) {
        await client.callTool({ name: "touch", arguments: {} });
        expect(await eventually(() => heard === i)).toBe(true);
      }
      await client.callTool({ name: "whoami", arguments: {} });
      expect(heard).toBe(8);

      // The instance that opened the session dies too (if it was not the holder): the session lives on.
      if (opener !== holder) await stopProcess(instances[opener].child, "SIGKILL");
      const survivors = NAMES.filter((n) => n !== opener && n !== holder);
      const again = await client.listTools();
      expect(again.tools).toHaveLength(3);
      for (let i = 0; i < 2; i++) {
        expect(survivors.map((n) => `instance ${n}`)).toContain(text(await client.callTool({ name: "whoami", arguments: {} })));
      }
      expect(log.filter((e) => e.status === 404)).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
