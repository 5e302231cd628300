/**
 * Hand-written fixtures (test/fixtures/{valid,invalid}/<Type>/*.json; the
 * spec publishes no example messages for 2024-11-05), by the tests every
 * revision package shares (test-support/revision-fixtures.ts).
 */
import { describeFixtures } from "../../../test-support/revision-fixtures.js";
import { validateStrict } from "../src/generated/strict.js";
import { validate } from "../src/index.js";
import { pkg } from "./helpers.js";

describeFixtures({
  pkg,
  validate,
  validateStrict,
  covered: [
    "InitializeRequest",
    "InitializeResult",
    "CallToolRequest",
    "CallToolResult",
    "ListToolsResult",
    "JSONRPCError",
    "JSONRPCRequest",
  ],
  // Why each invalid fixture is refused, and whether TypeScript refuses it too (formats, ranges and integers are not types).
  expectedInvalid: {
    "CallToolRequest/arguments-not-object.json": { path: "/params/arguments", message: "must be object", typeError: true },
    "CallToolRequest/name-not-string.json": { path: "/params/name", message: "must be string", typeError: true },
    "CallToolResult/image-data-not-base64.json": { path: "/content/0/data", message: 'must match format "byte"', typeError: false },
    "CallToolResult/missing-content.json": { path: "", message: "must have required property 'content'", typeError: true },
    "CallToolResult/priority-out-of-range.json": { path: "/content/0/annotations/priority", message: "must be <= 1", typeError: false },
    "CallToolResult/unknown-content-type.json": { path: "/content/0", message: "must match a schema in anyOf", typeError: true },
    "InitializeRequest/clientInfo-without-version.json": {
      path: "/params/clientInfo",
      message: "required property 'version'",
      typeError: true,
    },
    "InitializeRequest/missing-protocolVersion.json": { path: "/params", message: "required property 'protocolVersion'", typeError: true },
    "InitializeResult/capabilities-not-object.json": { path: "/capabilities", message: "must be object", typeError: true },
    "InitializeResult/missing-serverInfo.json": { path: "", message: "required property 'serverInfo'", typeError: true },
    "JSONRPCError/code-not-integer.json": { path: "/error/code", message: "must be integer", typeError: false },
    "JSONRPCError/jsonrpc-1.0.json": { path: "/jsonrpc", message: 'must be equal to constant "2.0"', typeError: true },
    "JSONRPCError/missing-message.json": { path: "/error", message: "required property 'message'", typeError: true },
    "JSONRPCError/without-id.json": { path: "", message: "required property 'id'", typeError: true },
    "JSONRPCRequest/id-a-fraction.json": { path: "/id", message: "must be string,integer", typeError: false },
    "JSONRPCRequest/missing-id.json": { path: "", message: "required property 'id'", typeError: true },
    "JSONRPCRequest/null-id.json": { path: "/id", message: "must be string,integer", typeError: true },
    "ListToolsResult/inputSchema-not-object-type.json": {
      path: "/tools/0/inputSchema/type",
      message: 'constant "object"',
      typeError: true,
    },
    "ListToolsResult/tool-without-inputSchema.json": { path: "/tools/0", message: "required property 'inputSchema'", typeError: true },
    "PingRequest/wrong-method.json": { path: "/method", message: 'constant "ping"', typeError: true },
    "ProgressNotification/progress-not-number.json": { path: "/params/progress", message: "must be number", typeError: true },
    "SetLevelRequest/unknown-level.json": { path: "/params/level", message: "allowed values", typeError: true },
  },
});
