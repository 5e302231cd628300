/**
 * The page's HTTP side: who may ask (loopback Host of our port, the page's
 * own Origin or none, the secret token as the first path segment), then
 * the routes of the page and of its API. Every answer carries the same
 * security headers; nothing is cached.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseJson, stringifyJson } from "@x/jsonrpc";
import { type Feed, MAX_PAGES } from "./feed.js";
import type { AskAnswer, PageCall, Playground } from "./playground.js";
import { APP_CSS, APP_JS } from "./ui-bundle.generated.js";

/** Largest request body the API reads, in bytes (1 MiB); a larger one is answered 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

/** What the routes need. */
export interface PageContext {
  readonly token: string;
  /** The port the page listens on (known once it listens). */
  port(): number;
  readonly feed: Feed;
  readonly playground: Playground;
  readonly server: { readonly name: string; readonly version: string; readonly title?: string };
}

function send(response: ServerResponse, status: number, body: string, type: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...SECURITY_HEADERS, "content-type": type, ...headers });
  response.end(body);
}

function json(response: ServerResponse, status: number, value: unknown, headers?: Record<string, string>): void {
  send(response, status, stringifyJson(value), "application/json; charset=utf-8", headers);
}

function refuse(response: ServerResponse, status: number, error: string, headers?: Record<string, string>): void {
  json(response, status, { error }, headers);
}

/** True when `host` names the loopback interface with our port (DNS rebinding: another name is refused). */
function hostAllowed(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const lower = host.toLowerCase();
  return lower === `127.0.0.1:${port}` || lower === `localhost:${port}` || lower === `[::1]:${port}`;
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function page(title: string): string {
  const escaped = title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escaped}</title>
<link rel="stylesheet" href="app.css">
<script src="app.js" defer></script>
</head>
<body>
<noscript>The devtools page needs JavaScript.</noscript>
</body>
</html>
`;
}

/** Reads a JSON body: 415 without `application/json`, 413 past {@link MAX_BODY_BYTES}, 400 when it is not JSON. */
async function readBody(request: IncomingMessage, response: ServerResponse): Promise<unknown> {
  const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    refuse(response, 415, "the body must be application/json");
    return undefined;
  }
  const declared = Number(request.headers["content-length"] ?? 0);
  if (declared > MAX_BODY_BYTES) {
    refuse(response, 413, `the body is over ${MAX_BODY_BYTES} bytes`, { connection: "close" });
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      refuse(response, 413, `the body is over ${MAX_BODY_BYTES} bytes`, { connection: "close" });
      return undefined;
    }
    chunks.push(chunk);
  }
  try {
    return parseJson(Buffer.concat(chunks).toString("utf8"));
  } catch {
    refuse(response, 400, "the body is not JSON");
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The call the body describes, or a reason it is not one. */
function readCall(body: unknown, eras: readonly string[]): PageCall | string {
  if (!isObject(body)) return "the body must be an object";
  if (typeof body.era !== "string" || !eras.includes(body.era)) return `era must be one of ${eras.join(", ")}`;
  if (body.kind === "resource") return typeof body.uri === "string" ? (body as unknown as PageCall) : "uri must be a string";
  if (body.kind !== "tool" && body.kind !== "prompt") return 'kind must be "tool", "prompt" or "resource"';
  if (typeof body.name !== "string") return "name must be a string";
  if (body.arguments !== undefined && !isObject(body.arguments)) return "arguments must be an object";
  return body as unknown as PageCall;
}

function readAnswer(body: unknown): AskAnswer | undefined {
  if (!isObject(body) || (body.action !== "accept" && body.action !== "decline" && body.action !== "cancel")) return undefined;
  if (body.content !== undefined && !isObject(body.content)) return undefined;
  return body.action === "accept" && body.content !== undefined ? { action: "accept", content: body.content } : { action: body.action };
}

type Route = (request: IncomingMessage, response: ServerResponse, rest: string) => void | Promise<void>;

/** The routes under `/<token>/`: path, method, handler. */
function routes(context: PageContext): [RegExp, string, Route][] {
  const { feed, playground } = context;
  const title = `${context.server.title ?? context.server.name} · x-mcp devtools`;
  return [
    [/^$/, "GET", (_q, r) => send(r, 200, page(title), "text/html; charset=utf-8")],
    [/^app\.js$/, "GET", (_q, r) => send(r, 200, APP_JS, "text/javascript; charset=utf-8")],
    [/^app\.css$/, "GET", (_q, r) => send(r, 200, APP_CSS, "text/css; charset=utf-8")],
    [/^api\/info$/, "GET", (_q, r) => json(r, 200, { server: context.server, eras: playground.eras, tokenPath: `/${context.token}/` })],
    [
      /^api\/events$/,
      "GET",
      (_q, r) => {
        if (feed.pages >= MAX_PAGES) return refuse(r, 429, "too many pages are open");
        r.writeHead(200, { ...SECURITY_HEADERS, "content-type": "text/event-stream; charset=utf-8", connection: "keep-alive" });
        r.flushHeaders();
        if (!feed.open(r)) r.end();
      },
    ],
    [
      /^api\/catalog$/,
      "GET",
      async (q, r) => {
        const era = new URL(q.url ?? "/", "http://x").searchParams.get("era") ?? "";
        if (!playground.eras.includes(era)) return refuse(r, 400, `era must be one of ${playground.eras.join(", ")}`);
        try {
          json(r, 200, await playground.catalog(era));
        } catch (error) {
          refuse(r, 502, error instanceof Error ? error.message : String(error));
        }
      },
    ],
    [
      /^api\/call$/,
      "POST",
      async (q, r) => {
        const body = await readBody(q, r);
        if (body === undefined) return;
        const call = readCall(body, playground.eras);
        if (typeof call === "string") return refuse(r, 400, call);
        json(r, 200, await playground.call(call));
      },
    ],
    [
      /^api\/asks\/[^/]+$/,
      "POST",
      async (q, r, rest) => {
        const body = await readBody(q, r);
        if (body === undefined) return;
        const answer = readAnswer(body);
        if (answer === undefined) return refuse(r, 400, 'the body must be { action: "accept" | "decline" | "cancel", content?: object }');
        // Ids are UUIDs: one that is not taken as it is (no percent-decoding) is simply unknown.
        const id = rest.slice("api/asks/".length);
        if (!playground.answer(id, answer)) return refuse(r, 404, "no such ask");
        r.writeHead(204, SECURITY_HEADERS);
        r.end();
      },
    ],
    [
      /^api\/export$/,
      "GET",
      (_q, r) => {
        const text = `{"exportedAt":${stringifyJson(new Date().toISOString())},"server":${stringifyJson(context.server)},"events":[${feed.events().join(",")}]}`;
        send(r, 200, text, "application/json; charset=utf-8", { "content-disposition": 'attachment; filename="x-mcp-traffic.json"' });
      },
    ],
  ];
}

/** The `node:http` listener of the page. */
export function pageListener(context: PageContext): (request: IncomingMessage, response: ServerResponse) => void {
  const table = routes(context);
  return (request, response) => {
    const port = context.port();
    if (!hostAllowed(request.headers.host, port)) return refuse(response, 403, "forbidden");
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${request.headers.host?.toLowerCase()}`) return refuse(response, 403, "forbidden");
    const path = (request.url ?? "").split("?")[0] ?? "";
    const match = /^\/([^/]*)(\/.*)?$/.exec(path);
    if (match === null || !sameToken(match[1] ?? "", context.token)) return refuse(response, 403, "forbidden");
    // The page's relative URLs need the trailing slash.
    if (match[2] === undefined) return send(response, 308, "", "text/plain", { location: `/${context.token}/` });
    const rest = match[2].slice(1);
    const found = table.filter(([pattern]) => pattern.test(rest));
    if (found.length === 0) return refuse(response, 404, "not found");
    const route = found.find(([, method]) => method === request.method);
    if (route === undefined) return refuse(response, 405, "method not allowed", { allow: found.map(([, m]) => m).join(", ") });
    Promise.resolve(route[2](request, response, rest)).catch((error: unknown) => {
      if (!response.headersSent) refuse(response, 500, error instanceof Error ? error.message : String(error));
      else response.destroy();
    });
  };
}
