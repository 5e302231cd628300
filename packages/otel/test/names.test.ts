import * as conventions from "@opentelemetry/semantic-conventions/incubating";
import { describe, expect, it } from "vitest";
import * as names from "../src/names.js";

describe("the names recorded are the OpenTelemetry semantic conventions' where they name a thing", () => {
  it("each attribute, value and metric name equals the conventions' constant", () => {
    expect(names.ATTR_MCP_METHOD_NAME).toBe(conventions.ATTR_MCP_METHOD_NAME);
    expect(names.ATTR_MCP_PROTOCOL_VERSION).toBe(conventions.ATTR_MCP_PROTOCOL_VERSION);
    expect(names.ATTR_MCP_SESSION_ID).toBe(conventions.ATTR_MCP_SESSION_ID);
    expect(names.ATTR_GEN_AI_TOOL_NAME).toBe(conventions.ATTR_GEN_AI_TOOL_NAME);
    expect(names.ATTR_GEN_AI_OPERATION_NAME).toBe(conventions.ATTR_GEN_AI_OPERATION_NAME);
    expect(names.GEN_AI_OPERATION_EXECUTE_TOOL).toBe(conventions.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL);
    expect(names.ATTR_JSONRPC_REQUEST_ID).toBe(conventions.ATTR_JSONRPC_REQUEST_ID);
    expect(names.ATTR_RPC_RESPONSE_STATUS_CODE).toBe(conventions.ATTR_RPC_RESPONSE_STATUS_CODE);
    expect(names.ATTR_ERROR_TYPE).toBe(conventions.ATTR_ERROR_TYPE);
    expect(names.OTHER).toBe(conventions.ERROR_TYPE_VALUE_OTHER);
    expect(names.METRIC_MCP_SERVER_OPERATION_DURATION).toBe(conventions.METRIC_MCP_SERVER_OPERATION_DURATION);
  });

  it("our own names stay out of the conventions' namespaces", () => {
    const own = [
      names.ATTR_TOOL_ACTION,
      names.ATTR_TOOL_OUTCOME,
      names.ATTR_ERROR_KIND,
      names.ATTR_IGNORED_REASON,
      names.METRIC_REQUESTS_REJECTED,
      names.METRIC_MESSAGES_IGNORED,
    ];
    for (const name of own) expect(name, name).toMatch(/^x_mcp\./);
    const defined = new Set<unknown>(Object.values(conventions));
    for (const name of own) expect(defined.has(name), name).toBe(false);
  });
});
