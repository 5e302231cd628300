/**
 * The `initialize` era as a revision plug-in (`../plugin.ts`): its codec
 * (`index.ts`), its state on each server (`parts.ts`: the versions served,
 * `InitializeResult`, the changes its sessions hear of), and its framings,
 * on Streamable HTTP (`http/`) and on stdio (`stdio.ts`). The `McpServer` of
 * `@x/server` includes it; the one of `@x/server/v2607` does not, and
 * bundles none of this folder.
 */
import type { ServerCapabilities as LegacyCapabilities } from "@x/mcp-v2511";
import type { Core } from "../../transports/http/core.js";
import type { StdioConnection } from "../../transports/stdio-framing.js";
import type { PluggedRevision, PluginHost, RevisionAddOn, RevisionPlugin, ServerChange } from "../plugin.js";
import { initializeResult, legacyVersions } from "./era.js";
import { LegacyHttp } from "./http/framing.js";
import { LEGACY_HTTP_OPTIONS } from "./http/options.js";
import { revision2511 } from "./index.js";
import type { InitializeOpening, LegacyParts } from "./parts.js";
import { DEFAULT_CLIENT_REQUEST_TIMEOUT_MS } from "./session.js";
import { StdioSession } from "./stdio.js";

/** The `initialize` era (2025-11-25 back to 2024-11-05), as a server class includes it. */
export const initializeEra: RevisionPlugin = {
  revision: revision2511,
  install: (host) => new InitializeEra(host),
};

/** The era on one server. */
export class InitializeEra implements PluggedRevision {
  readonly revision = revision2511;
  /** What its framings share. */
  readonly parts: LegacyParts;
  readonly #host: PluginHost;
  readonly #addOns: RevisionAddOn[] = [];

  /** @throws RangeError when `clientRequestTimeoutMs` is not an integer of at least 0. */
  constructor(host: PluginHost) {
    this.#host = host;
    const { options, info } = host;
    const requestTimeoutMs = options.clientRequestTimeoutMs ?? DEFAULT_CLIENT_REQUEST_TIMEOUT_MS;
    if (!Number.isSafeInteger(requestTimeoutMs) || requestTimeoutMs < 0) {
      throw new RangeError(`clientRequestTimeoutMs must be an integer >= 0, got ${options.clientRequestTimeoutMs}`);
    }
    const instructions = options.instructions;
    this.parts = {
      versions: legacyVersions(host.versions),
      requestTimeoutMs,
      initializeResult: (protocolVersion, opening) =>
        initializeResult(protocolVersion, host.capabilities(), info, instructions, this.#added(opening)),
      watchers: new Set(),
      closers: new Set(),
    };
  }

  readonly httpOptions: readonly string[] = Object.keys(LEGACY_HTTP_OPTIONS);

  http(core: Core): LegacyHttp {
    return new LegacyHttp(core, this.parts, core.options);
  }

  stdio(connection: StdioConnection): StdioSession {
    return new StdioSession(connection, this.parts);
  }

  changed(change: ServerChange): void {
    for (const watch of this.parts.watchers) {
      try {
        watch(change);
      } catch {
        // One transport's failure must not keep the change from the others.
      }
    }
  }

  close(): void {
    for (const close of [...this.parts.closers]) close();
  }

  extend(addOn: RevisionAddOn): void {
    this.#host.contribute(addOn.methods);
    this.#addOns.push(addOn);
  }

  /** The capabilities the add-ons give the `InitializeResult` of `opening` (the tasks plug-in: `tasks`). */
  #added(opening: InitializeOpening | undefined): LegacyCapabilities | undefined {
    let added: LegacyCapabilities | undefined;
    for (const addOn of this.#addOns) {
      const caps = addOn.capabilities?.(
        opening && {
          id: opening.id,
          protocolVersion: opening.info.protocolVersion,
          clientCapabilities: opening.info.clientCapabilities,
          clientInfo: opening.info.clientInfo,
          transport: opening.transport,
        },
      );
      if (caps !== undefined) added = Object.assign(added ?? {}, caps as LegacyCapabilities);
    }
    return added;
  }
}
