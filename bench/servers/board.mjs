// The resource and tool the fan-out rows notify through, shared by the
// servers that serve them (growth-x.mjs, micro/fanout.mjs).

/** The board's URI. */
export const BOARD_URI = "memo://board";

/**
 * Registers resource `board` and tool `touch` on `server` (an @x McpServer
 * of any build): `touch` tells every listener of `{ uri }` that it changed
 * and answers the milliseconds the notifying took.
 */
export function registerBoard(server) {
  server.registerResource("board", BOARD_URI, { mimeType: "text/plain" }, () => ({ text: "board" }));
  server.registerTool(
    "touch",
    {
      description: "Announces that a resource changed",
      inputSchema: { type: "object", properties: { uri: { type: "string" } }, required: ["uri"] },
    },
    (args) => {
      const t0 = performance.now();
      server.notifyResourceUpdated(String(args.uri));
      return `${performance.now() - t0}`;
    },
  );
}
