// Compiled (tsc --noEmit) in a CommonJS TypeScript project and in an ES
// module one: types and values from every package's main entry and a few
// subpaths, used the way an application would. Never run.
import { callToolResult, text } from "@x/builders";
import { Client, type ClientOptions, McpClientError, StreamableHttpTransport } from "@x/client";
import { attachDevtools, type Devtools, type DevtoolsOptions } from "@x/devtools";
import { type Dialect, type JsonSchemaValidator, schemaDialect } from "@x/json-schema";
import { ajvValidator } from "@x/json-schema/ajv";
import { errorResponse, type JsonRpcErrorResponse, JsonRpcErrorCode } from "@x/jsonrpc";
import { PROTOCOL_VERSION as LEGACY_VERSION, type Tool as LegacyTool } from "@x/mcp-v2511";
import { type CallToolResult, PROTOCOL_VERSION, type Tool } from "@x/mcp-v2607";
import { encodeHeaderValue } from "@x/mcp-v2607/wire";
import { type InstrumentOptions, instrumentServers } from "@x/otel";
import { RedisTaskStore } from "@x/redis";
import { type ListenOptions, listen, McpServer, type RunningHttpServer } from "@x/server";
import { registerActionTool } from "@x/server/actions";
import { jwtVerifier } from "@x/server/auth";
import { tasks } from "@x/server/tasks";
import { CHANNELS } from "@x/server/telemetry";
import { buildContext } from "@x/server/testing";
import { McpServer as McpServer2607, serveStdio } from "@x/server/v2607";

export async function start(options: ListenOptions = { port: 0 }): Promise<RunningHttpServer> {
  const server = new McpServer({ name: "typed", version: "1.0.0" }, { tasks: tasks() });
  // The handler's argument type comes from the literal schema (json-schema-to-ts, resolved from the consumer).
  server.registerTool(
    "shout",
    { inputSchema: { type: "object", properties: { words: { type: "string" } }, required: ["words"] } },
    ({ words }) => words.toUpperCase(),
  );
  return listen(server, options);
}

/** The devtools page on a server, with a checked options type. */
export function devtools(server: McpServer): Promise<Devtools> {
  const options: DevtoolsOptions = { port: 0, print: false };
  return attachDevtools(server, options);
}

/** A 2026-07-28-only server: the same registration API, over stdio. */
export function serve2607(): Promise<void> {
  const server = new McpServer2607({ name: "typed", version: "1.0.0" }, { protocolVersions: ["2026-07-28"] });
  server.registerTool("shout", { inputSchema: { type: "object", properties: { words: { type: "string" } } } }, ({ words }) =>
    String(words).toUpperCase(),
  );
  return serveStdio(server);
}

export async function call(url: string): Promise<CallToolResult | undefined> {
  const options: ClientOptions = {};
  const client = new Client({ name: "typed", version: "1.0.0" }, options);
  try {
    await client.connect(new StreamableHttpTransport(url));
    return (await client.callTool("shout", { words: "hi" })) as CallToolResult;
  } catch (error) {
    if (error instanceof McpClientError) return undefined;
    throw error;
  } finally {
    await client.close();
  }
}

export const values = {
  result: callToolResult([{ type: "text", text: "x" }]) satisfies CallToolResult,
  content: text("x"),
  dialect: schemaDialect({}) satisfies Dialect,
  validator: ajvValidator satisfies JsonSchemaValidator,
  error: errorResponse(1, JsonRpcErrorCode.InvalidParams, "bad") satisfies JsonRpcErrorResponse,
  versions: [PROTOCOL_VERSION, LEGACY_VERSION] as const,
  header: encodeHeaderValue("é"),
  instrument: (options: InstrumentOptions) => instrumentServers(options),
  store: RedisTaskStore,
  actions: registerActionTool,
  verifier: jwtVerifier,
  channels: CHANNELS,
  context: buildContext,
};

export type Tools = [Tool, LegacyTool];

// The types are real, not `any`: each line below must be an error (an
// expected error that does not occur fails the compile itself).
// @ts-expect-error McpServer is not a number
export const notANumber: number = new McpServer({ name: "typed", version: "1.0.0" });
// @ts-expect-error a tool name is a string
export const badCall = (client: Client) => client.callTool(42);
// @ts-expect-error PROTOCOL_VERSION is a string
export const notAVersion: number = PROTOCOL_VERSION;
