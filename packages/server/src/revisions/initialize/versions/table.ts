/**
 * One protocol version of the `initialize` era as the server serves it: a
 * {@link VersionTable} built from that version's own generated package
 * (its member lists, its version constant, its batch rule), one file per
 * version beside this one. What a session of that version may be sent is
 * read from it: which client requests exist (another is -32601), which
 * notifications and requests the server may send (another is never sent),
 * and every result, notification and request reduced to the members the
 * version defines (`@x/json-schema/reduce`, the one reducer both sides use).
 */
import type { Shape } from "@x/json-schema/reduce";
import { clientCapabilities as READ_CAPABILITIES } from "@x/mcp-v2607/members";
import type { JsonObject } from "../../../objects.js";
import { type Definitions, fitsShape, type Reduced, reduce, reduceCapabilities, requiresMembers } from "@x/json-schema/reduce";

/**
 * What a version's generated package gives its table (`@x/mcp-v*\/members`):
 * what the server sends in that version. The methods it may send are the keys
 * of the params maps, the requests a client may send the keys of
 * `clientRequestResults`.
 */
export interface MemberLists {
  readonly serverDefinitions: Definitions;
  readonly serverRequestParams: { readonly [method: string]: Shape };
  readonly serverNotificationParams: { readonly [method: string]: Shape };
  readonly clientRequestResults: { readonly [method: string]: string };
  readonly serverResults: readonly string[];
  /** What a client of the version may declare (`ClientCapabilities`), read by {@link VersionTable.clientCapabilities}. */
  readonly clientCapabilities: Shape;
}

/**
 * A rule of one version for a request the server sends, applied before the
 * request is reduced and checked: what the version requires that the
 * server's own shape of the request lacks (2025-11-25's `elicitationId`).
 */
export type RequestRule = (method: string, params: JsonObject) => JsonObject;

/** One version of the `initialize` era: what a session that negotiated it is sent. */
export class VersionTable {
  /** The protocol version, e.g. `"2025-06-18"`. */
  readonly version: string;
  /** Whether a session of this version takes JSON-RPC batches (2025-03-26 alone). */
  readonly batches: boolean;
  readonly #members: MemberLists;
  readonly #requestRule: RequestRule | undefined;

  constructor(version: string, members: MemberLists, batches: boolean, requestRule?: RequestRule) {
    this.version = version;
    this.batches = batches;
    this.#members = members;
    this.#requestRule = requestRule;
  }

  /** True when the client may send request `method` in this version (else it is -32601). */
  hasClientRequest(method: string): boolean {
    return Object.hasOwn(this.#members.clientRequestResults, method);
  }

  /**
   * `result` of request `method` reduced to this version: to the method's
   * result, or, when `result` lacks what that one requires, to the first
   * other result of the version's `ServerResult` whose required members it
   * holds. A result that fits none is left as it is: a result the version
   * defines apart from both (2025-11-25's task handle, `CreateTaskResult`,
   * which a `tools/call` with `task` answers).
   */
  result(method: string, result: JsonObject): JsonObject {
    const defs = this.#members.serverDefinitions;
    if (!this.hasClientRequest(method)) return result;
    const own = this.#members.clientRequestResults[method]!;
    let shape: Shape | undefined = own;
    if (!fitsShape(result, own, defs)) {
      shape = undefined;
      for (const other of this.#members.serverResults) {
        if (other !== own && requiresMembers(other, defs) && fitsShape(result, other, defs)) {
          shape = other;
          break;
        }
      }
    }
    return shape === undefined ? result : reduce<JsonObject>(result, shape, defs).value;
  }

  /**
   * What a client of this version declared in `initialize`, as the server
   * reads capabilities (2026-07-28's `ClientCapabilities`, which the asks
   * check): reduced to the members this version defines (another means
   * nothing in it), and a capability this version defines as an object with
   * no members of its own, where the server's reading lists some, kept
   * without them. So before 2025-11-25 an `elicitation` capability holds no
   * `form` or `url`: it means form elicitation, that version's only mode
   * (spec 2025-06-18: client/elicitation "Capabilities"), never URL; and a
   * `sampling` capability holds no `tools` or `context`.
   */
  clientCapabilities<T extends object>(declared: T): T {
    return reduceCapabilities(declared, this.#members.clientCapabilities, this.#members.serverDefinitions, READ_CAPABILITIES);
  }

  /** The `InitializeResult` of this version: capabilities, server info and the rest reduced to what it defines. */
  initializeResult<T extends object>(result: T): T {
    return this.result("initialize", result as JsonObject) as T;
  }

  /**
   * A notification the server sends, reduced to this version; `undefined`
   * when the version has no such notification (it is then never sent).
   */
  notification(method: string, params: JsonObject | undefined): JsonObject | undefined {
    const shapes = this.#members.serverNotificationParams;
    if (!Object.hasOwn(shapes, method)) return undefined;
    if (params === undefined) return {};
    return reduce<JsonObject>(params, shapes[method]!, this.#members.serverDefinitions).value;
  }

  /**
   * The params of a request the server sends, as this version carries them:
   * `undefined` when it cannot (the version has no such request, or the
   * params lack what its definition requires there: a URL elicitation
   * before 2025-11-25).
   */
  request(method: string, params: JsonObject): JsonObject | undefined {
    const shapes = this.#members.serverRequestParams;
    if (!Object.hasOwn(shapes, method)) return undefined;
    const ruled = this.#requestRule === undefined ? params : this.#requestRule(method, params);
    const reduced: Reduced<JsonObject> = reduce(ruled, shapes[method]!, this.#members.serverDefinitions);
    return reduced.fits ? reduced.value : undefined;
  }
}
