// Tokens that name neither a subject (`sub`) nor a client (`client_id`,
// `azp`): their principal is a digest of the token itself, so two such tokens
// are two principals. A requestState, an initialize-era session and a task
// made with one are refused (as another principal's) for the other, and
// accepted for the same token. Real HTTP on 127.0.0.1, the JWT verifier and a
// loopback JWKS.
import { META_CLIENT_CAPABILITIES } from "@x/mcp-v2607";
import { TASKS_EXTENSION } from "@x/mcp-v2607/tasks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jwtVerifier } from "../../src/auth/index.js";
import { McpServer, type RequestContext } from "../../src/index.js";
import { headersFor, meta } from "../helpers.js";
import { ISSUER, jwksServer, makeKey, serveMcp, sign, type TestKey } from "./fixture.js";
import { tasks as tasksPlugin } from "../../src/tasks/index.js";

type Message = Record<string, any>;

const runs: Record<string, number> = {};
const ran = (name: string) => {
  runs[name] = (runs[name] ?? 0) + 1;
};

let key: TestKey;
let jwks: Awaited<ReturnType<typeof jwksServer>>;
let served: Awaited<ReturnType<typeof serveMcp>>;
/** Two tokens with neither sub nor client_id (nor azp), told apart only by their jti. */
let first: string;
let second: string;

beforeAll(async () => {
  key = await makeKey("k");
  jwks = await jwksServer([key]);
  const mcp = new McpServer({ name: "anonymous", version: "1" }, { requestStateKeys: [Buffer.alloc(32, 5)], tasks: tasksPlugin() });
  mcp.registerTool("whoami", {}, (_a, ctx: RequestContext) => {
    ran("whoami");
    return `${ctx.auth?.subject ?? "-"}/${ctx.auth?.clientId ?? "-"}`;
  });
  mcp.registerTool("confirm", {}, async (_a, ctx: RequestContext) => {
    ran("confirm");
    const answer = await ctx.elicit("Sure?", { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] });
    return `confirmed: ${answer.action}`;
  });
  mcp.registerTool("job", { taskSupport: "required" }, () => {
    ran("job");
    return "done";
  });
  served = await serveMcp(mcp, (url) => ({
    auth: {
      verifyAccessToken: jwtVerifier({ jwksUrl: jwks.url, issuer: ISSUER, audience: url }),
      resourceMetadata: { resource: url, authorizationServers: [ISSUER] },
    },
  }));
  const anonymous = (jti: string) => sign(key, served.resource, { sub: undefined, client_id: undefined, jti });
  first = await anonymous("first");
  second = await anonymous("second");
});

afterAll(async () => {
  await served.stop();
  await jwks.stop();
});

beforeEach(() => {
  for (const k of Object.keys(runs)) delete runs[k];
});

let nextId = 1;

/** A 2026-07-28 request whose client declares elicitation and the tasks extension. */
const request = (method: string, params: Message) => ({
  jsonrpc: "2.0",
  id: nextId++,
  method,
  params: { ...params, _meta: meta({ [META_CLIENT_CAPABILITIES]: { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } } }) },
});

async function call(body: Message, token: string) {
  const response = await fetch(served.resource, {
    method: "POST",
    headers: { ...headersFor(body as never), authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

describe("tokens with neither subject nor client", () => {
  it("are accepted, and their AuthInfo names no subject and no client", async () => {
    for (const token of [first, second]) {
      const answer = await call(request("tools/call", { name: "whoami", arguments: {} }), token);
      expect(answer.json.result.content[0].text).toBe("-/-");
    }
  });

  it("a requestState minted for one is refused for the other as another principal's, and accepted for the same token", async () => {
    const asked = await call(request("tools/call", { name: "confirm", arguments: {} }), first);
    expect(asked.json.result.resultType).toBe("input_required");
    const [askId] = Object.keys(asked.json.result.inputRequests);
    const retry = {
      name: "confirm",
      arguments: {},
      requestState: asked.json.result.requestState,
      inputResponses: { [askId!]: { action: "accept", content: { ok: true } } },
    };
    const refused = await call(request("tools/call", retry), second);
    expect(refused.json.error.code).toBe(-32602);
    expect(refused.json.error.message).toBe("Invalid requestState: issued to another principal");
    expect(runs.confirm).toBe(1);
    const own = await call(request("tools/call", retry), first);
    expect(own.json.result.content[0].text).toBe("confirmed: accept");
    expect(runs.confirm).toBe(2);
  });

  it("a task made with one is not found for the other, and found for the same token", async () => {
    const made = await call(request("tools/call", { name: "job", arguments: {} }), first);
    expect(made.json.result.resultType).toBe("task");
    const taskId = made.json.result.taskId as string;
    const unknown = await call(request("tasks/get", { taskId: globalThis.crypto.randomUUID() }), first);
    const other = await call(request("tasks/get", { taskId }), second);
    expect(other.json.error).toEqual(unknown.json.error);
    const own = await call(request("tasks/get", { taskId }), first);
    expect(own.json.result.taskId).toBe(taskId);
  });

  it("an initialize-era session opened with one is an unknown session (404) for the other, and usable with the same token", async () => {
    const post = async (body: Message, headers: Record<string, string>) =>
      fetch(served.resource, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(body),
      });
    const init = await post(
      {
        jsonrpc: "2.0",
        id: nextId++,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      },
      { authorization: `Bearer ${first}` },
    );
    expect(init.status).toBe(200);
    await init.text();
    const session = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
    const initialized = await post(
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { ...session, authorization: `Bearer ${first}` },
    );
    expect(initialized.status).toBe(202);
    const whoami = () => ({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name: "whoami", arguments: {} } });
    const stolen = await post(whoami(), { ...session, authorization: `Bearer ${second}` });
    expect(stolen.status).toBe(404);
    await stolen.text();
    expect(runs.whoami).toBeUndefined();
    const own = await post(whoami(), { ...session, authorization: `Bearer ${first}` });
    expect(own.status).toBe(200);
    expect(await own.text()).toContain("-/-");
    expect(runs.whoami).toBe(1);
  });
});
