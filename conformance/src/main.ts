/**
 * Starts the fixture server on 127.0.0.1 (`--port N`, default 0 = a free
 * port) and prints `listening on <url>` on stderr. With `--behind express`
 * the fixture is mounted in Express 5 behind `express.json()` instead, as
 * packages/server/README.md ("Frameworks") shows, so the suite checks the
 * node handler taking a body a framework already parsed.
 */
import type { Server } from "node:http";
import { configureNodeServer, createNodeHandler, listen } from "@x/server";
import { bodyParserErrors } from "@x/server/express";
import { createFixtureServer } from "./fixture.js";

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

const port = Number(option("--port") ?? 0);
const behind = option("--behind");

let stop: () => Promise<void>;
if (behind === "express") {
  const { default: express } = await import("express");
  const app = express();
  // As large as the handler's maxBodyBytes (4 MiB), so express.json() refuses nothing the handler would take.
  app.use(express.json({ limit: "4mb" }));
  app.use("/mcp", createNodeHandler(createFixtureServer(), { path: "/mcp" }), bodyParserErrors());
  const http: Server = configureNodeServer(app.listen(port, "127.0.0.1"));
  await new Promise<void>((resolve, reject) => {
    http.once("listening", resolve);
    http.once("error", reject);
  });
  const address = http.address();
  process.stderr.write(
    `listening on http://127.0.0.1:${typeof address === "object" && address ? address.port : port}/mcp (Express 5, express.json())\n`,
  );
  stop = async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  };
} else if (behind === undefined) {
  const running = await listen(createFixtureServer(), { port, host: "127.0.0.1" });
  process.stderr.write(`listening on ${running.url}\n`);
  stop = () => running.close();
} else {
  process.stderr.write(`unknown --behind ${behind}: the fixture can be mounted behind express only\n`);
  process.exit(2);
}

const end = () => {
  stop().then(() => process.exit(0));
};
process.on("SIGTERM", end);
process.on("SIGINT", end);
