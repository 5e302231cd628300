/**
 * `@x/server/express`: the one piece of glue Express needs. The node handler
 * mounts in Express as it is (it is a Connect middleware), but a body parser
 * in front of it (`express.json()`, `body-parser`) refuses a body it cannot
 * take by passing an error down the middleware stack, past the handler, to
 * Express's own error page (HTML, with a stack trace outside production).
 * {@link bodyParserErrors} answers those refusals on the MCP endpoint as the
 * handler answers its own: a JSON-RPC error with the matching HTTP status.
 *
 * @module @x/server/express
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode } from "@x/mcp-v2607/constants";
import { errorAnswer } from "./transports/http/answers.js";

/** An Express error-handling middleware: Express recognizes one by its four parameters. */
export type ErrorMiddleware = (error: unknown, req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** What `body-parser` (and so `express.json()`) puts on the errors it raises. */
interface ParserError {
  type?: unknown;
  status?: unknown;
  statusCode?: unknown;
  limit?: unknown;
  charset?: unknown;
  encoding?: unknown;
}

/**
 * An Express error middleware that answers the refusals of a body parser in
 * front of the MCP endpoint (spec: basic/transports, "Streamable HTTP") with
 * a JSON-RPC error body (no id) and, for what the parser names:
 * - body not JSON (`entity.parse.failed`): 400, -32700 (Parse error);
 * - larger than the parser's `limit` (`entity.too.large`): 413, -32600;
 * - a charset or content encoding it does not read (`charset.unsupported`,
 *   `encoding.unsupported`): 415, -32600;
 * - the client went away or sent less than its `Content-Length`
 *   (`request.aborted`, `request.size.invalid`): 400, -32600;
 * - any other error a parser raised with a 4xx status: that status, -32600.
 * Anything else (not a parser's error, or a response already started) goes
 * on to `next(error)` unchanged. The error's own message is not sent.
 *
 * Mount it after the handler, on the same path, so it sees only the MCP
 * endpoint's errors:
 *
 * @example
 * app.use(express.json({ limit: "4mb" }));
 * app.use("/mcp", createNodeHandler(server, { path: "/mcp" }), bodyParserErrors());
 */
export function bodyParserErrors(): ErrorMiddleware {
  // Four parameters, or Express takes it for an ordinary middleware.
  return (error, _req, res, next) => {
    const refusal = refusalOf(error);
    if (refusal === undefined || res.headersSent) {
      next(error);
      return;
    }
    const answer = errorAnswer(refusal[0], refusal[1], refusal[2]);
    res.writeHead(answer.status, answer.headers).end(answer.body);
  };
}

/** The status, JSON-RPC code and message for a body parser's error; `undefined` for any other error. */
function refusalOf(error: unknown): [number, number, string] | undefined {
  if (error === null || typeof error !== "object") return undefined;
  const e = error as ParserError;
  const status = typeof e.status === "number" ? e.status : typeof e.statusCode === "number" ? e.statusCode : undefined;
  switch (e.type) {
    case "entity.parse.failed":
      return [
        400,
        ErrorCode.ParseError,
        "Parse error: the body is not valid JSON (refused by the body parser in front of the MCP handler)",
      ];
    case "entity.too.large":
      return [
        413,
        ErrorCode.InvalidRequest,
        `Body larger than the body parser's limit${typeof e.limit === "number" ? ` of ${e.limit} bytes` : ""} (raise its limit to the handler's maxBodyBytes)`,
      ];
    case "charset.unsupported":
    case "encoding.unsupported":
      return [
        415,
        ErrorCode.InvalidRequest,
        `Unsupported Media Type: the body parser cannot read this ${e.type === "charset.unsupported" ? "charset" : "content encoding"}`,
      ];
    case "request.aborted":
    case "request.size.invalid":
      return [400, ErrorCode.InvalidRequest, "Bad Request: the body ended before its Content-Length"];
  }
  // Only what a parser marks as the client's fault: a 4xx from body-parser carries `type`.
  if (typeof e.type === "string" && status !== undefined && status >= 400 && status < 500)
    return [status, ErrorCode.InvalidRequest, `Bad Request: the body parser refused the body (${e.type})`];
  return undefined;
}
