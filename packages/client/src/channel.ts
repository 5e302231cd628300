/**
 * Sending one request through the transport, whatever the revision: the id,
 * the params as the revision frames them, the round trip's timeout (paused
 * while an authorization waits on the user), the caller's cancel, and the
 * notifications that arrive for the request. The revision's recovery
 * (`exchange`) wraps it in {@link Channel.send}.
 */
import type {
  ClientRequestMethod,
  JSONRPCNotification,
  JSONRPCRequest,
  NotificationParamsOf,
  RequestId,
  ResponseResultOf,
} from "@x/mcp-v2607";
import { ErrorCode, Method } from "@x/mcp-v2607/constants";
import { ClientErrorCode, isMcpClientError, McpClientError, transportError } from "./errors.js";
import { DEFAULT_TIMEOUT_MS, type RequestArguments, type RequestOptions, type Result, type SendingOptions } from "./options.js";
import { invalidResult, isObject } from "./results.js";
import type { ClientRevision } from "./revisions/revision.js";
import { MissingDependencyError } from "./schema.js";
import type { Transport } from "./transports/transport.js";

export function cancelled(method: string, reason: unknown): McpClientError {
  return new McpClientError(
    ClientErrorCode.RequestCancelled,
    `The ${method} request was cancelled`,
    { reason: reason instanceof Error ? reason.message : reason },
    "client",
    {
      cause: reason,
    },
  );
}

const closedError = (cause?: unknown) => transportError("closed", "The client was closed", {}, cause);

/** The sending core of one connected client (see the module comment). */
export class Channel {
  private nextId = 1;
  private current: ClientRevision | undefined;
  /** Set by the client's `close()`: a request failing from then on fails because of it. */
  private closed = false;

  constructor(
    readonly transport: Transport,
    private readonly timeout: number | undefined,
    private readonly invalidate: (notification: JSONRPCNotification) => void,
    private readonly warn: (message: string) => void,
  ) {}

  /** Sets the revision requests are framed by. */
  use(revision: ClientRevision): void {
    this.current = revision;
  }

  /**
   * Marks the channel closed before the client ends the session: a request
   * whose stream the session's end breaks (a server ends it on `DELETE`)
   * then fails with reason `"closed"`, as closing promises, not
   * `"stream_broken"`, and no later request is sent.
   */
  close(): void {
    this.closed = true;
  }

  /** The revision in use, if settled. */
  revisionNow(): ClientRevision | undefined {
    return this.current;
  }

  /** The revision in use. @throws McpClientError -32000 (`"closed"`) before one is settled. */
  revision(): ClientRevision {
    if (!this.current) throw transportError("closed", "The client is not connected: call connect(transport) first");
    return this.current;
  }

  /** One request with the revision's recovery; the result only known to be an object. */
  send(
    method: string,
    params: Record<string, unknown>,
    options: SendingOptions,
    headers: Record<string, string> = {},
    onRequestId?: (id: RequestId) => void,
  ): Promise<Result> {
    return this.revision().exchange(() => this.once(method, params, options, headers, onRequestId));
  }

  /**
   * {@link send} typed by the method table. The result is only checked to
   * be an object on the way in; each feature checks the members it reads.
   */
  async request<M extends ClientRequestMethod>(
    method: M,
    params: RequestArguments<M>,
    options: SendingOptions,
    headers: Record<string, string> = {},
    onRequestId?: (id: RequestId) => void,
  ): Promise<ResponseResultOf<M>> {
    // The one place where the wire result takes the type the schema gives the method: nothing has validated it.
    return (await this.send(method, params, options, headers, onRequestId)) as ResponseResultOf<M>;
  }

  /** One request and its response, without the revision's recovery. */
  async once(
    method: string,
    params: Record<string, unknown>,
    options: SendingOptions,
    headers: Record<string, string> = {},
    onRequestId?: (id: RequestId) => void,
  ): Promise<Result> {
    if (this.closed) throw closedError();
    const transport = this.transport;
    const id = this.nextId++;
    const progressToken = options.onProgress ? `progress-${id}` : undefined;
    const message: JSONRPCRequest = {
      jsonrpc: "2.0",
      id,
      method,
      params: this.revision().params(method, params, options, progressToken) as JSONRPCRequest["params"],
    };
    onRequestId?.(id);

    const userSignal = options.signal;
    if (userSignal?.aborted) throw cancelled(method, userSignal.reason);
    const controller = new AbortController();
    const onAbort = () => controller.abort(userSignal?.reason);
    userSignal?.addEventListener("abort", onAbort, { once: true });
    const timeout = options.timeout ?? this.timeout ?? DEFAULT_TIMEOUT_MS;
    let timedOut = false;
    const expire = () => {
      timedOut = true;
      controller.abort(
        new McpClientError(ClientErrorCode.RequestTimeout, `The ${method} request timed out after ${timeout} ms`, { timeout }),
      );
    };
    let timer = timeout > 0 ? setTimeout(expire, timeout) : undefined;
    // An authorization the user completes in a browser is not the server's time.
    const pauseTimeout = () => {
      if (timer === undefined) return () => {};
      clearTimeout(timer);
      timer = undefined;
      return () => {
        if (!timedOut && !controller.signal.aborted && timer === undefined) timer = setTimeout(expire, timeout);
      };
    };

    let response: Awaited<ReturnType<Transport["send"]>>;
    try {
      response = await transport.send(message, {
        signal: controller.signal,
        headers,
        onNotification: (notification) => this.onNotification(notification, options, progressToken),
        pauseTimeout,
      });
    } catch (error) {
      if (this.closed) throw closedError(error);
      if (timedOut)
        throw new McpClientError(
          ClientErrorCode.RequestTimeout,
          `The ${method} request timed out after ${timeout} ms`,
          { timeout },
          "client",
          { cause: error },
        );
      if (userSignal?.aborted) throw cancelled(method, userSignal.reason);
      // A package that is not installed is the installation's problem: said as it is, not as a broken stream.
      if (isMcpClientError(error) || error instanceof MissingDependencyError) throw error;
      throw transportError(
        "stream_broken",
        `The ${method} request failed: ${error instanceof Error ? error.message : String(error)}`,
        {},
        error,
      );
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      userSignal?.removeEventListener("abort", onAbort);
    }

    if ("error" in response) {
      const e = response.error as { code?: unknown; message?: unknown; data?: unknown };
      const code = Number.isInteger(e?.code) ? (e.code as number) : ErrorCode.InternalError;
      const text = typeof e?.message === "string" ? e.message : "The server answered with an error without a message";
      throw new McpClientError(code, text, e?.data, "server");
    }
    const result = (response as { result?: unknown }).result;
    if (!isObject(result)) throw invalidResult(`The result of ${method} is not an object`, { result });
    return result;
  }

  private onNotification(notification: JSONRPCNotification, options: RequestOptions, progressToken: string | undefined): void {
    this.invalidate(notification);
    try {
      if (notification.method === Method.NotificationsProgress && options.onProgress) {
        // The method names the params type; like every incoming message, they are not validated.
        const params = notification.params as NotificationParamsOf<typeof Method.NotificationsProgress> | undefined;
        if (params && params.progressToken === progressToken) options.onProgress(params);
      }
      options.onNotification?.(notification);
    } catch (error) {
      this.warn(`A notification listener threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
