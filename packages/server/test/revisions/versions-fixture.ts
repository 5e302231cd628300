// The server and the checks of the five-version test (versions.test.ts): a
// server using what the newest versions added (titles, icons, annotations,
// output schemas, structured content, resource links, audio, tasks, URL
// elicitation), and each version's strict validators to read what a client
// pinned to it receives.
import { validateStrict as strict2411 } from "@x/mcp-v2411/strict";
import { validateStrict as strict2503 } from "@x/mcp-v2503/strict";
import { validateStrict as strict2506 } from "@x/mcp-v2506/strict";
import { validateStrict as strict2511 } from "@x/mcp-v2511/strict";
import { validateStrict as strict2607 } from "@x/mcp-v2607/strict";
import type { CallToolResult, GetPromptResult } from "@x/mcp-v2607";
import { McpServer } from "../../src/index.js";
import { tasks } from "../../src/tasks/index.js";

export type Message = Record<string, any>;
type Problems = { path: string; message: string }[];
/** A strict check by definition name: the problems, none when the value holds only what the version defines. */
export type StrictCheck = (definition: string, value: unknown) => Problems;

const wrap =
  (validate: (definition: any, value: unknown) => { ok: boolean; problems?: Problems }): StrictCheck =>
  (definition, value) => {
    const checked = validate(definition, value);
    return checked.ok ? [] : (checked.problems ?? []);
  };

/** Each version's strict check (`@x/mcp-v*\/strict`). */
export const STRICT: Record<string, StrictCheck> = {
  "2026-07-28": wrap(strict2607),
  "2025-11-25": wrap(strict2511),
  "2025-06-18": wrap(strict2506),
  "2025-03-26": wrap(strict2503),
  "2024-11-05": wrap(strict2411),
};

/** The definition each method's result is checked against (the spec's pairing; the test's own list, not the server's). */
export const RESULT_OF: Record<string, string> = {
  initialize: "InitializeResult",
  ping: "EmptyResult",
  "logging/setLevel": "EmptyResult",
  "tools/list": "ListToolsResult",
  "tools/call": "CallToolResult",
  "prompts/list": "ListPromptsResult",
  "prompts/get": "GetPromptResult",
  "resources/list": "ListResourcesResult",
  "resources/templates/list": "ListResourceTemplatesResult",
  "resources/read": "ReadResourceResult",
  "resources/subscribe": "EmptyResult",
  "completion/complete": "CompleteResult",
  "server/discover": "DiscoverResult",
};

const ICONS = [{ src: "https://example.com/icon.png", mimeType: "image/png", sizes: ["48x48"] }];
const PNG = "iVBORw0KGgo=";

/**
 * A server that uses everything the newest versions added. The tasks plug-in
 * puts `tasks` in the capabilities of 2025-11-25 and `execution` on the
 * `slow` tool.
 */
export function richServer(): McpServer {
  const server = new McpServer(
    {
      name: "rich",
      version: "1.0.0",
      title: "Rich server",
      description: "Serves everything",
      websiteUrl: "https://example.com",
      icons: ICONS,
    },
    { logging: true, instructions: "Use the tools.", tasks: tasks({ ttlMs: 60_000 }) },
  );
  server.registerTool(
    "weather",
    {
      title: "Weather",
      description: "The weather of a city",
      annotations: { readOnlyHint: true, title: "Weather" },
      icons: ICONS,
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      outputSchema: { type: "object", properties: { high: { type: "number" } }, required: ["high"] },
      _meta: { "example.com/owner": "weather" },
    },
    () => ({ resultType: "complete", content: [{ type: "text", text: '{"high":21}' }], structuredContent: { high: 21 } }),
  );
  server.registerTool(
    "media",
    { description: "Content of every kind" },
    (): CallToolResult => ({
      resultType: "complete",
      content: [
        { type: "text", text: "hello", annotations: { audience: ["user"], priority: 0.5, lastModified: "2025-01-01T00:00:00Z" } },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
        { type: "resource_link", uri: "file:///notes.txt", name: "notes", title: "Notes", icons: ICONS },
        { type: "resource", resource: { uri: "file:///a.txt", text: "a", mimeType: "text/plain", _meta: { k: 1 } } },
      ],
    }),
  );
  server.registerTool("report", { description: "Reports progress and logs" }, (_args, ctx) => {
    ctx.progress(1, 2, "half way");
    ctx.log("info", { step: 1 }, "report");
    return "done";
  });
  server.registerTool("slow", { description: "May run as a task", taskSupport: "optional" }, () => "slow done");
  server.registerTool("ask", { description: "Asks for a name" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Your name?", { type: "object", properties: { name: { type: "string", title: "Name" } } });
    return JSON.stringify(answer);
  });
  server.registerTool("askUrl", { description: "Sends the user to a page" }, async (_args, ctx) => {
    const answer = await ctx.elicitUrl("Sign in", "https://example.com/login");
    return JSON.stringify(answer);
  });
  server.registerPrompt(
    "greet",
    {
      title: "Greeting",
      description: "Greets someone",
      icons: ICONS,
      arguments: [{ name: "who", title: "Who", required: true }],
      complete: { who: (value) => ["Ada", "Alan"].filter((n) => n.startsWith(value)) },
    },
    (args): GetPromptResult => ({
      resultType: "complete",
      description: "A greeting",
      messages: [
        { role: "user", content: { type: "text", text: `Hello ${args.who}` } },
        { role: "assistant", content: { type: "resource_link", uri: "file:///notes.txt", name: "notes" } },
      ],
    }),
  );
  server.registerResource(
    "notes",
    "file:///notes.txt",
    {
      title: "Notes",
      description: "Some notes",
      mimeType: "text/plain",
      size: 5,
      icons: ICONS,
      annotations: { audience: ["user"], lastModified: "2025-01-01T00:00:00Z" },
      _meta: { k: 1 },
    },
    () => [{ uri: "file:///notes.txt", text: "notes", mimeType: "text/plain", _meta: { k: 1 } }],
  );
  server.registerResourceTemplate("file", "file:///{name}", { title: "Files", icons: ICONS, mimeType: "text/plain" }, (uri) => [
    { uri, text: "file" },
  ]);
  return server;
}
