/**
 * The checks of the options the `McpServer` constructor checks as a whole,
 * not by the feature they configure (its `info` is `serverImplementation`
 * of options.ts): a mistake throws when the server is built, not on a request.
 */
import { PROTOCOL_VERSION } from "@x/mcp-v2607/constants";
import { KeyRing } from "./keys.js";
import { isObject } from "./objects.js";
import type { ServerOptions, TasksPlugin } from "./options.js";
import type { RevisionPlugin } from "./revisions/plugin.js";

/** The request state keys: the option's (base64 text or bytes), else `MCP_REQUEST_STATE_KEYS`, else none. */
export function keysFrom(option: ServerOptions["requestStateKeys"]): Uint8Array[] {
  if (option) return option.map((k) => (typeof k === "string" ? Buffer.from(k, "base64") : k));
  const env = typeof process !== "undefined" ? process.env.MCP_REQUEST_STATE_KEYS : undefined;
  return env ? KeyRing.fromBase64List(env) : [];
}

/**
 * The versions a server serves: `protocolVersions` when given, else every
 * version of 2026-07-28 and of `plugins`.
 * @throws RangeError when `protocolVersions` is not an array, names a version
 *   neither serves, or leaves out 2026-07-28.
 */
export function servedVersions(protocolVersions: ServerOptions["protocolVersions"], plugins: readonly RevisionPlugin[]): readonly string[] {
  const known = [PROTOCOL_VERSION, ...plugins.flatMap((plugin) => plugin.revision.versions)];
  const versions = protocolVersions ?? known;
  const unknown = Array.isArray(versions) ? versions.filter((v) => !known.includes(v)) : undefined;
  if (unknown === undefined || unknown.length > 0) {
    const got = unknown === undefined ? `not ${typeof versions}` : `got ${unknown.map((v) => JSON.stringify(v)).join(", ")}`;
    // A class without plug-ins says where the other versions are served.
    const elsewhere =
      plugins.length === 0
        ? `; this McpServer serves ${PROTOCOL_VERSION} alone, the McpServer of "@x/server" also serves 2025-11-25 and the versions before it`
        : "";
    throw new RangeError(`protocolVersions may list only ${known.join(", ")} (${got})${elsewhere}`);
  }
  if (!versions.includes(PROTOCOL_VERSION)) throw new RangeError(`protocolVersions must include ${PROTOCOL_VERSION}`);
  return versions;
}

/**
 * The tasks plug-in of the `tasks` option.
 * @throws TypeError when it is not the plug-in (the options object it took before included).
 */
export function tasksPluginOf(tasks: unknown): TasksPlugin {
  // Refused rather than ignored: the options object this took before would leave a server without tasks.
  if (!isObject(tasks) || typeof tasks.install !== "function") {
    throw new TypeError(
      'ServerOptions.tasks takes the tasks plug-in: import { tasks } from "@x/server/tasks" and pass tasks: tasks({ store, ttlMs, ... }) (the options it took before are the plug-in\'s)',
    );
  }
  return tasks as object as TasksPlugin;
}
