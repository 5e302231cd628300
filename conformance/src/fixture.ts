/**
 * The fixture server the official conformance suite tests: every tool the
 * suite's server scenarios call, built on @x/server like any user's server.
 * Tools are registered in a fixed order, `test_simple_text` first (the
 * header-validation scenario calls the first listed tool with no arguments).
 */
import { callToolResult } from "@x/builders";
import { McpError, McpServer } from "@x/server";
import { tasks } from "@x/server/tasks";
import { registerTasks } from "./tasks.js";

/** A 1x1 PNG, base64. */
export const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/** A tiny WAV file, base64. */
export const WAV_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

const noArgs = { type: "object" as const, properties: {} };

/** Builds the fixture server. */
export function createFixtureServer(): McpServer {
  const server = new McpServer(
    { name: "x-conformance-fixture", version: "0.1.0" },
    {
      cache: { ttlMs: 60_000, cacheScope: "public", methods: { "server/discover": { ttlMs: 0, cacheScope: "private" } } },
      logging: true,
      // The tasks scenarios' tools (./tasks.ts) run as tasks.
      tasks: tasks(),
    },
  );

  server.registerTool("test_simple_text", { description: "Returns one text block.", inputSchema: noArgs }, () =>
    callToolResult([["text", "This is a simple text response for testing."]]),
  );
  server.registerTool("test_image_content", { description: "Returns one PNG image block.", inputSchema: noArgs }, () =>
    callToolResult([["image", ["image/png", PNG_BASE64]]]),
  );
  server.registerTool("test_audio_content", { description: "Returns one WAV audio block.", inputSchema: noArgs }, () =>
    callToolResult([["audio", ["audio/wav", WAV_BASE64]]]),
  );
  server.registerTool("test_embedded_resource", { description: "Returns an embedded text resource.", inputSchema: noArgs }, () =>
    callToolResult([
      ["resource", { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." }],
    ]),
  );
  server.registerTool(
    "test_multiple_content_types",
    { description: "Returns text, an image and an embedded resource.", inputSchema: noArgs },
    () =>
      callToolResult([
        ["text", "Multiple content types test:"],
        ["image", ["image/png", PNG_BASE64]],
        ["resource", { uri: "test://mixed-content-resource", mimeType: "application/json", text: '{"test":"data","value":123}' }],
      ]),
  );
  server.registerTool("test_error_handling", { description: "Always fails with a tool error.", inputSchema: noArgs }, () => {
    throw new Error("This tool intentionally returns an error for testing");
  });
  server.registerTool(
    "test_tool_with_progress",
    { description: "Reports progress 0, 50 and 100 of 100 while it runs.", inputSchema: noArgs },
    async (_args, ctx) => {
      for (const step of [0, 50, 100]) {
        ctx.progress(step, 100, `step ${step}`);
        if (step < 100) await sleep(50);
      }
      return callToolResult([["text", String(ctx.meta.progressToken ?? "no progress token")]]);
    },
  );
  server.registerTool(
    "test_missing_capability",
    { description: "Needs the client's sampling capability; refuses with -32021 without it.", inputSchema: noArgs },
    (_args, ctx) => {
      if (!ctx.clientCapabilities.sampling) {
        throw new McpError(-32021, "This tool requires the sampling client capability", { requiredCapabilities: { sampling: {} } });
      }
      return callToolResult([["text", "The client declared sampling."]]);
    },
  );
  server.registerTool(
    "test_streaming_elicitation",
    { description: "Answers without sending any request on the response stream.", inputSchema: noArgs },
    () => callToolResult([["text", "Streaming elicitation check complete."]]),
  );
  server.registerTool(
    "test_logging_tool",
    { description: "Logs only when the request asked for a log level.", inputSchema: noArgs },
    (_args, ctx) => {
      ctx.log("info", "Logging tool ran");
      return callToolResult([["text", "Logging tool complete."]]);
    },
  );
  server.registerTool(
    "test_tool_with_logging",
    { description: "Logs three messages while it runs.", inputSchema: noArgs },
    async (_args, ctx) => {
      for (const message of ["Tool execution started", "Tool processing data", "Tool execution completed"]) {
        ctx.log("info", message);
        await sleep(20);
      }
      return callToolResult([["text", "Logged three messages."]]);
    },
  );
  server.registerTool(
    "test_trigger_tool_change",
    { description: "Re-registers a tool, so listeners hear tools/list_changed.", inputSchema: noArgs },
    () => {
      server.removeTool("test_dynamic_tool");
      server.registerTool("test_dynamic_tool", dynamicTool, () => "dynamic");
      return callToolResult([["text", "Tool list changed."]]);
    },
  );
  server.registerTool(
    "test_trigger_prompt_change",
    { description: "Re-registers a prompt, so listeners hear prompts/list_changed.", inputSchema: noArgs },
    () => {
      server.removePrompt("test_dynamic_prompt");
      server.registerPrompt("test_dynamic_prompt", dynamicPrompt, () => "dynamic");
      return callToolResult([["text", "Prompt list changed."]]);
    },
  );
  server.registerTool("test_dynamic_tool", dynamicTool, () => "dynamic");
  server.registerTool(
    "test_custom_header",
    {
      description: "Echoes a region argument mirrored into the Mcp-Param-Region header.",
      inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
    },
    (args) => callToolResult([["text", `Region: ${String(args.region ?? "none")}`]]),
  );
  server.registerTool(
    "json_schema_2020_12_tool",
    {
      description: "Has an input schema that uses JSON Schema 2020-12 keywords.",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        $defs: {
          address: {
            $anchor: "addressDef",
            type: "object",
            properties: { street: { type: "string" }, city: { type: "string" } },
          },
        },
        properties: {
          name: { type: "string" },
          address: { $ref: "#/$defs/address" },
          phone: { type: "string" },
          email: { type: "string" },
          kind: { type: "string", enum: ["person", "company"] },
          companyId: { type: "string" },
        },
        additionalProperties: false,
        allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
        if: { properties: { kind: { const: "company" } }, required: ["kind"] },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, not a thenable
        then: { required: ["companyId"] },
        else: {},
      },
    },
    (args) => callToolResult([["text", `Hello ${String(args.name ?? "")}`]]),
  );

  registerResources(server);
  registerPrompts(server);
  registerMultiRoundTrip(server);
  registerClientRequests(server);
  registerTasks(server);
  return server;
}

/**
 * The tools of the initialize-era scenarios that ask the client: the same
 * `ctx.elicit` / `ctx.createMessage` a 2026-07-28 handler uses, which on an
 * initialize-era session are real server-to-client requests.
 */
function registerClientRequests(server: McpServer): void {
  server.registerTool(
    "test_sampling",
    {
      description: "Asks the client's model to answer a prompt.",
      inputSchema: { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] },
    },
    async (args, ctx) => {
      const answer = await ctx.createMessage({
        messages: [{ role: "user", content: { type: "text", text: String(args.prompt) } }],
        maxTokens: 100,
      });
      if (answer.action === "not_supported") throw new McpError(-32021, "This tool needs the client's sampling capability");
      const content = (answer as { content: { type: string; text?: string } }).content;
      return callToolResult([["text", `LLM response: ${content.type === "text" ? content.text : JSON.stringify(content)}`]]);
    },
  );
  server.registerTool(
    "test_elicitation",
    {
      description: "Asks the user for a username and an email address.",
      inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    },
    async (args, ctx) => {
      const answer = await ctx.elicit(String(args.message), {
        type: "object",
        properties: {
          username: { type: "string", description: "User's response" },
          email: { type: "string", description: "User's email address" },
        },
        required: ["username", "email"],
      });
      if (answer.action === "not_supported") throw new McpError(-32021, "This tool needs the client's elicitation capability");
      return callToolResult([["text", `User response: ${JSON.stringify(answer)}`]]);
    },
  );
  server.registerTool(
    "test_elicitation_sep1034_defaults",
    { description: "Asks with a schema that gives every primitive type a default.", inputSchema: noArgs },
    async (_args, ctx) => {
      const answer = await ctx.elicit("Please review your details", {
        type: "object",
        properties: {
          name: { type: "string", default: "John Doe" },
          age: { type: "integer", default: 30 },
          score: { type: "number", default: 95.5 },
          status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
          verified: { type: "boolean", default: true },
        },
      });
      return callToolResult([["text", elicitationText(answer)]]);
    },
  );
  server.registerTool(
    "test_elicitation_sep1330_enums",
    { description: "Asks with every kind of enum schema.", inputSchema: noArgs },
    async (_args, ctx) => {
      const answer = await ctx.elicit("Please choose", {
        type: "object",
        properties: {
          untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
          titledSingle: {
            type: "string",
            oneOf: [
              { const: "value1", title: "First Option" },
              { const: "value2", title: "Second Option" },
              { const: "value3", title: "Third Option" },
            ],
          },
          legacyEnum: { type: "string", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
          untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
          titledMulti: {
            type: "array",
            items: {
              anyOf: [
                { const: "value1", title: "First Choice" },
                { const: "value2", title: "Second Choice" },
                { const: "value3", title: "Third Choice" },
              ],
            },
          },
        },
      } as never);
      return callToolResult([["text", elicitationText(answer)]]);
    },
  );
  server.registerTool(
    "test_reconnection",
    { description: "Answers after a pause, on a resumable SSE stream.", inputSchema: noArgs },
    async () => {
      await sleep(100);
      return callToolResult([["text", "Reconnection test complete."]]);
    },
  );
}

function elicitationText(answer: { action: string; content?: unknown }): string {
  return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
}

const nameSchema = { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] };
const confirmSchema = { type: "object" as const, properties: { ok: { type: "boolean" as const } }, required: ["ok"] };
const capitalQuestion = {
  messages: [{ role: "user" as const, content: { type: "text" as const, text: "What is the capital of France?" } }],
  maxTokens: 100,
};

function answerText(answer: unknown): string {
  return JSON.stringify(answer);
}

/** The tools and prompt of the Multi Round-Trip (input_required) scenarios, written with ctx.elicit & co. */
function registerMultiRoundTrip(server: McpServer): void {
  server.registerTool(
    "test_input_required_result_elicitation",
    { description: "Asks for the user's name, then greets them.", inputSchema: noArgs },
    async (_args, ctx) => {
      const answer = await ctx.elicit("What is your name?", nameSchema, { key: "user_name" });
      if (answer.action !== "accept") return callToolResult([["text", `No name given (${answer.action}).`]]);
      return callToolResult([["text", `Hello, ${String(answer.content?.name)}!`]]);
    },
  );
  server.registerTool(
    "test_input_required_result_sampling",
    { description: "Asks the client's model a question.", inputSchema: noArgs },
    async (_args, ctx) => {
      const answer = await ctx.createMessage(capitalQuestion, { key: "sample_request" });
      return callToolResult([["text", `The model said: ${answerText(answer)}`]]);
    },
  );
  server.registerTool(
    "test_input_required_result_list_roots",
    { description: "Asks the client for its roots.", inputSchema: noArgs },
    async (_args, ctx) => {
      const answer = await ctx.listRoots({ key: "roots_request" });
      return callToolResult([["text", `Roots: ${answerText(answer)}`]]);
    },
  );
  server.registerTool(
    "test_input_required_result_request_state",
    { description: "Asks for a confirmation and carries its state in requestState.", inputSchema: noArgs },
    async (_args, ctx) => {
      const answer = await ctx.elicit("Please confirm", confirmSchema, { key: "confirm" });
      return callToolResult([["text", `state-ok: requestState validated (${answer.action})`]]);
    },
  );
  server.registerTool(
    "test_input_required_result_multiple_inputs",
    { description: "Asks three questions in one round: a name, a greeting from the model, and the roots.", inputSchema: noArgs },
    async (_args, ctx) => {
      const [name, greeting, roots] = await ctx.all([
        ctx.ask.elicit("What is your name?", nameSchema, { key: "user_name" }),
        ctx.ask.createMessage(
          { messages: [{ role: "user", content: { type: "text", text: "Say hello" } }], maxTokens: 50 },
          { key: "greeting" },
        ),
        ctx.ask.listRoots({ key: "client_roots" }),
      ]);
      return callToolResult([["text", `name ${answerText(name)}, greeting ${answerText(greeting)}, roots ${answerText(roots)}`]]);
    },
  );
  server.registerTool(
    "test_input_required_result_multi_round",
    { description: "Asks two questions, one round after the other.", inputSchema: noArgs },
    async (_args, ctx) => {
      const name = await ctx.elicit("What is your name?", nameSchema, { key: "step1" });
      const color = await ctx.elicit(
        "What is your favourite colour?",
        { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
        { key: "step2" },
      );
      return callToolResult([["text", `name ${answerText(name)}, colour ${answerText(color)}`]]);
    },
  );
  server.registerTool(
    "test_input_required_result_tampered_state",
    { description: "Asks a question; a tampered requestState on the retry is refused.", inputSchema: noArgs },
    async (_args, ctx) => {
      const answer = await ctx.elicit("Please confirm", confirmSchema, { key: "confirm" });
      return callToolResult([["text", `confirmed: ${answerText(answer)}`]]);
    },
  );
  server.registerTool(
    "test_input_required_result_capabilities",
    { description: "Asks only what the client's capabilities allow.", inputSchema: noArgs },
    async (_args, ctx) => {
      const [form, sample] = await ctx.all([
        ctx.ask.elicit("What is your name?", nameSchema, { key: "user_name" }),
        ctx.ask.createMessage(capitalQuestion, { key: "sample_request" }),
      ]);
      return callToolResult([["text", `form ${answerText(form)}, sample ${answerText(sample)}`]]);
    },
  );
  server.registerPrompt(
    "test_input_required_result_prompt",
    { description: "A prompt that asks the user for context first." },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        "What context should the prompt use?",
        { type: "object", properties: { context: { type: "string" } }, required: ["context"] },
        { key: "user_context" },
      );
      const context = answer.action === "accept" ? String(answer.content?.context) : "none";
      return `Use this context: ${context}`;
    },
  );
}

const dynamicTool = { description: "A tool the trigger tool re-registers.", inputSchema: noArgs };
const dynamicPrompt = { description: "A prompt the trigger tool re-registers." };

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function registerResources(server: McpServer): void {
  server.registerResource(
    "static-text",
    "test://static-text",
    { description: "A static text resource", mimeType: "text/plain", cache: { ttlMs: 60_000, cacheScope: "private" } },
    () => "This is the content of the static text resource.",
  );
  server.registerResource(
    "static-binary",
    "test://static-binary",
    { description: "A static binary resource (a PNG image)", mimeType: "image/png" },
    (uri) => ({ uri, mimeType: "image/png", blob: PNG_BASE64 }),
  );
  server.registerResource(
    "watched-resource",
    "test://watched-resource",
    { description: "A resource whose updates subscribers hear about", mimeType: "text/plain" },
    () => "Watched resource content.",
  );
  server.registerResourceTemplate(
    "template",
    "test://template/{id}/data",
    {
      description: "Data for one id",
      mimeType: "application/json",
      complete: { id: (value) => ["1", "2", "3", "123"].filter((id) => id.startsWith(value)) },
    },
    (uri, { id }) => ({ uri, mimeType: "application/json", text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }),
  );
}

function registerPrompts(server: McpServer): void {
  server.registerPrompt("test_simple_prompt", { description: "A prompt with no arguments." }, () => "This is a simple prompt for testing.");
  server.registerPrompt(
    "test_prompt_with_arguments",
    {
      description: "A prompt with two required arguments.",
      arguments: [
        { name: "arg1", description: "First argument", required: true },
        { name: "arg2", description: "Second argument", required: true },
      ],
      complete: { arg1: (value) => ["test", "testValue1", "other"].filter((v) => v.startsWith(value)) },
    },
    ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  );
  server.registerPrompt(
    "test_prompt_with_embedded_resource",
    {
      description: "A prompt that embeds a resource.",
      arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
    },
    ({ resourceUri }) => [
      {
        role: "user",
        content: {
          type: "resource",
          resource: { uri: resourceUri!, mimeType: "text/plain", text: "Embedded resource content for testing." },
        },
      },
      { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
    ],
  );
  server.registerPrompt("test_prompt_with_image", { description: "A prompt that carries an image." }, () => [
    { role: "user", content: { type: "image", mimeType: "image/png", data: PNG_BASE64 } },
    { role: "user", content: { type: "text", text: "Please analyze the image above." } },
  ]);
  server.registerPrompt("test_dynamic_prompt", dynamicPrompt, () => "dynamic");
}
