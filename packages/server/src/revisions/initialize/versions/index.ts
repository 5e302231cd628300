/**
 * The tables of the `initialize` era's versions, one file each (their own
 * generated packages): a session looks up the version it negotiated here.
 * They load with the first `initialize` (`loadVersionTables`, awaited by
 * `readInitialize`), not with the package.
 */
import type { VersionTable } from "./table.js";

export type { VersionTable } from "./table.js";

let tables: ReadonlyMap<string, VersionTable> | undefined;

/** Loads the tables (once); the first `initialize` waits for it. */
export async function loadVersionTables(): Promise<void> {
  tables ??= (await import("./tables.js")).TABLES;
}

/**
 * The table of `version`, one of the era's versions (`INITIALIZE_ERA_VERSIONS`).
 * @throws Error before {@link loadVersionTables} resolved (every session began with an `initialize`, which loads them);
 *   RangeError for any other version (a session only ever holds a negotiated one).
 */
export function versionTable(version: string): VersionTable {
  if (tables === undefined) throw new Error("initialize-era version tables used before the first initialize");
  const table = tables.get(version);
  if (table === undefined) throw new RangeError(`no table for protocol version ${version} of the initialize era`);
  return table;
}
