/**
 * The discover feature (spec 2026-07-28, server/discover): `server/discover`
 * answers who the server is, what it can do (the capabilities every feature
 * adds up to), which protocol versions it speaks, and its instructions.
 */
import { discoverResult } from "@x/builders";
import type { DiscoverResult, ServerCapabilities } from "@x/mcp-v2607";
import { META_SERVER_INFO, Method } from "@x/mcp-v2607/constants";
import { copyOwn } from "../objects.js";
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

  #discover(): DiscoverResult {
    const info = this.#host.info;
    const options: Parameters<typeof discoverResult>[0] = {
      name: info.name,
      version: info.version,
      capabilities: this.#host.capabilities(),
      supportedVersions: this.#versions(),
    };
    if (info.title !== undefined) options.title = info.title;
    if (this.#instructions !== undefined) options.instructions = this.#instructions;
    const result = discoverResult(options);
    // discoverResult names the server from name/version/title; keep every Implementation field.
    const meta = copyOwn(result._meta as object);
    meta[META_SERVER_INFO] = info;
    result._meta = meta as DiscoverResult["_meta"];
    // The server's configured hints for server/discover apply, not the builder's defaults.
    const hints = this.#host.hints(Method.ServerDiscover);
    result.ttlMs = hints.ttlMs;
    result.cacheScope = hints.cacheScope;
    return result;
  }
}
