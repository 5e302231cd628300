/**
 * The revision seam: everything in the dispatcher that depends on the
 * protocol revision lives behind one {@link Revision} object per revision —
 * how the request envelope is checked, how results are stamped, and which
 * methods exist. Revision 2026-07-28 is the only one served today; an
 * `initialize`-era revision (2025-11-25) plugs in beside it later.
 */
import type { ClientCapabilities, Implementation, RequestMetaObject } from "@x/mcp-v2607";
import {
  ErrorCode,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  PROTOCOL_VERSION,
} from "@x/mcp-v2607/constants";
import { McpError } from "./errors.js";
import { copyOwn } from "./objects.js";

/** The parts of one request's `_meta` the dispatcher needs, read once. */
export interface EnvelopeMeta {
  meta: RequestMetaObject;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
}

/** The revision-specific parts of the dispatcher. */
export interface Revision {
  /** The protocol version string this revision answers. */
  readonly version: string;
  /** Reads and checks the request metadata; throws McpError(-32602) when it is missing or malformed. */
  readEnvelope(params: Record<string, unknown>): EnvelopeMeta;
  /** Adds what every result of this revision carries (resultType, server info) to a shallow copy of `result`, and returns the copy; `result` is left as it was. */
  stamp(result: Record<string, unknown>, serverInfo: Implementation): Record<string, unknown>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Revision 2026-07-28: per-request `_meta`, `resultType` on every result, server info in result `_meta`. */
export const revision2607: Revision = {
  version: PROTOCOL_VERSION,
  readEnvelope(params) {
    const meta = params._meta;
    if (!isObject(meta)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        "Missing or invalid params._meta (an object): every request must carry its protocol version and client capabilities",
      );
    }
    const protocolVersion = meta[META_PROTOCOL_VERSION];
    if (typeof protocolVersion !== "string" || protocolVersion === "") {
      throw new McpError(ErrorCode.InvalidParams, `Missing or invalid _meta["${META_PROTOCOL_VERSION}"]`);
    }
    const clientCapabilities = meta[META_CLIENT_CAPABILITIES];
    if (!isObject(clientCapabilities)) {
      throw new McpError(ErrorCode.InvalidParams, `Missing or invalid _meta["${META_CLIENT_CAPABILITIES}"]`);
    }
    const progressToken = meta.progressToken;
    if (progressToken !== undefined && typeof progressToken !== "string" && !Number.isSafeInteger(progressToken)) {
      throw new McpError(ErrorCode.InvalidParams, "Invalid _meta.progressToken: must be a string or an integer");
    }
    const clientInfo = meta[META_CLIENT_INFO];
    if (
      clientInfo !== undefined &&
      !(isObject(clientInfo) && typeof clientInfo.name === "string" && typeof clientInfo.version === "string")
    ) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid _meta["${META_CLIENT_INFO}"]: name and version must be strings`);
    }
    return {
      meta: meta as RequestMetaObject,
      protocolVersion,
      clientCapabilities: clientCapabilities as ClientCapabilities,
      clientInfo: clientInfo as Implementation | undefined,
    };
  },
  stamp(result, serverInfo) {
    // A copy: a handler may return a shared, cached or frozen object, which
    // must stay as it was (and must not carry one server's info into another's answer).
    const stamped = copyOwn(result);
    if (stamped.resultType === undefined) stamped.resultType = "complete";
    const meta = stamped._meta;
    if (isObject(meta)) {
      if (meta[META_SERVER_INFO] === undefined) {
        const copy = copyOwn(meta);
        copy[META_SERVER_INFO] = serverInfo;
        stamped._meta = copy;
      }
    } else {
      // A literal key (the value of META_SERVER_INFO): V8 builds this object
      // from a template, where a computed key takes its slow path.
      stamped._meta = { "io.modelcontextprotocol/serverInfo": serverInfo };
    }
    return stamped;
  },
};
