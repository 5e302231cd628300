// The example server on workerd: @x/server's fetch handler as a Worker's
// `fetch`, bundled by test/runtimes.test.ts with esbuild for workerd (the
// workerd, worker and browser conditions, as wrangler bundles) and run by
// Miniflare. Needs the nodejs_compat flag (Buffer, node:crypto for the
// request-state keys); the keys come from the MCP_REQUEST_STATE_KEYS binding,
// which nodejs_compat puts in process.env. The server is made on the first
// request: workerd allows no random values or timers at start-up.
import { createFetchHandler } from "@x/server";
import { createExampleServer } from "../../examples/dist/tools.js";

let handler;

export default {
  fetch(request) {
    handler ??= createFetchHandler(createExampleServer());
    return handler(request);
  },
};
