// The example server on Bun, Deno or Node 22: @x/server's fetch handler on
// the runtime's own HTTP server (Node: `listen`), bound to 127.0.0.1 on a
// free port. Prints `listening on <url>` to stderr once it accepts
// connections, and stops on SIGTERM. Imports the built packages
// (examples/dist, which imports @x/server from node_modules), as an
// application on that runtime would.
import { createFetchHandler, listen } from "@x/server";
import { createExampleServer } from "../../examples/dist/tools.js";

const handler = globalThis.Bun || globalThis.Deno ? createFetchHandler(createExampleServer()) : undefined;

if (globalThis.Bun) {
  // Bun.serve drops a request whose answer takes over 10 s (its idleTimeout), a long
  // tool call that sends no notification for one; 0 leaves the timing to @x/server.
  const server = globalThis.Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, fetch: handler });
  console.error(`listening on http://127.0.0.1:${server.port}/mcp (bun ${globalThis.Bun.version})`);
  process.on("SIGTERM", () => {
    server.stop(true);
    process.exit(0);
  });
} else if (globalThis.Deno) {
  const Deno = globalThis.Deno;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, handler);
  console.error(`listening on http://127.0.0.1:${server.addr.port}/mcp (deno ${Deno.version.deno})`);
  Deno.addSignalListener("SIGTERM", () => {
    server.shutdown();
    Deno.exit(0);
  });
} else {
  // Node (Bun and Deno have process.versions.node too, so this comes last).
  const server = await listen(createExampleServer(), { port: 0, host: "127.0.0.1" });
  console.error(`listening on ${server.url} (node ${process.versions.node})`);
  process.on("SIGTERM", () => {
    void server.close().then(() => process.exit(0));
  });
}
