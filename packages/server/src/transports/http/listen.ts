/**
 * `listen()`: a `node:http` server for an MCP server, with the checks a
 * server bound beyond loopback needs, and a graceful `close`.
 */
import type { Server } from "node:http";
import type { McpServer } from "../../server.js";
import { rejectUnknown } from "@x/jsonrpc";
import { createNodeHandler, type NodeHandlerOptions } from "./node.js";
import { httpOptionNames } from "./options.js";
import { configureNodeServer, NODE_SERVER_OPTION_NAMES, type NodeServerOptions, nodeServerSettings } from "./node-server.js";

/** Options of {@link listen}: the handler's, the server's timeouts, and where to listen. */
export interface ListenOptions extends NodeHandlerOptions, NodeServerOptions {
  /** TCP port; `0` picks a free one. Default 3000. */
  port?: number;
  /** Address to bind. Default `127.0.0.1`. A non-loopback address requires `allowedHosts` and DNS-rebinding protection on. */
  host?: string;
}

const LISTEN_OWN_OPTION_NAMES = ["path", ...NODE_SERVER_OPTION_NAMES, "port", "host"];

/** A running HTTP server and the URL of its MCP endpoint. */
export interface RunningHttpServer {
  /** The underlying `node:http` server. */
  server: Server;
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  /**
   * Graceful shutdown: stops accepting connections, ends every
   * `subscriptions/listen` stream with its final result, lets running
   * requests finish for up to `deadlineMs` (default 5 000 ms), aborts the
   * rest, and resolves once the server is closed.
   */
  close(deadlineMs?: number): Promise<void>;
}

const LOOPBACK_BINDS = ["127.0.0.1", "localhost", "::1", "[::1]"];

/**
 * Starts a `node:http` server for `mcp` on `host:port`, endpoint `path`
 * (default `/mcp`; other paths get 404 with a JSON-RPC error). Slow clients
 * are bounded by the timeouts of {@link NodeServerOptions} and by
 * `maxBodyBytesInFlight`; errors Node answers itself are answered as JSON
 * (see `configureNodeServer`). Resolves once listening.
 *
 * @throws Error when `host` is not a loopback address and either no
 *   `allowedHosts` is given or DNS-rebinding protection is turned off, or
 *   when the port cannot be bound.
 */
export async function listen(mcp: McpServer, options: ListenOptions = {}): Promise<RunningHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const loopback = LOOPBACK_BINDS.includes(host);
  if (!loopback && options.dnsRebindingProtection === false) {
    throw new Error(`listen: DNS-rebinding protection may only be turned off on a loopback address, not ${host}`);
  }
  if (!loopback && !options.allowedHosts) {
    throw new Error(`listen: host ${host} is not loopback, so allowedHosts must list the host names clients use`);
  }
  rejectUnknown("listen", options, httpOptionNames(mcp, LISTEN_OWN_OPTION_NAMES));
  const path = options.path ?? "/mcp";
  // The handler gets its own options only: it refuses any other.
  const { port: _port, host: _host, headersTimeoutMs: _h, requestTimeoutMs: _r, keepAliveTimeoutMs: _k, ...handlerOptions } = options;
  const handler = createNodeHandler(mcp, { ...handlerOptions, path });
  // node:http is loaded here, not when the package is imported: stdio and
  // fetch-style servers never need it.
  const { createServer } = await import("node:http");
  // Host is checked by the ladder, which answers a missing one with JSON rather than Node's bare 400.
  const http = configureNodeServer(createServer({ ...nodeServerSettings(options), requireHostHeader: false }, handler), options);
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 3000, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const shownHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    server: http,
    url: `http://${shownHost}:${port}${path}`,
    close(deadlineMs = 5000) {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeIdleConnections();
        mcp.close();
        const started = Date.now();
        await handler.core.drain(deadlineMs);
        // Let the answers of finished requests reach their clients before cutting connections.
        await handler.settled(Math.max(100, deadlineMs - (Date.now() - started)));
        http.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}
