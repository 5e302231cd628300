/**
 * The four tables by version (loaded on the first `initialize`, through
 * `index.ts`): each version's member lists are a few kilobytes a server of
 * the 2026-07-28 era alone never needs.
 */
import { v2411 } from "./2024-11-05.js";
import { v2503 } from "./2025-03-26.js";
import { v2506 } from "./2025-06-18.js";
import { v2511 } from "./2025-11-25.js";
import type { VersionTable } from "./table.js";

/** The era's tables by version. */
export const TABLES: ReadonlyMap<string, VersionTable> = new Map([v2511, v2506, v2503, v2411].map((table) => [table.version, table]));
