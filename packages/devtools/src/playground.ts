/**
 * "Try it": one `@x/client` per protocol version the page picks, talking to
 * the server in this process through `createFetchHandler` (no socket), so
 * that its calls go through the same transport, checks and traffic channel
 * as any client's. Its elicitation handler relays each question to the page
 * and waits for the page's answer.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { Client, type InputHandlers, isMcpClientError, StreamableHttpTransport } from "@x/client";
import { compileSchema, defaultValidator, untrustedSchemas } from "@x/json-schema";
import { createFetchHandler, McpServer as TwoEraServer } from "@x/server";
import type { McpServer } from "@x/server/v2607";
import type { Feed } from "./feed.js";

/** The `clientInfo.name` of the page's own client, as the traffic view shows it. */
export const DEVTOOLS_CLIENT_NAME = "x-mcp-devtools";
/** Milliseconds an ask waits for the page before it is answered `cancel`: 10 minutes. */
export const ASK_TIMEOUT_MS = 10 * 60_000;
/** The 2026-07-28 protocol version. */
const MODERN = "2026-07-28";
/** The `initialize`-era version the page's client pins. */
const INITIALIZE_ERA = "2025-11-25";

/** An answer to an ask, as the page posts it. */
export interface AskAnswer {
  readonly action: "accept" | "decline" | "cancel";
  readonly content?: Record<string, unknown>;
}

/** A call the page makes. */
export type PageCall =
  | { readonly era: string; readonly kind: "tool"; readonly name: string; readonly arguments?: Record<string, unknown> }
  | { readonly era: string; readonly kind: "prompt"; readonly name: string; readonly arguments?: Record<string, string> }
  | { readonly era: string; readonly kind: "resource"; readonly uri: string };

/** A call's outcome: the result (with the output schema check of a tool's), or the error. */
export type CallOutcome =
  | { ok: true; result: unknown; check?: { valid: boolean; problems: string[] } }
  | { ok: false; error: { code: number; message: string; data?: unknown } };

type Elicit = NonNullable<InputHandlers["elicitation"]>;

interface Pending {
  readonly resolve: (answer: AskAnswer) => void;
}

/** The page's clients, their calls, and the asks waiting for the page. */
export class Playground {
  readonly #server: McpServer;
  readonly #feed: Feed;
  readonly #handle: (request: Request) => Promise<Response>;
  readonly #clients = new Map<string, Promise<Client>>();
  readonly #asks = new Map<string, Pending>();
  /** The tool the page is calling, for the asks of an `initialize`-era session, whose handler is not told which call asked. */
  readonly #calling = new AsyncLocalStorage<string>();
  /** The versions the page may pick: 2026-07-28, and 2025-11-25 when the server serves the `initialize` era. */
  readonly eras: readonly string[];

  constructor(server: McpServer, feed: Feed) {
    this.#server = server;
    this.#feed = feed;
    this.#handle = createFetchHandler(server);
    // The server lists only its 2026-07-28 versions (supportedVersions); the class of @x/server is the one with the initialize era.
    this.eras = server instanceof TwoEraServer ? [MODERN, INITIALIZE_ERA] : [MODERN];
  }

  /** The client of `era`, connected on first use. */
  client(era: string): Promise<Client> {
    let client = this.#clients.get(era);
    if (client === undefined) {
      client = this.#connect(era);
      this.#clients.set(era, client);
      // A failed connect is tried again on the next use.
      client.catch(() => this.#clients.delete(era));
    }
    return client;
  }

  async #connect(era: string): Promise<Client> {
    const handle = this.#handle;
    const client = new Client(
      { name: DEVTOOLS_CLIENT_NAME, version: this.#server.info.version },
      {
        protocol: era as typeof MODERN,
        cache: false,
        validateOutput: false,
        onWarning: () => {},
        // The page's answer goes to the server as given: the server checks it against the schema it asked with.
        handlers: { elicitation: (params, context) => this.#relay(era, params, context) as ReturnType<Elicit> },
      },
    );
    const fetch = (input: string | URL | Request, init?: RequestInit) => handle(new Request(input, init));
    await client.connect(new StreamableHttpTransport("http://127.0.0.1/mcp", { fetch: fetch as typeof globalThis.fetch }));
    return client;
  }

  /** Hands an elicitation to the page and waits for its answer (or {@link ASK_TIMEOUT_MS}, or the call giving up: then `cancel`). */
  #relay(
    era: string,
    params: { mode?: string; message: string; requestedSchema?: object },
    context: { method: string; params: Record<string, unknown>; signal?: AbortSignal },
  ): Promise<AskAnswer> {
    // A URL-mode question sends the user to a page this page cannot show.
    if (params.mode === "url" || params.requestedSchema === undefined) return Promise.resolve({ action: "decline" });
    const id = randomUUID();
    const tool =
      context.method === "tools/call" && typeof context.params.name === "string" ? context.params.name : this.#calling.getStore();
    return new Promise<AskAnswer>((resolve) => {
      const finish = (answer: AskAnswer) => {
        if (!this.#asks.delete(id)) return;
        clearTimeout(timer);
        context.signal?.removeEventListener("abort", gone);
        this.#feed.askDone(id);
        resolve(answer);
      };
      const gone = () => finish({ action: "cancel" });
      const timer = setTimeout(gone, ASK_TIMEOUT_MS);
      timer.unref();
      context.signal?.addEventListener("abort", gone, { once: true });
      this.#asks.set(id, { resolve: finish });
      this.#feed.ask({ id, era, message: params.message, requestedSchema: params.requestedSchema as object, ...(tool ? { tool } : {}) });
    });
  }

  /** Answers the ask `id`; false when there is no such ask (answered already, timed out, or never made). */
  answer(id: string, answer: AskAnswer): boolean {
    const pending = this.#asks.get(id);
    if (pending === undefined) return false;
    pending.resolve(answer);
    return true;
  }

  /** Every tool, prompt, resource and template (all pages), as the client of `era` lists them. */
  async catalog(era: string): Promise<Record<string, unknown[]>> {
    const client = await this.client(era);
    // A server with no prompts (say) answers their list -32601: an empty list here.
    const all = async <T>(list: () => Promise<T[]>): Promise<T[]> => {
      try {
        return await list();
      } catch (error) {
        if (isMcpClientError(error, -32601)) return [];
        throw error;
      }
    };
    // Only what the server declares is listed: asking for the rest would put the page's own errors in the traffic.
    // A pinned 2026-07-28 client learns them from server/discover, asked once here.
    const declared = client.serverCapabilities ?? (await client.discover()).capabilities ?? {};
    const listed = <T>(capability: string, list: () => Promise<T[]>): Promise<T[]> =>
      declared[capability] === undefined ? Promise.resolve([]) : all(list);
    const [tools, prompts, resources, resourceTemplates] = await Promise.all([
      listed("tools", () => client.listAllTools()),
      listed("prompts", () => client.listAllPrompts()),
      listed("resources", () => client.listAllResources()),
      listed("resources", () => client.listAllResourceTemplates()),
    ]);
    return { tools, prompts, resources, resourceTemplates };
  }

  /** Makes `call` through the client of its era; a JSON-RPC error or a client failure is an outcome, not a throw. */
  async call(call: PageCall): Promise<CallOutcome> {
    try {
      const client = await this.client(call.era);
      if (call.kind === "resource") return { ok: true, result: await client.readResource(call.uri) };
      if (call.kind === "prompt") return { ok: true, result: await client.getPrompt(call.name, call.arguments ?? {}) };
      const result = await this.#calling.run(call.name, () => client.callTool(call.name, call.arguments ?? {}));
      const structured = (result as { structuredContent?: unknown }).structuredContent;
      if (structured === undefined) return { ok: true, result };
      const tool = (await client.listAllTools()).find((t) => t.name === call.name);
      if (tool?.outputSchema === undefined) return { ok: true, result };
      return { ok: true, result, check: checkOutput(tool.outputSchema, structured) };
    } catch (error) {
      if (isMcpClientError(error)) {
        return {
          ok: false,
          error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) },
        };
      }
      return { ok: false, error: { code: -32603, message: error instanceof Error ? error.message : String(error) } };
    }
  }

  /** Cancels the asks still waiting and closes the clients. */
  async close(): Promise<void> {
    for (const pending of [...this.#asks.values()]) pending.resolve({ action: "cancel" });
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.all(clients.map((client) => client.then((c) => c.close()).catch(() => {})));
  }
}

/**
 * `structuredContent` checked against the tool's `outputSchema` (spec
 * server/tools "Output Schema"), the schema treated as untrusted (bounded);
 * a schema that does not compile is a problem too. Also run on an `isError`
 * result, whose content the spec does not bind: the page shows both.
 */
export function checkOutput(schema: unknown, value: unknown): { valid: boolean; problems: string[] } {
  try {
    const problems = compileSchema(schema, { validator: defaultValidator(), untrusted: untrustedSchemas() })(value);
    return { valid: problems.length === 0, problems: problems.map((p) => `${p.path || "/"}: ${p.message}`) };
  } catch (error) {
    return { valid: false, problems: [`the outputSchema cannot be used: ${error instanceof Error ? error.message : String(error)}`] };
  }
}
