/**
 * The server a command talks to: a URL (Streamable HTTP, falling back to
 * HTTP+SSE) or, after `--`, a command line to spawn (stdio).
 */
import {
  Client,
  type InputHandlers,
  type OAuthClientProvider,
  type ProtocolChoice,
  StdioTransport,
  StreamableHttpTransport,
  type Transport,
} from "@x/client";
import { plain } from "./output.js";

/** Where a command's server is: parsed from its arguments by {@link splitTarget}. */
export type Target = { kind: "url"; url: URL } | { kind: "stdio"; command: string; args: readonly string[] };

/** A command's arguments split at its target: what comes before (options and operands), and the target. */
export interface Split {
  /** The arguments that are not the target. */
  readonly rest: readonly string[];
  readonly target: Target;
}

/**
 * Finds the target in `args`: everything after a `--` is a command line for
 * stdio; else the first argument that parses as an http(s) URL.
 * @throws TypeError naming what is missing when there is no target.
 */
export function splitTarget(args: readonly string[]): Split {
  const dash = args.indexOf("--");
  if (dash >= 0) {
    const [command, ...rest] = args.slice(dash + 1);
    if (command === undefined) throw new TypeError("nothing after --: give the server's command line, e.g. -- node server.js");
    return { rest: args.slice(0, dash), target: { kind: "stdio", command, args: rest } };
  }
  const at = args.findIndex((arg) => /^https?:\/\//i.test(arg));
  if (at < 0) throw new TypeError("no server given: a URL (http:// or https://) or -- command args...");
  return { rest: [...args.slice(0, at), ...args.slice(at + 1)], target: { kind: "url", url: new URL(args[at]!) } };
}

/** A transport to `target`; the server's stderr (stdio) goes to `stderr`. */
export function transportTo(target: Target, stderr: (text: string) => void): Transport {
  if (target.kind === "url") return new StreamableHttpTransport(target.url);
  return new StdioTransport({ command: target.command, args: target.args, stderr });
}

/** What {@link connectTo} needs beyond the target. */
export interface ConnectOptions {
  /** The era and version (`--protocol`). */
  readonly protocol: ProtocolChoice;
  /** Headers on every HTTP request (`--header`). */
  readonly headers: Readonly<Record<string, string>>;
  /** The OAuth provider of an HTTP target (none: a 401 fails). */
  readonly auth?: OAuthClientProvider;
  /** Answers `elicitation/create` (form and URL modes). */
  readonly elicitation: NonNullable<InputHandlers["elicitation"]>;
  /** Receives warnings of the client and the server's stderr (stdio). */
  readonly stderr: (text: string) => void;
}

/**
 * A connected client of `target`. No sampling handler is given, so the
 * sampling capability is never declared: `x-mcp` has no model to ask.
 * @throws the client's connect error (the transport's, or a version the server refuses).
 */
export async function connectTo(target: Target, options: ConnectOptions): Promise<Client> {
  const transport =
    target.kind === "url"
      ? new StreamableHttpTransport(target.url, {
          headers: { ...options.headers },
          ...(options.auth ? { auth: options.auth } : {}),
        })
      : transportTo(target, options.stderr);
  const client = new Client(
    { name: "x-mcp", version: "0.1.0" },
    {
      protocol: options.protocol,
      handlers: { elicitation: options.elicitation },
      onWarning: (message) => options.stderr(`warning: ${plain(message)}\n`),
    },
  );
  await client.connect(transport);
  return client;
}
