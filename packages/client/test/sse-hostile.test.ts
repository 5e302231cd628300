// The deprecated HTTP+SSE transport against hand-written servers on
// 127.0.0.1 that try to pull the client's messages or credentials out of
// the SSE URL's origin, and against a caller's mistakes in its options.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { Client, McpClientError, SseTransport, StreamableHttpTransport } from "../src/index.js";

interface Raw {
  server: Server;
  origin: string;
  /** Method and path of each request, with the Authorization header when there was one. */
  seen: string[];
}

async function startRaw(handle: (req: IncomingMessage, res: ServerResponse, origin: string) => void): Promise<Raw> {
  const seen: string[] = [];
  let origin = "";
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}${req.headers.authorization ? ` ${req.headers.authorization}` : ""}`);
    handle(req, res, origin);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, origin, seen };
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

function reasonOf(error: unknown): unknown {
  return error instanceof McpClientError ? (error.data as { reason?: unknown } | undefined)?.reason : undefined;
}

function sseServer(endpoint: (origin: string) => string, onPost: (req: IncomingMessage, res: ServerResponse) => void): Promise<Raw> {
  return startRaw((req, res, origin) => {
    if (req.method !== "GET") return onPost(req, res);
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(`event: endpoint\ndata: ${endpoint(origin)}\n\n`);
  });
}

const client = () => new Client({ name: "sse-hostile", version: "1.0.0" }, { onWarning: () => {}, protocol: "2025-11-25" });

describe("HTTP+SSE: credentials and messages stay on the SSE URL's origin", () => {
  it("does not follow a redirect of a POST to another origin", async () => {
    const elsewhere = await startRaw((_req, res) => res.writeHead(202).end());
    const sse = await sseServer(
      () => "/messages",
      (_req, res) => res.writeHead(307, { location: `${elsewhere.origin}/steal` }).end(),
    );
    try {
      const error = await client()
        .connect(new SseTransport(`${sse.origin}/sse`, { headers: { authorization: "Bearer secret" } }))
        .catch((e: unknown) => e);
      expect(reasonOf(error)).toBe("http_error");
      expect(error).toMatchObject({ code: -32000, data: { status: 307 } });
      expect((error as Error).message).toMatch(/^HTTP 307 from POST \S+\/messages: the endpoint redirects/);
      expect(elsewhere.seen).toEqual([]);
    } finally {
      await stop(sse.server);
      await stop(elsewhere.server);
    }
  });

  it("refuses an endpoint with a user name or password, and posts nothing", async () => {
    const sse = await sseServer(
      (origin) => `${origin.replace("http://", "http://someone:pw@")}/messages`,
      (_req, res) => res.writeHead(202).end(),
    );
    try {
      const error = await client()
        .connect(new SseTransport(`${sse.origin}/sse`))
        .catch((e: unknown) => e);
      expect(reasonOf(error)).toBe("invalid_message");
      expect(sse.seen).toEqual(["GET /sse"]);
    } finally {
      await stop(sse.server);
    }
  });

  it("refuses a URL with a password without echoing it, on both HTTP transports", () => {
    const refusal = (what: string) =>
      new TypeError(`The ${what} must not carry a user name or password; give credentials in the headers or auth option`);
    expect(() => new SseTransport("http://alice:s3cret@127.0.0.1:1/sse")).toThrow(refusal("SSE URL"));
    // The Streamable HTTP transport refuses it too, so a fallback never starts from such a URL.
    expect(() => new StreamableHttpTransport("http://alice:s3cret@127.0.0.1:1/mcp")).toThrow(refusal("MCP endpoint"));
  });
});

describe("HTTP+SSE: options", () => {
  it("refuses a member SseOptions does not name", () => {
    expect(() => new SseTransport("http://127.0.0.1:1/sse", { maxMesageBytes: 10 } as never)).toThrow(
      /SseTransport has no option "maxMesageBytes"; did you mean "maxMessageBytes"\?/,
    );
  });
});
