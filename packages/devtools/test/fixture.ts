/**
 * A small server for the tests: a tool with an output schema, one whose
 * error result does not match its schema, one that asks a question, a
 * prompt, a resource and a template; served on 127.0.0.1 (port 0), with a
 * bearer token verifier when asked.
 */
import { listen, McpServer } from "@x/server";

export const TOKEN = "secret-bearer-token-0123456789";

export function fixtureServer(): McpServer {
  const server = new McpServer({ name: "fixture", version: "1.2.3", title: "Fixture" });
  server.registerTool(
    "add",
    {
      description: "Adds two integers",
      inputSchema: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"] },
      outputSchema: { type: "object", properties: { sum: { type: "integer" } }, required: ["sum"] },
    },
    ({ a, b }) => ({ resultType: "complete", content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool(
    "count",
    {
      description: "Fails with structured content that does not match its schema",
      outputSchema: { type: "object", properties: { count: { type: "integer" } }, required: ["count"] },
    },
    // An error result is not checked by the server; the page still checks it against the schema.
    () => ({ isError: true, content: [{ type: "text", text: "no count" }], structuredContent: { count: "many" } }) as never,
  );
  server.registerTool("confirm", { description: "Asks before answering" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Go ahead?", {
      type: "object",
      properties: { ok: { type: "boolean", title: "Go" } },
      required: ["ok"],
    });
    return answer.action === "accept" ? `confirmed: ${String(answer.content.ok)}` : `not confirmed: ${answer.action}`;
  });
  server.registerPrompt("greet", { arguments: [{ name: "name", required: true }] }, ({ name }) => `Hello ${name}`);
  server.registerResource("index", "notes://index", { mimeType: "text/plain" }, () => "one\ntwo");
  server.registerResourceTemplate("note", "notes://{title}", { mimeType: "text/plain" }, (uri, { title }) => ({
    uri,
    mimeType: "text/plain",
    text: `note ${String(title)}`,
  }));
  return server;
}

/** Serves `server` over Streamable HTTP on 127.0.0.1; with `auth`, only {@link TOKEN} is accepted, as subject "alice" of client "cli-1". */
export async function serveFixture(server: McpServer, auth = false): Promise<{ url: string; close: () => Promise<void> }> {
  return listen(server, {
    port: 0,
    ...(auth
      ? {
          auth: {
            verifyAccessToken: (token: string) => (token === TOKEN ? { subject: "alice", clientId: "cli-1", scopes: [] } : undefined),
            resourceMetadata: { resource: "http://127.0.0.1/mcp", authorizationServers: ["https://as.example"] },
          },
        }
      : {}),
  });
}
