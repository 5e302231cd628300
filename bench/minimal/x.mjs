// The smallest useful @x/server HTTP server: one tool with an input schema,
// both protocol eras, and ajv, the validator a server on Node uses when it
// names none. A bundle carries the validator its program names: unbundled,
// ajv is found at run time; bundled, it is named here so that it is inside.
// Action tools are a plug-in on @x/server/actions, so this bundle carries none of them.
import { listen, McpServer } from "@x/server";
import { ajvValidator } from "@x/server/ajv";

const server = new McpServer({ name: "minimal", version: "1.0.0" }, { validator: ajvValidator });
server.registerTool(
  "echo",
  { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  ({ text }) => ({ content: [{ type: "text", text }] }),
);
await listen(server, { port: 0 });
