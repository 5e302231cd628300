/**
 * Every version of the `initialize` era as itself, on the client's side: a
 * {@link ClientVersion} per version, built from that version's own member
 * lists (`@x/mcp-v*\/members`, the client's side: what a client of the
 * version sends) and reduced by the one reducer the server uses too
 * (`@x/json-schema/reduce`). What the client sends a server it negotiated a
 * version with goes through it: the capabilities `initialize` declares, the
 * params of each request, its answers to the server's requests; a request
 * the version does not define is refused here rather than sent.
 */
import { errorResponse, JsonRpcErrorCode, resultResponse } from "@x/jsonrpc";
import type { Definitions, Shape } from "@x/json-schema/reduce";
import { INITIALIZE_ERA_VERSIONS, type InitializeEraVersion, isInitializeEraVersion } from "@x/mcp-v2511/wire";
import type { JSONRPCRequest } from "@x/mcp-v2607";
import type { ServerResponse } from "../../features/answering.js";
import { ClientErrorCode, McpClientError } from "../../errors.js";

/** What a version's generated package gives the client (`@x/mcp-v*\/members`): what a client of it sends. */
interface ClientMemberLists {
  readonly clientDefinitions: Definitions;
  readonly clientRequestParams: { readonly [method: string]: Shape };
  readonly clientNotificationParams: { readonly [method: string]: Shape };
  readonly serverRequestResults: { readonly [method: string]: string };
  readonly clientCapabilities: Shape;
}

type Reducer = typeof import("@x/json-schema/reduce");

/** One version of the `initialize` era: what a client that negotiated it may send. */
export class ClientVersion {
  readonly version: InitializeEraVersion;
  readonly #members: ClientMemberLists;
  readonly #reducer: Reducer;
  readonly #newestCapabilities: Shape;

  constructor(version: InitializeEraVersion, members: ClientMemberLists, reducer: Reducer, newestCapabilities: Shape) {
    this.version = version;
    this.#members = members;
    this.#reducer = reducer;
    this.#newestCapabilities = newestCapabilities;
  }

  /** True when a client of this version may send request `method`. */
  hasRequest(method: string): boolean {
    return Object.hasOwn(this.#members.clientRequestParams, method);
  }

  /**
   * The params of request `method` as this version carries them.
   * @throws McpClientError -32096 (`VersionUnsupported`) when the version has no such request (nothing is sent).
   */
  request(method: string, params: Record<string, unknown>): Record<string, unknown> {
    if (!this.hasRequest(method)) {
      throw new McpClientError(
        ClientErrorCode.VersionUnsupported,
        `${method} does not exist in protocol version ${this.version}, which this session speaks; it was not sent`,
        { method, protocolVersion: this.version },
      );
    }
    const shape = this.#members.clientRequestParams[method]!;
    return this.#reducer.reduce<Record<string, unknown>>(params, shape, this.#members.clientDefinitions).value ?? {};
  }

  /** True when the server of this version may send request `method`, so that the client answers it with a result. */
  answers(method: string): boolean {
    return Object.hasOwn(this.#members.serverRequestResults, method);
  }

  /** The result the client answers server request `method` with, reduced to what this version defines; `result` as it is for a method the version lacks. */
  answer(method: string, result: Record<string, unknown>): Record<string, unknown> {
    if (!this.answers(method)) return result;
    const shape = this.#members.serverRequestResults[method]!;
    return this.#reducer.reduce<Record<string, unknown>>(result, shape, this.#members.clientDefinitions).value ?? {};
  }

  /** The capabilities `initialize` declares in this version: those it defines, as it means them (`reduceCapabilities`). */
  capabilities<T extends object>(declared: T): T {
    const own = this.#members.clientCapabilities;
    return this.#reducer.reduceCapabilities(declared, own, this.#members.clientDefinitions, this.#newestCapabilities);
  }
}

/** Each version's member lists, loaded when a client first speaks it: a client of the 2026 era never loads them. */
const LOADERS: Record<InitializeEraVersion, () => Promise<ClientMemberLists>> = {
  "2025-11-25": () => import("@x/mcp-v2511/members"),
  "2025-06-18": () => import("@x/mcp-v2506/members"),
  "2025-03-26": () => import("@x/mcp-v2503/members"),
  "2024-11-05": () => import("@x/mcp-v2411/members"),
};

const loaded = new Map<string, Promise<ClientVersion>>();

/**
 * The {@link ClientVersion} of `version` (loaded once per version).
 * @throws RangeError for a version outside `INITIALIZE_ERA_VERSIONS`.
 */
export function loadClientVersion(version: string): Promise<ClientVersion> {
  if (!isInitializeEraVersion(version)) throw new RangeError(`${version} is not a protocol version of the initialize era`);
  let table = loaded.get(version);
  if (table === undefined) {
    // 2025-11-25's capabilities, the era's fullest, say which members an older version's bare capability leaves out.
    table = Promise.all([LOADERS[version](), import("@x/json-schema/reduce"), import("@x/mcp-v2511/members")]).then(
      ([members, reducer, newest]) => new ClientVersion(version, members, reducer, newest.clientCapabilities),
    );
    // A failed load (a package missing) is tried again by the next session.
    table.catch(() => loaded.delete(version));
    loaded.set(version, table);
  }
  return table;
}

/** The versions a client may pin (`protocol`), newest first: 2026-07-28 and each of the `initialize` era. */
export const PINNABLE_VERSIONS: readonly ["2026-07-28", ...typeof INITIALIZE_ERA_VERSIONS] = Object.freeze([
  "2026-07-28",
  ...INITIALIZE_ERA_VERSIONS,
] as const);

/** True when `value` may be given as `protocol` (`"auto"` or one of {@link PINNABLE_VERSIONS}). */
export function isProtocolChoice(value: unknown): boolean {
  return value === "auto" || (PINNABLE_VERSIONS as readonly unknown[]).includes(value);
}

/**
 * The version a client pinned with `protocol` that `initialize` asks for:
 * the pinned one, or the newest of the era for `"auto"`.
 */
export function proposedVersion(choice: string): InitializeEraVersion {
  return isInitializeEraVersion(choice) ? choice : INITIALIZE_ERA_VERSIONS[0];
}

/**
 * Refuses a server that answered `initialize` with another version than the
 * one the client pinned (spec 2025-11-25: lifecycle "Version Negotiation":
 * a client that does not support the answered version disconnects).
 * @throws McpClientError -32096 (`VersionUnsupported`) when `choice` pins an `initialize`-era version and `answered` differs.
 */
export function checkPinned(choice: string, answered: string): void {
  if (!isInitializeEraVersion(choice) || answered === choice) return;
  throw new McpClientError(
    ClientErrorCode.VersionUnsupported,
    `The server answered initialize with protocol version ${answered}; this client is pinned to ${choice}`,
    { protocolVersion: answered, supported: [choice] },
  );
}

/**
 * Answers a server request as `version` defines it: a method the version
 * has no such request for is answered -32601 without asking `answer`; a
 * result is reduced to the version's definition of it.
 */
export async function answerAs(
  version: ClientVersion | undefined,
  request: JSONRPCRequest,
  answer: () => Promise<ServerResponse | undefined>,
): Promise<ServerResponse | undefined> {
  if (version === undefined) return answer();
  if (!version.answers(request.method)) {
    const message = `Method not found: ${request.method} does not exist in protocol version ${version.version}`;
    return errorResponse(request.id, JsonRpcErrorCode.MethodNotFound, message);
  }
  const response = await answer();
  if (response === undefined || !("result" in response)) return response;
  return resultResponse(request.id, version.answer(request.method, response.result as Record<string, unknown>));
}
