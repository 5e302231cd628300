/**
 * The fixture server the official conformance suite tests: every tool the
 * suite's server scenarios call, built on @x/server like any user's server.
 * Tools are registered in a fixed order, `test_simple_text` first (the
 * header-validation scenario calls the first listed tool with no arguments).
 */
import { callToolResult } from "@x/builders";
import { McpError, McpServer } from "@x/server";

/** A 1x1 PNG, base64. */
export const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/** A tiny WAV file, base64. */
export const WAV_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

const noArgs = { type: "object" as const, properties: {} };

/** Builds the fixture server. */
export function createFixtureServer(): McpServer {
  const server = new McpServer(
    { name: "x-conformance-fixture", version: "0.1.0" },
    { toolsListCache: { ttlMs: 60_000, cacheScope: "public" } },
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
  server.registerTool("test_multiple_content_types", { description: "Returns text, an image and an embedded resource.", inputSchema: noArgs }, () =>
    callToolResult([
      ["text", "Multiple content types test:"],
      ["image", ["image/png", PNG_BASE64]],
      ["resource", { uri: "test://mixed-content-resource", mimeType: "application/json", text: '{"test":"data","value":123}' }],
    ]),
  );
  server.registerTool("test_error_handling", { description: "Always fails with a tool error.", inputSchema: noArgs }, () => {
    throw new Error("This tool intentionally returns an error for testing");
  });
  server.registerTool("test_tool_with_progress", { description: "Reports progress while it runs.", inputSchema: noArgs }, (_args, ctx) =>
    callToolResult([["text", String(ctx.meta.progressToken ?? "no progress token")]]),
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
  server.registerTool("test_streaming_elicitation", { description: "Answers without sending any request on the response stream.", inputSchema: noArgs }, () =>
    callToolResult([["text", "Streaming elicitation check complete."]]),
  );
  server.registerTool("test_logging_tool", { description: "Logs only when the request asked for a log level.", inputSchema: noArgs }, () =>
    callToolResult([["text", "Logging tool complete."]]),
  );
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
  return server;
}
