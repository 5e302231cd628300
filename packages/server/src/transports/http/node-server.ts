/**
 * The `node:http` server settings that bound slow clients, and JSON answers
 * for the errors Node would otherwise answer itself. `listen()` applies
 * them; {@link configureNodeServer} applies them to a server of your own.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { errorAnswer } from "./answers.js";

/** Timeouts of a `node:http` server (see {@link configureNodeServer}). */
export interface NodeServerOptions {
  /**
   * Most time to receive a request's headers, in milliseconds; past it the
   * client gets 408 and the connection is closed. Default 10 000. At most
   * `requestTimeoutMs` (a longer value is lowered to it).
   */
  headersTimeoutMs?: number;
  /**
   * Most time to receive a whole request, headers and body, in milliseconds;
   * past it the client gets 408 and the connection is closed. The answer is
   * not limited: an SSE response may last longer. Default 30 000; 0 turns it off.
   */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection waits for its next request, in milliseconds. Default 5 000. */
  keepAliveTimeoutMs?: number;
}

/** Every member of {@link NodeServerOptions}: a member added there must be added here to compile. */
const NODE_SERVER_OPTIONS: Record<keyof NodeServerOptions, true> = {
  headersTimeoutMs: true,
  requestTimeoutMs: true,
  keepAliveTimeoutMs: true,
};
/** The names of {@link NodeServerOptions}. */
export const NODE_SERVER_OPTION_NAMES: readonly string[] = Object.keys(NODE_SERVER_OPTIONS);

/** The defaults of {@link NodeServerOptions}, in milliseconds. */
export const NODE_SERVER_DEFAULTS = Object.freeze({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 });

/** The `node:http` `ServerOptions` that carry {@link NodeServerOptions}, all in milliseconds. */
export interface NodeServerSettings {
  /** Most time to receive the headers, in milliseconds. */
  headersTimeout: number;
  /** Most time to receive the whole request, in milliseconds (0: none). */
  requestTimeout: number;
  /** How long an idle keep-alive connection stays open, in milliseconds. */
  keepAliveTimeout: number;
  /** How often Node checks the two timeouts above, in milliseconds: a quarter of the shortest, from 10 to 1 000. */
  connectionsCheckingInterval: number;
}

/** The `node:http` settings for these timeouts, for `createServer(nodeServerSettings(options), handler)`. */
export function nodeServerSettings(options: NodeServerOptions = {}): NodeServerSettings {
  const requestTimeout = options.requestTimeoutMs ?? NODE_SERVER_DEFAULTS.requestTimeoutMs;
  let headersTimeout = options.headersTimeoutMs ?? NODE_SERVER_DEFAULTS.headersTimeoutMs;
  // Node refuses a headers timeout longer than a request timeout that is on.
  if (requestTimeout > 0 && headersTimeout > requestTimeout) headersTimeout = requestTimeout;
  const shortest = Math.min(headersTimeout || Infinity, requestTimeout || Infinity);
  return {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? NODE_SERVER_DEFAULTS.keepAliveTimeoutMs,
    // Node checks the timeouts only this often (30 s unless told), so a 10 s timeout would fire anywhere up to 40 s.
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(shortest / 4))),
  };
}

/**
 * Bounds slow clients on a `node:http` server you created yourself, as
 * `listen()` does: sets `headersTimeout`, `requestTimeout` and
 * `keepAliveTimeout` (defaults 10 s, 30 s, 5 s), and answers with a JSON-RPC
 * error body (-32600) what Node answers itself: a timeout (408), headers too
 * large (431), chunk extensions too large (413), unparsable HTTP (400) and an
 * unknown `Expect` (417). Returns `server`.
 *
 * Node checks the timeouts every `connectionsCheckingInterval` (default 30 s,
 * fixed when the server is created): for timeouts shorter than that, create the
 * server with `createServer(nodeServerSettings(options), handler)`.
 *
 * @example
 * configureNodeServer(http.createServer(createNodeHandler(server, { path: "/mcp" }))).listen(3000, "127.0.0.1");
 */
export function configureNodeServer<S extends Server>(server: S, options: NodeServerOptions = {}): S {
  const settings = nodeServerSettings(options);
  server.headersTimeout = settings.headersTimeout;
  server.requestTimeout = settings.requestTimeout;
  server.keepAliveTimeout = settings.keepAliveTimeout;
  server.on("clientError", answerClientError);
  server.on("checkExpectation", answerExpectation);
  return server;
}

const REASONS: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  413: "Content Too Large",
  431: "Request Header Fields Too Large",
};

/** The status and message of an error Node's HTTP parser or timer raised. */
function clientErrorAnswer(code: string | undefined): [number, string] {
  switch (code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "Request timeout: the request was not received in time"];
    case "HPE_HEADER_OVERFLOW":
      return [431, "Request header fields too large"];
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return [413, "Chunk extensions too large"];
    default:
      return [400, "Bad Request: the request is not valid HTTP"];
  }
}

function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // As Node does: nothing can be written once the response in progress sent its headers.
  const current = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || current?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, message] = clientErrorAnswer(error.code);
  const { body } = errorAnswer(status, ErrorCode.InvalidRequest, message);
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
  // A client that does not read must not keep the socket either.
  setTimeout(() => socket.destroy(), 1000).unref();
}

function answerExpectation(_req: IncomingMessage, res: ServerResponse): void {
  const answer = errorAnswer(417, ErrorCode.InvalidRequest, "Expectation failed: only Expect: 100-continue is supported");
  res.writeHead(answer.status, { ...answer.headers, connection: "close" }).end(answer.body);
}
