/**
 * The discover feature (spec 2026-07-28, server/discover): `server/discover`
 * answers who the server is, what it can do (the capabilities every feature
 * adds up to), which protocol versions it speaks, and its instructions.
 */
import type { DiscoverResult, ServerCapabilities } from "@x/mcp-v2607";
import { META_SERVER_INFO, Method } from "@x/mcp-v2607/constants";
import type { Feature, MethodTable, ServerHost } from "./feature.js";

/** `server/discover` for one server. */
export class DiscoverFeature implements Feature {
  readonly #host: ServerHost;
  readonly #versions: () => string[];
  readonly #instructions: string | undefined;

  /** `versions`: the protocol versions the server answers, newest first. */
  constructor(host: ServerHost, versions: () => string[], instructions: string | undefined) {
    this.#host = host;
    this.#versions = versions;
    this.#instructions = instructions;
  }

  readonly methods: MethodTable = {
    [Method.ServerDiscover]: { enabled: () => true, handle: () => this.#discover() },
  };

  capabilities(_caps: ServerCapabilities): void {
    // Discovery is always served and adds no capability.
  }

  // Built here, not by @x/builders' discoverResult: the constructor checked
  // the server's info, the features built the capabilities and the hints
  // are checked, so its checks would only add weight.
  #discover(): DiscoverResult {
    const hints = this.#host.hints(Method.ServerDiscover);
    const result: DiscoverResult = {
      resultType: "complete",
      supportedVersions: this.#versions(),
      capabilities: this.#host.capabilities(),
      cacheScope: hints.cacheScope,
      ttlMs: hints.ttlMs,
      _meta: { [META_SERVER_INFO]: this.#host.info },
    };
    if (this.#instructions !== undefined) result.instructions = this.#instructions;
    return result;
  }
}
