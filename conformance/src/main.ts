/**
 * Starts the fixture server on 127.0.0.1 (`--port N`, default 0 = a free
 * port) and prints `listening on <url>` on stderr.
 */
import { listen } from "@x/server";
import { createFixtureServer } from "./fixture.js";

const index = process.argv.indexOf("--port");
const port = index === -1 ? 0 : Number(process.argv[index + 1]);
const running = await listen(createFixtureServer(), { port, host: "127.0.0.1" });
process.stderr.write(`listening on ${running.url}\n`);
const stop = () => {
  running.close().then(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
