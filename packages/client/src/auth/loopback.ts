/**
 * A loopback redirect receiver for CLIs and desktop apps (RFC 8252 §7.3):
 * an HTTP listener on 127.0.0.1 that takes the authorization server's
 * redirect and hands its parameters to the transport.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { nodeBuiltin } from "@x/jsonrpc";
import { DEFAULT_REDIRECT_WAIT_MS, integerOption, rejectUnknown, timerOption } from "./options.js";
import type { OAuthClientProvider } from "./provider.js";

/** Options of {@link LoopbackRedirectReceiver.start}. */
export interface LoopbackOptions {
  /** Port to listen on; default 0 (any free port). Register a fixed one with servers that need an exact redirect URI. */
  port?: number;
  /** Path of the redirect; default `/callback`. */
  path?: string;
  /**
   * Longest wait for one redirect (the user signing in), in milliseconds: a
   * positive integer of at most 2^31 - 1, default 300 000 (5 minutes).
   */
  timeoutMs?: number;
}

const LOOPBACK_OPTIONS: Record<keyof LoopbackOptions, true> = { port: true, path: true, timeoutMs: true };

/**
 * Listens on `127.0.0.1` only. Each {@link waitForRedirect} accepts one
 * request to the redirect path, answers it with a short page, and resolves
 * with its URL; other paths get 404, a redirect nobody waits for 400. Stop it
 * with {@link close} when done.
 */
export class LoopbackRedirectReceiver {
  readonly #server: Server;
  readonly #path: string;
  readonly #timeoutMs: number;
  #waiter: { resolve: (url: URL) => void } | undefined;
  /** The redirect URL to register and send, e.g. `http://127.0.0.1:53123/callback`. */
  readonly redirectUrl: string;

  private constructor(server: Server, path: string, timeoutMs: number) {
    this.#server = server;
    this.#path = path;
    this.#timeoutMs = timeoutMs;
    this.redirectUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
    server.on("request", (request, response) => {
      const url = new URL(request.url ?? "/", this.redirectUrl);
      if (request.method !== "GET" || url.pathname !== this.#path) {
        response.writeHead(404, { "content-type": "text/plain" }).end("Not found");
        return;
      }
      const waiter = this.#waiter;
      if (!waiter) {
        response.writeHead(400, { "content-type": "text/plain" }).end("No authorization is in progress");
        return;
      }
      this.#waiter = undefined;
      response
        .writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
        .end("<!doctype html><title>Authorized</title><p>You can close this window and return to the application.</p>");
      waiter.resolve(url);
    });
  }

  /**
   * Starts listening on 127.0.0.1.
   * @throws TypeError for an unknown option, a `port` that is not an integer from 0 to 65535 or a
   *   `timeoutMs` out of range; the listen error (e.g. the port is taken).
   */
  static async start(options: LoopbackOptions = {}): Promise<LoopbackRedirectReceiver> {
    rejectUnknown("LoopbackRedirectReceiver.start", options, Object.keys(LOOPBACK_OPTIONS));
    const port = integerOption("port", options.port, 0, 0, 65_535);
    const timeoutMs = timerOption("timeoutMs", options.timeoutMs, DEFAULT_REDIRECT_WAIT_MS);
    // Loaded here: node:http is a noticeable part of a cold start, most clients never open this server, and a browser has none.
    const { createServer } = nodeBuiltin<typeof import("node:http")>("node:http");
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    return new LoopbackRedirectReceiver(server, options.path ?? "/callback", timeoutMs);
  }

  /**
   * Resolves with the next redirect's URL (query: `code`, `state`, `iss`, or `error`).
   * @throws Error after `timeoutMs` without a redirect, or when another wait is already pending.
   */
  waitForRedirect(): Promise<URL> {
    if (this.#waiter) return Promise.reject(new Error("A redirect is already awaited"));
    return new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiter = undefined;
        reject(new Error(`No redirect arrived at ${this.redirectUrl} within ${this.#timeoutMs} ms`));
      }, this.#timeoutMs);
      this.#waiter = {
        resolve: (url) => {
          clearTimeout(timer);
          resolve(url);
        },
      };
    });
  }

  /**
   * An `authorize` hook for {@link OAuthClientProvider}: waits for the
   * redirect while `open` shows the URL to the user (opens a browser, prints it).
   */
  authorizeWith(open: (authorizationUrl: URL) => void | Promise<void>): NonNullable<OAuthClientProvider["authorize"]> {
    return async (authorizationUrl) => {
      const redirect = this.waitForRedirect();
      await open(authorizationUrl);
      return redirect;
    };
  }

  /** Stops listening; a pending wait then ends with its timeout. */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
