/**
 * Server identity and `server/discover` (spec 2026-07-28, server/discover).
 */
import type { DiscoverResult, Implementation, ServerCapabilities } from "@x/mcp-v2607";
import { META_SERVER_INFO, PROTOCOL_VERSION } from "@x/mcp-v2607/constants";
import { checkJsonObject, fail, optionalBoolean, optionalStrings } from "./members.js";
import { plainData } from "./snapshot.js";
import { describeValue, isPlainObject } from "./util.js";

/** Capability flags: `true` enables a capability with no options, an object enables it with those options, anything else leaves it out. */
export type CapabilityFlags = { [K in keyof ServerCapabilities]?: ServerCapabilities[K] | boolean | null };

/**
 * Normalises capability flags into a `ServerCapabilities` object.
 * - `true` becomes `{}` (enabled, no options);
 * - an object is kept as given (e.g. `{ listChanged: true }`);
 * - `false`, `null` or any other value leaves the key out (not advertised).
 *
 * An object whose values are all objects already is a ready
 * `ServerCapabilities` and is returned as given (a copy read once before it
 * was checked: see the README, "Plain data").
 * Either way the objects are checked against the schema: `tools` and
 * `prompts` may hold `listChanged`, `resources` `listChanged` and
 * `subscribe` (booleans); `completions` and `logging` are JSON objects,
 * `experimental` and `extensions` maps of JSON objects.
 *
 * @throws TypeError when `flags` is not a plain object, or a capability
 *   object has a member of the wrong type, or `flags` is not plain JSON data
 *   (a function such as `toJSON`, a `Date`, a cycle); RangeError when it is
 *   nested deeper than 1000 levels.
 *
 * @example
 * capabilities({ tools: true, resources: { subscribe: true }, prompts: false });
 * // { tools: {}, resources: { subscribe: true } }
 */
export function capabilities(flags: CapabilityFlags | ServerCapabilities = {}): ServerCapabilities {
  return capabilitiesOf(plainData(flags, "capabilities"));
}

/** {@link capabilities} of flags that are a snapshot already. */
function capabilitiesOf(flags: CapabilityFlags | ServerCapabilities): ServerCapabilities {
  if (!isPlainObject(flags)) {
    throw new TypeError(`capabilities must be a plain object, got ${describeValue(flags)}`);
  }
  const values = Object.values(flags);
  if (values.every((v) => isPlainObject(v))) return checkCapabilities(flags);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flags)) {
    if (value === true) out[key] = {};
    else if (isPlainObject(value)) out[key] = value;
  }
  return checkCapabilities(out);
}

/** Checks the capability objects the schema describes (see {@link capabilities}); returns them. */
function checkCapabilities(caps: Record<string, unknown>): ServerCapabilities {
  for (const [key, value] of Object.entries(caps)) {
    const where = `capabilities.${key}`;
    if (!isPlainObject(value)) continue;
    if (key === "tools" || key === "prompts" || key === "resources") {
      optionalBoolean(value, "listChanged", where);
      if (key === "resources") optionalBoolean(value, "subscribe", where);
    } else if (key === "completions" || key === "logging") checkJsonObject(value, where);
    else if (key === "experimental" || key === "extensions") {
      for (const [name, one] of Object.entries(value)) checkJsonObject(one, `${where}.${name}`);
    }
  }
  return caps as ServerCapabilities;
}

/** Input of {@link serverInfo}. */
export interface ServerInfoOptions {
  /** Programmatic name of the server (required). */
  name: string;
  /** Version string of the server (required). */
  version: string;
  /** Optional display title; the key is absent when not given. */
  title?: string;
}

function requireString(options: Record<string, unknown>, key: string): string {
  const value = options[key];
  if (typeof value !== "string" || value === "") {
    throw new TypeError(`${key} is required and must be a non-empty string, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * Builds the `Implementation` that names the server, as carried in every
 * result's `_meta["io.modelcontextprotocol/serverInfo"]`.
 *
 * `title` is absent unless given (`null` counts as absent).
 *
 * @throws TypeError naming `name` or `version` when missing or not a non-empty string,
 *   `title` when given and not a string, or the member when the options are not
 *   plain JSON data (see the README, "Plain data").
 *
 * @example
 * serverInfo({ name: "weather", version: "1.0.0" }); // { name: "weather", version: "1.0.0" }
 */
export function serverInfo(options: ServerInfoOptions): Implementation {
  return infoOf(plainData(options, "options"));
}

/** {@link serverInfo} of options that are a snapshot already. */
function infoOf(options: ServerInfoOptions): Implementation {
  if (!isPlainObject(options)) throw new TypeError(`options must be an object, got ${describeValue(options)}`);
  const info: Implementation = { name: requireString(options, "name"), version: requireString(options, "version") };
  if (options.title !== undefined) {
    if (typeof options.title !== "string") throw new TypeError(`title must be a string, got ${describeValue(options.title)}`);
    info.title = options.title;
  }
  return info;
}

/** Input of {@link discoverResult}. */
export interface DiscoverResultOptions extends ServerInfoOptions {
  /** Capability flags (see {@link capabilities}); default: none advertised. */
  capabilities?: CapabilityFlags | ServerCapabilities;
  /** Optional instructions for the client's model. */
  instructions?: string;
  /** Protocol versions this server answers; default `[PROTOCOL_VERSION]` (`["2026-07-28"]`). */
  supportedVersions?: string[];
}

/**
 * Builds the `DiscoverResult` answered to `server/discover`: the supported
 * protocol versions, the capabilities, the server's `Implementation` under
 * `_meta["io.modelcontextprotocol/serverInfo"]`, `resultType: "complete"`, and
 * the no-reuse cache hint (`cacheScope: "private"`, `ttlMs: 0`).
 *
 * @throws TypeError naming `name` or `version` when missing, `capabilities`
 *   as {@link capabilities} does, `supportedVersions` when not an array of
 *   strings, `instructions` when not a string, or the member when the options
 *   are not plain JSON data (a function such as `toJSON`, a `Date`, a cycle:
 *   see the README, "Plain data"); RangeError when they are nested deeper
 *   than 1000 levels.
 *
 * @example
 * discoverResult({ name: "MyServer", version: "1.0.0", capabilities: { tools: true } });
 * // { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} },
 * //   cacheScope: "private", ttlMs: 0, _meta: { "io.modelcontextprotocol/serverInfo": { name: "MyServer", version: "1.0.0" } } }
 */
export function discoverResult(options: DiscoverResultOptions): DiscoverResult {
  const opts = plainData(options, "options");
  const info = infoOf(opts);
  optionalStrings(opts as unknown as Record<string, unknown>, "supportedVersions", "discoverResult");
  if (opts.instructions !== undefined && typeof opts.instructions !== "string") {
    fail("instructions", "must be a string when given", opts.instructions);
  }
  const result: DiscoverResult = {
    resultType: "complete",
    supportedVersions: opts.supportedVersions ? [...opts.supportedVersions] : [PROTOCOL_VERSION],
    capabilities: capabilitiesOf(opts.capabilities ?? {}),
    cacheScope: "private",
    ttlMs: 0,
    _meta: { [META_SERVER_INFO]: info },
  };
  if (opts.instructions !== undefined) result.instructions = opts.instructions;
  return result;
}
