// Every version as itself (issue 39): a client pinned to each of the five
// protocol versions never receives a method, a notification, a capability
// or a result member its version's schema does not define, as that
// version's strict validators (`@x/mcp-v*\/strict`, unknown members refused)
// read every line it gets; and an ask the version cannot carry answers "not
// supported" as a missing capability does. Over stdio (in-memory pipes, the
// real transport), against one server that uses what the newest versions added.
import { META_CLIENT_CAPABILITIES } from "@x/mcp-v2607";
import { describe, expect, it } from "vitest";
import type { McpServer } from "../../src/index.js";
import { meta } from "../helpers.js";
import { post, sse, start, stdioConnect } from "../legacy/helpers.js";
import { type Message, RESULT_OF, richServer, STRICT } from "./versions-fixture.js";

const ERA = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** What the client declares whatever its version: a client of an older version declaring more must not be used past its version. */
const CAPABILITIES = { elicitation: { form: {}, url: {} }, sampling: {}, roots: { listChanged: true } };

/** How a pinned client reaches the server: stdio lines, or Streamable HTTP POSTs. */
interface Wire {
  /** Sends a request; resolves with a reader of what comes back for it (the next message, `undefined` once there is none). */
  request(message: Message): Promise<() => Promise<Message | undefined>>;
  /** Sends a notification or a response. */
  send(message: Message): Promise<void>;
  end(): Promise<void>;
}

function stdioWire(server: McpServer): Wire {
  const connection = stdioConnect(server);
  return {
    async request(message) {
      connection.send(message);
      return () => connection.next();
    },
    async send(message) {
      connection.send(message);
    },
    end: () => connection.end(),
  };
}

/** Streamable HTTP on a real server: the session's id and version header from `initialize` on; an answer as JSON or an SSE stream. */
async function httpWire(server: McpServer): Promise<Wire> {
  const running = await start(server);
  const headers: Record<string, string> = {};
  return {
    async request(message) {
      const res = await post(running.url, message, headers);
      const id = res.headers.get("mcp-session-id");
      if (id !== null) headers["mcp-session-id"] = id;
      if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
        let body: Message | undefined = (await res.json()) as Message;
        if (message.method === "initialize") headers["mcp-protocol-version"] = body.result.protocolVersion;
        return async () => {
          const next = body;
          body = undefined;
          return next;
        };
      }
      const events = sse(res);
      return async () => {
        const next = await events.message();
        if (next !== undefined) delete next.__eventId;
        return next;
      };
    },
    async send(message) {
      const res = await post(running.url, message, headers);
      expect(res.status).toBe(202);
    },
    end: () => running.stop(),
  };
}

let nextId = 1;

/**
 * A client pinned to `version`: `call` sends a request and reads every
 * message up to its answer, checking each with the version's strict
 * validators (a result by its method's definition, a notification as a
 * `ServerNotification`, a request as a `ServerRequest`, which it answers
 * with `answer`). `problems` collects what failed a check.
 */
function pinned(wire: Wire, version: string, perRequest = false) {
  const check = STRICT[version]!;
  const problems: string[] = [];
  const notifications: Message[] = [];
  const requests: Message[] = [];
  const note = (what: string, value: unknown, found: { path: string; message: string }[]) => {
    if (found.length > 0)
      problems.push(`${what}: ${found.map((p) => `${p.path || "/"} ${p.message}`).join("; ")} in ${JSON.stringify(value)}`);
  };
  return {
    problems,
    notifications,
    requests,
    /** Answers the server's requests: an elicitation is accepted with a name. */
    answer: (_request: Message): Message => ({ action: "accept", content: { name: "Ada" } }),
    async call(method: string, params: Message = {}): Promise<Message> {
      const envelope = meta({ [META_CLIENT_CAPABILITIES]: CAPABILITIES });
      const sent = perRequest ? { ...params, _meta: { ...envelope, ...(params._meta ?? {}) } } : params;
      const rid = nextId++;
      const next = await wire.request({ jsonrpc: "2.0", id: rid, method, params: sent });
      for (let i = 0; i < 100; i++) {
        const line = await next();
        if (line === undefined) break;
        if (line.id === rid && ("result" in line || "error" in line)) {
          if ("result" in line) {
            const definition = line.result.resultType === "input_required" ? "InputRequiredResult" : RESULT_OF[method]!;
            note(`${method} result (${definition})`, line.result, check(definition, line.result));
          }
          return line;
        }
        if (typeof line.method === "string" && "id" in line) {
          requests.push(line);
          note(`request ${line.method}`, line, check("ServerRequest", line));
          await wire.send({ jsonrpc: "2.0", id: line.id, result: this.answer(line) });
        } else if (typeof line.method === "string") {
          notifications.push(line);
          note(`notification ${line.method}`, line, check("ServerNotification", line));
        } else problems.push(`an unexpected message: ${JSON.stringify(line)}`);
      }
      throw new Error(`no answer to ${method}`);
    },
    /** Opens the session: `initialize` with `capabilities`, then `notifications/initialized`. */
    async initialize(capabilities: Message): Promise<Message> {
      const init = await this.call("initialize", { protocolVersion: version, capabilities, clientInfo: { name: "c", version: "1" } });
      await wire.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      return init;
    },
    end: () => wire.end(),
  };
}

/** The requests every version's client makes, with what they need; returns the answers by name. */
async function exercise(client: ReturnType<typeof pinned>) {
  const got: Record<string, Message> = {};
  got.tools = await client.call("tools/list");
  got.weather = await client.call("tools/call", { name: "weather", arguments: { city: "Paris" } });
  got.media = await client.call("tools/call", { name: "media", arguments: {} });
  got.report = await client.call("tools/call", { name: "report", arguments: {}, _meta: { progressToken: "p1" } });
  got.prompts = await client.call("prompts/list");
  got.prompt = await client.call("prompts/get", { name: "greet", arguments: { who: "Ada" } });
  got.resources = await client.call("resources/list");
  got.templates = await client.call("resources/templates/list");
  got.read = await client.call("resources/read", { uri: "file:///notes.txt" });
  got.complete = await client.call("completion/complete", {
    ref: { type: "ref/prompt", name: "greet" },
    argument: { name: "who", value: "A" },
  });
  got.ask = await client.call("tools/call", { name: "ask", arguments: {} });
  got.askUrl = await client.call("tools/call", { name: "askUrl", arguments: {} });
  return got;
}

const textOf = (response: Message) => (response.result?.content ?? []).map((block: Message) => block.text).join("\n");

const TRANSPORTS = ["stdio", "Streamable HTTP"] as const;
const wireOf = async (server: McpServer, transport: (typeof TRANSPORTS)[number]) =>
  transport === "stdio" ? stdioWire(server) : await httpWire(server);

describe.each(ERA.flatMap((version) => TRANSPORTS.map((transport) => [version, transport] as const)))(
  "a client pinned to %s (initialize era, %s)",
  (version, transport) => {
    it("receives only what its version defines, from initialize to asks", async () => {
      const server = richServer();
      const client = pinned(await wireOf(server, transport), version);
      const init = await client.initialize(CAPABILITIES);
      expect(init.result.protocolVersion).toBe(version);
      const caps = init.result.capabilities;
      // What the capabilities say of the version (the strict check says the rest).
      expect("tasks" in caps).toBe(version === "2025-11-25");
      expect("completions" in caps).toBe(version !== "2024-11-05");
      // Who the server is: title from 2025-06-18, description, website and icons from 2025-11-25.
      const info = init.result.serverInfo;
      expect(Object.keys(info).sort()).toEqual(
        version === "2025-11-25"
          ? ["description", "icons", "name", "title", "version", "websiteUrl"]
          : version === "2025-06-18"
            ? ["name", "title", "version"]
            : ["name", "version"],
      );
      await client.call("logging/setLevel", { level: "debug" });
      const got = await exercise(client);
      // A notification of a list change, on the session (over HTTP on its GET stream, which this client does not open).
      server.registerTool("late", { description: "registered later" }, () => "late");
      await client.call("ping");
      await client.end();
      server.close();

      expect(client.problems).toEqual([]);
      const methods = client.notifications.map((n) => n.method);
      expect(methods).toEqual(expect.arrayContaining(["notifications/progress", "notifications/message"]));
      if (transport === "stdio") expect(methods).toContain("notifications/tools/list_changed");
      // A tool's icons from 2025-11-25 on.
      const weather = (got.tools!.result.tools as Message[]).find((tool) => tool.name === "weather")!;
      expect(weather.icons).toEqual(
        version === "2025-11-25" ? [expect.objectContaining({ src: "https://example.com/icon.png" })] : undefined,
      );
      // Every call was answered with a result.
      for (const [name, response] of Object.entries(got)) expect(response.error, name).toBeUndefined();
      // Content blocks the version lacks became text blocks holding their JSON.
      const media = got.media!.result.content as Message[];
      expect(media).toHaveLength(5);
      if (version === "2025-03-26" || version === "2024-11-05") {
        expect(JSON.parse(media[3]!.text)).toMatchObject({ type: "resource_link", uri: "file:///notes.txt" });
        expect(got.prompt!.result.messages[1].content.type).toBe("text");
      }
      if (version === "2024-11-05") expect(JSON.parse(media[2]!.text)).toMatchObject({ type: "audio" });
      // Asks: form elicitation from 2025-06-18 on, URL elicitation from 2025-11-25 on; else "not supported".
      const elicits = client.requests.filter((r) => r.method === "elicitation/create");
      const form = version === "2025-11-25" || version === "2025-06-18";
      expect(JSON.parse(textOf(got.ask!))).toEqual(
        form ? { action: "accept", content: { name: "Ada" } } : { action: "not_supported", capability: "elicitation.form" },
      );
      expect(JSON.parse(textOf(got.askUrl!))).toEqual(
        version === "2025-11-25"
          ? { action: "accept", content: { name: "Ada" } }
          : { action: "not_supported", capability: "elicitation.url" },
      );
      expect(elicits).toHaveLength(version === "2025-11-25" ? 2 : form ? 1 : 0);
    });

    it("answers a method its version lacks with -32601", async () => {
      const server = richServer();
      const client = pinned(await wireOf(server, transport), version);
      await client.initialize({ tasks: { list: {}, cancel: {} } });
      // tasks/get of a task that does not exist: unknown to the tasks of 2025-11-25 (-32602), a method no other version has.
      const tasks = await client.call("tasks/get", { taskId: "no-such-task" });
      await client.end();
      server.close();
      expect(tasks.error.code).toBe(version === "2025-11-25" ? -32602 : -32601);
      expect(client.problems).toEqual([]);
    });
  },
);

describe("a client of 2026-07-28 (per-request envelope, stdio)", () => {
  it("receives only what 2026-07-28 defines", async () => {
    const server = richServer();
    const client = pinned(stdioWire(server), "2026-07-28", true);
    const discover = await client.call("server/discover");
    const got = await exercise(client);
    await client.end();
    server.close();
    expect(client.problems).toEqual([]);
    for (const [name, response] of Object.entries(got)) expect(response.error, name).toBeUndefined();
    // The server's icons and description, and a tool's icons.
    expect(discover.result._meta["io.modelcontextprotocol/serverInfo"]).toMatchObject({ description: "Serves everything", icons: [{}] });
    expect(got.tools!.result.tools.find((tool: Message) => tool.name === "weather").icons).toHaveLength(1);
    // Asks are a Multi Round-Trip round there: the answer is input_required.
    expect(got.ask!.result.resultType).toBe("input_required");
  });
});
