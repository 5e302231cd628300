/**
 * `attachDevtools`: the page, mounted on a running server by one call. Off
 * unless called; it listens on loopback only, on a port of its own, so that
 * nothing of it reaches the server's own endpoint.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { NoUnknownKeys } from "@x/jsonrpc";
import { readRequestState } from "@x/server/telemetry";
import type { McpServer } from "@x/server/v2607";
import { Feed } from "./feed.js";
import { pageListener } from "./http.js";
import { type DevtoolsOptions, readOptions } from "./options.js";
import { Playground } from "./playground.js";

/** A mounted devtools page. */
export interface Devtools {
  /** The page's URL, token included: `http://127.0.0.1:<port>/<token>/`. Whoever has it sees all traffic. */
  readonly url: string;
  /**
   * Unmounts the page: stops listening to the server's traffic (the channel
   * is left as it was), ends the pages' streams, answers waiting asks
   * `cancel`, closes the page's clients and frees the port. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Mounts the devtools page on `server` (an `McpServer` of `@x/server` or of
 * `@x/server/v2607`): the live traffic of every client of this process's
 * servers (the channel `x-mcp:traffic`), and forms to call the server's
 * tools, prompts and resources through an in-process client. Listens on
 * loopback; prints the URL (with its secret token) once on stderr unless
 * `print` says otherwise.
 *
 * @example
 * const devtools = await attachDevtools(server);
 * // devtools: http://127.0.0.1:51234/q5Yd.../
 * await devtools.close();
 * @throws TypeError for an option that is not one (naming the nearest), a
 *   non-loopback `host`, a bad `token` or `print`; RangeError for a `port`,
 *   `maxEvents` or `maxEventBytes` out of range. Rejects with the listen
 *   error (`EADDRINUSE`, say) when the port cannot be bound.
 */
export async function attachDevtools<O extends DevtoolsOptions>(
  server: McpServer,
  options?: O & NoUnknownKeys<O, DevtoolsOptions>,
): Promise<Devtools> {
  const settings = readOptions(options);
  const feed = new Feed(settings.maxEvents, settings.maxEventBytes, settings.maxBufferBytes, (state) =>
    readRequestState(server.keys, state),
  );
  const playground = new Playground(server, feed);
  const { name, version, title } = server.info;
  const listener: Server = createServer(
    pageListener({
      token: settings.token,
      port: (): number => (listener.address() as AddressInfo | null)?.port ?? 0,
      feed,
      playground,
      server: { name, version, ...(typeof title === "string" ? { title } : {}) },
    }),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      listener.once("error", reject);
      listener.listen(settings.port, settings.host, () => {
        listener.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    feed.close();
    throw error;
  }
  const { port } = listener.address() as AddressInfo;
  const host = settings.host === "::1" ? "[::1]" : settings.host;
  const url = `http://${host}:${port}/${settings.token}/`;
  settings.print(url);
  let closing: Promise<void> | undefined;
  return {
    url,
    close() {
      closing ??= (async () => {
        feed.close();
        const stopped = new Promise<void>((resolve) => listener.close(() => resolve()));
        listener.closeAllConnections();
        await playground.close();
        await stopped;
      })();
      return closing;
    },
  };
}
