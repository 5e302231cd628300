/**
 * The era probe of `protocol: "auto"` (spec 2026-07-28: basic/versioning
 * "Backward Compatibility"): a `server/discover` whose answer says whether
 * the server is of 2026-07-28, or of the earlier era, which then gets the
 * `initialize` handshake.
 */
import { ErrorCode } from "@x/mcp-v2607/constants";
import { ClientErrorCode, isMcpClientError, type McpClientError } from "../../errors.js";
import type { ClientOptions } from "../../options.js";
import { isObject } from "../../results.js";
import type { Transport } from "../../transports/transport.js";
import type { ClientRevision } from "../revision.js";

/**
 * Default bound on the `server/discover` probe of `protocol: "auto"`, in
 * milliseconds. Over stdio, a server silent for this long is taken as one of
 * the earlier era (some never answer a request before `initialize`); over
 * HTTP, the probe then fails like any request that timed out.
 */
export const DEFAULT_PROBE_TIMEOUT_MS = 3000;

/**
 * JSON-RPC errors that only a 2026-07-28 server sends: a probe answered with
 * one of them found a modern server, which must not be given `initialize`
 * (spec 2026-07-28: streamable-http and stdio "Backward Compatibility").
 * -32020 `HeaderMismatch`, -32021 `MissingRequiredClientCapability`,
 * -32022 `UnsupportedProtocolVersion`.
 */
export const MODERN_ERROR_CODES: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
]);

/**
 * The `server/discover` probe (spec 2026-07-28: versioning "Backward
 * Compatibility"): true for a modern server (a `DiscoverResult`, or one of
 * the 2026 errors), false for one of the earlier era.
 */
export async function probe(revision: ClientRevision, transport: Transport, options: ClientOptions): Promise<boolean> {
  const timeout = options.probeTimeout ?? DEFAULT_PROBE_TIMEOUT_MS;
  try {
    const result = await revision.discover({ timeout, cache: "refresh" });
    // A legacy server may answer any method with an empty result; only a DiscoverResult names a modern one.
    const modern = Array.isArray(result.supportedVersions) && result.supportedVersions.length > 0 && isObject(result.capabilities);
    return modern;
  } catch (error) {
    if (!isMcpClientError(error)) throw error;
    const e = error as McpClientError;
    if (e.source === "server") {
      if (!MODERN_ERROR_CODES.has(e.code)) return false;
      if (e.code === ErrorCode.UnsupportedProtocolVersion) throw error;
      return true;
    }
    const status = (e.data as { status?: unknown } | undefined)?.status;
    if (e.code === ClientErrorCode.TransportFailed && typeof status === "number" && status >= 400 && status < 500) return false;
    if (e.code === ClientErrorCode.InvalidResult) return false;
    if (e.code === ClientErrorCode.RequestTimeout && transport.kind === "stdio") return false;
    throw error;
  }
}
