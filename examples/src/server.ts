/**
 * Runs the example server.
 *
 *   node dist/server.js              Streamable HTTP on http://127.0.0.1:3000/mcp
 *   node dist/server.js --port 0     ... on a free port (the URL is printed on stderr)
 *   node dist/server.js --stdio      stdio
 *   node dist/server.js --devtools   ... and the devtools page of @x/devtools (its URL is printed on stderr)
 *
 * PORT and HOST in the environment set the defaults of --port and --host.
 */
import { listen, serveStdio } from "@x/server";
import { createExampleServer } from "./tools.js";

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

const server = createExampleServer();
// Loaded only when asked for; the page's URL (with its token) goes to stderr, so stdout stays stdio's.
if (process.argv.includes("--devtools")) await (await import("@x/devtools")).attachDevtools(server);

if (process.argv.includes("--stdio")) {
  await serveStdio(server);
} else {
  const port = Number(option("--port") ?? process.env.PORT ?? 3000);
  const host = option("--host") ?? process.env.HOST ?? "127.0.0.1";
  const running = await listen(server, { port, host });
  process.stderr.write(`MCP server listening on ${running.url}\n`);
  const stop = () => {
    running.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
