/**
 * Reading the `initialize` result (spec 2025-11-25: basic/lifecycle "Version
 * Negotiation") against `@x/mcp-v2511`'s versions and validators, which load
 * on first use, so that a client of 2026-07-28 never pays for them.
 */
import { isObject } from "@x/jsonrpc";
import { INITIALIZE_ERA_VERSIONS, isInitializeEraVersion } from "@x/mcp-v2511/wire";
import { ClientErrorCode, McpClientError } from "../../errors.js";
import { loadOnce } from "../../lazy.js";

type Validate = typeof import("@x/mcp-v2511").validate;
const validateModule = loadOnce(() => import("@x/mcp-v2511").then((m): Validate => m.validate));
/** The 2025-11-25 validators, loaded on first use (a client of the modern era never pays for them). */
export function loadLegacyValidate(): Promise<Validate> {
  return validateModule.get();
}

/** What the server said in its `InitializeResult`. */
export interface InitializeOutcome {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  serverInfo: Record<string, unknown>;
  instructions?: string;
}

/**
 * Reads an `InitializeResult`: the version must be one of
 * `INITIALIZE_ERA_VERSIONS` (spec 2025-11-25: lifecycle "Version
 * Negotiation": the client disconnects otherwise), the rest must match the
 * 2025-11-25 schema.
 * @throws McpClientError -32096 (`VersionUnsupported`) for another version;
 *   -32094 (`InvalidResult`) for a result the schema rejects.
 */
export async function readInitializeResult(result: Record<string, unknown>): Promise<InitializeOutcome> {
  const version = result.protocolVersion;
  if (!isInitializeEraVersion(version)) {
    throw new McpClientError(
      ClientErrorCode.VersionUnsupported,
      `The server answered initialize with protocol version ${JSON.stringify(version)}; this client speaks ${INITIALIZE_ERA_VERSIONS.join(", ")} in that era`,
      { protocolVersion: version, supported: [...INITIALIZE_ERA_VERSIONS] },
    );
  }
  const validate = await loadLegacyValidate();
  const checked = validate("InitializeResult", result);
  if (!checked.ok) {
    const where = checked.problems
      .slice(0, 5)
      .map((p) => `${p.path || "(root)"}: ${p.message}`)
      .join("; ");
    throw new McpClientError(ClientErrorCode.InvalidResult, `The initialize result breaks the 2025-11-25 schema: ${where}`, {
      problems: checked.problems,
    });
  }
  const outcome: InitializeOutcome = {
    protocolVersion: version,
    capabilities: isObject(result.capabilities) ? result.capabilities : {},
    serverInfo: isObject(result.serverInfo) ? result.serverInfo : {},
  };
  if (typeof result.instructions === "string") outcome.instructions = result.instructions;
  return outcome;
}
