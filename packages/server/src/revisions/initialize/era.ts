/**
 * The `initialize` handshake of the earlier era (spec 2025-11-25:
 * basic/lifecycle): reading `initialize`, negotiating the version, the
 * capabilities and `InitializeResult`; the checks of the client's answers
 * to server-to-client requests; and the rules that tell a message of this
 * era from a 2026-07-28 one. The session's methods are in `methods.ts`.
 *
 * Untrusted input (the params of these methods, the client's answers to
 * server-to-client requests) is checked with `@x/mcp-v2511`'s generated
 * validators, loaded on the first `initialize`.
 */
import type { InitializeResult, ServerCapabilities as LegacyCapabilities } from "@x/mcp-v2511";
import { ErrorCode, Method } from "@x/mcp-v2511/constants";
import { INITIALIZE_ERA_VERSIONS, negotiateProtocolVersion } from "@x/mcp-v2511/wire";
import { classify, type RequestId } from "@x/jsonrpc";
import type { ClientCapabilities, Implementation, ServerCapabilities } from "@x/mcp-v2607";
import { META_PROTOCOL_VERSION } from "@x/mcp-v2607/constants";
import { ClientRequestError, McpError } from "../../errors.js";
import { asParsed } from "../../numbers.js";
import { isObject, type JsonObject } from "../../objects.js";
import { loadVersionTables, versionTable } from "./versions/index.js";

type Validators = typeof import("./validators.js");
let V: Validators | undefined;

/** Loads the era's validators (once); the first `initialize`, or the first session rebuilt from a shared store's record, waits for it. */
export async function loadLegacyValidators(): Promise<Validators> {
  V ??= await import("./validators.js");
  return V;
}

/**
 * Loads what a session of the era reads as it runs (the validators and the
 * version tables, once each): the first `initialize` waits for it, and so
 * does the first session rebuilt from a shared store's record.
 */
export async function loadEra(): Promise<Validators> {
  const [v] = await Promise.all([loadLegacyValidators(), loadVersionTables()]);
  return v;
}

/** The validators, once loaded (every session began with an `initialize` or was rebuilt from its record, either of which loaded them). */
export function legacyValidators(): Validators {
  if (!V) throw new Error("initialize-era validators used before the first initialize");
  return V;
}

/** What `initialize` told the server. */
export interface InitializeRequestInfo {
  /** The version the server answers (negotiated). */
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation;
}

/**
 * The most JSON characters of `initialize` params (capabilities, client info,
 * version) a server accepts: a session keeps them until it ends, so the
 * bound times `maxSessions` bounds that memory (64 KiB × 1000 by default).
 */
export const MAX_INITIALIZE_PARAMS_CHARS = 65_536;

/**
 * Reads `initialize` params and negotiates the version among `served`
 * (the era's versions the server serves, newest first).
 * @throws McpError(-32602) when the params are not `InitializeRequestParams`,
 *   or are longer than {@link MAX_INITIALIZE_PARAMS_CHARS} as JSON.
 */
export async function readInitialize(params: JsonObject, served: readonly string[]): Promise<InitializeRequestInfo> {
  const problem = initializeParamsProblem(params, await loadEra());
  if (problem) throw new McpError(ErrorCode.InvalidParams, `Invalid params: ${problem.message}`, problem.data);
  const protocolVersion = negotiateProtocolVersion(params.protocolVersion as string, served);
  return {
    protocolVersion,
    // As the negotiated version means them (a 2025-06-18 `elicitation` is form elicitation).
    clientCapabilities: versionTable(protocolVersion).clientCapabilities(params.capabilities as ClientCapabilities),
    clientInfo: params.clientInfo as Implementation,
  };
}

/**
 * What is wrong with `initialize` params, if anything: longer than
 * {@link MAX_INITIALIZE_PARAMS_CHARS} as JSON, or not
 * `InitializeRequestParams`. The one rule of what a session keeps of its
 * client, applied to `initialize` and to a record read back from a shared
 * session store.
 */
export function initializeParamsProblem(params: JsonObject, v: Validators): { message: string; data?: JsonObject } | undefined {
  // The session keeps the client's capabilities and info for its whole life: bound them.
  const size = JSON.stringify(params, (_key, value) => (typeof value === "bigint" ? 0 : value)).length;
  if (size > MAX_INITIALIZE_PARAMS_CHARS) {
    return { message: `initialize params of ${size} characters exceed the ${MAX_INITIALIZE_PARAMS_CHARS} a session keeps` };
  }
  if (!v.InitializeRequestParams(params)) {
    return {
      message: "initialize needs protocolVersion, capabilities and clientInfo",
      data: { problems: (v.InitializeRequestParams.errors ?? []).slice(0, 5).map((e) => `${e.path || "params"} ${e.message}`) },
    };
  }
  return undefined;
}

/**
 * The era's capabilities from what is registered: the members 2025-11-25
 * knows, as the 2026-07-28 features built them, and those plug-ins `added`
 * (the tasks plug-in: the revision's own `tasks`). An earlier version gets
 * those of them it defines ({@link initializeResult}).
 */
export function legacyCapabilities(caps: ServerCapabilities, added?: LegacyCapabilities): LegacyCapabilities {
  const out: LegacyCapabilities = {};
  if (caps.tools) out.tools = { listChanged: true };
  if (caps.prompts) out.prompts = { listChanged: true };
  if (caps.resources) out.resources = { listChanged: true, subscribe: true };
  if (caps.completions) out.completions = {};
  if (caps.logging) out.logging = {};
  if (added !== undefined) Object.assign(out, added);
  return out;
}

/**
 * The `InitializeResult`: the negotiated version, the capabilities, who the
 * server is, its instructions; reduced to what that version defines (no
 * `tasks` before 2025-11-25, no `completions` in 2024-11-05, no icons or
 * title in a server info that predates them).
 */
export function initializeResult(
  protocolVersion: string,
  caps: ServerCapabilities,
  serverInfo: Implementation,
  instructions: string | undefined,
  added?: LegacyCapabilities,
): InitializeResult {
  const result: InitializeResult = {
    protocolVersion,
    capabilities: legacyCapabilities(caps, added),
    serverInfo: serverInfo as InitializeResult["serverInfo"],
  };
  if (instructions !== undefined) result.instructions = instructions;
  return versionTable(protocolVersion).initializeResult(result);
}

/** The era's versions among `versions` (a server's `protocolVersions`), newest first. */
export function legacyVersions(versions: readonly string[]): string[] {
  return INITIALIZE_ERA_VERSIONS.filter((v) => versions.includes(v));
}

/**
 * Checks a client's answer to a server-to-client request with the era's
 * validator for `method`'s result.
 * @returns the answer with `JSON.parse`'s numbers (README "Numbers"): what the handler receives.
 * @throws ClientRequestError(-32602) naming the method when the answer is not of its result type.
 */
export function checkClientAnswer(method: string, answer: unknown): unknown {
  const v = legacyValidators();
  const check =
    method === "elicitation/create" ? v.ElicitResult : method === "sampling/createMessage" ? v.CreateMessageResult : v.ListRootsResult;
  const parsed = asParsed(answer);
  if (!check(parsed)) throw new ClientRequestError(ErrorCode.InvalidParams, `the client's answer to ${method} is not a valid result`);
  return parsed;
}

/** True when `value` carries the 2026-07-28 envelope (`_meta` with a protocol version): a request of the later era. */
export function hasLaterEnvelope(params: unknown): boolean {
  return isObject(params) && isObject(params._meta) && typeof params._meta[META_PROTOCOL_VERSION] === "string";
}

/**
 * The id of a `ping` of the `initialize` era (a request without the
 * 2026-07-28 envelope, which has no `ping`), which a receiver answers with
 * an empty result at any time, before `initialize` is answered too (spec
 * 2025-11-25: basic/lifecycle, basic/utilities/ping); `undefined` for any
 * other message.
 */
export function earlierPingId(message: unknown): RequestId | undefined {
  const classified = classify(message);
  return classified.kind === "request" && classified.method === Method.Ping && !hasLaterEnvelope(classified.params)
    ? classified.id
    : undefined;
}

/**
 * The id of a request of the `initialize` era other than `initialize` (one
 * without the 2026-07-28 envelope), which a connection whose `initialize`
 * failed cannot serve yet; `undefined` for anything else.
 */
export function earlierRequestId(message: unknown): RequestId | undefined {
  const classified = classify(message);
  return classified.kind === "request" && classified.method !== "initialize" && !hasLaterEnvelope(classified.params)
    ? classified.id
    : undefined;
}

/**
 * The dual-era rule (spec 2026-07-28, basic/versioning "Backward
 * Compatibility"): a request (a string `method` and an `id`) whose params
 * carry the 2026-07-28 envelope is served statelessly by that revision,
 * whatever session it names; only `initialize` and messages without the
 * envelope can be of the `initialize` era. Over Streamable HTTP such a
 * request's `Mcp-Session-Id` is ignored, never looked up nor echoed
 * (basic/transports/streamable-http, "Earlier Streamable HTTP Revisions").
 */
export function selectsLaterEra(message: unknown): boolean {
  return isObject(message) && typeof message.method === "string" && "id" in message && hasLaterEnvelope(message.params);
}
