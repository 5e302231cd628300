/**
 * ajv and ajv-formats (and, for a draft-04 schema, ajv-draft-04), loaded
 * synchronously on first use (all are CommonJS), never when this package is
 * imported. A bundler cannot see the load: keep `ajv`, `ajv-formats` and
 * `ajv-draft-04` installed beside a bundled program.
 */
import type { Ajv } from "ajv";
import type { Ajv2019 } from "ajv/dist/2019.js";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { requireAtRunTime } from "./runtime.js";

/** ajv-formats' plugin: adds the formats it knows to an ajv instance. */
export type AddFormats = (ajv: Ajv2020 | Ajv) => unknown;

/** What {@link loadAjv} returns. */
export interface AjvModules {
  /** ajv's JSON Schema 2020-12 class. */
  Ajv2020: typeof Ajv2020;
  /** ajv-formats' plugin. */
  addFormats: AddFormats;
}

/** An ajv class: ajv's 2020-12, 2019-09 or draft-07 class (ajv-draft-04's has the draft-07 class's shape). */
export type AjvClass = typeof Ajv | typeof Ajv2019 | typeof Ajv2020;

let loaded: AjvModules | undefined;
const modules = new Map<string, unknown>();

/**
 * Loads the CommonJS module `specifier` on the first call and returns its
 * `pick` export, or the module itself when it has no such export (a JSON
 * file: pass `""`); later calls return the same value.
 * @throws MissingDependencyError naming `dependency` when it is not installed (nothing is remembered).
 */
export function loadOnce<T>(specifier: string, dependency: string, pick: string): T {
  let found = modules.get(specifier);
  if (found === undefined) {
    const module = requireAtRunTime(specifier, dependency) as Record<string, unknown>;
    found = module[pick] ?? module;
    modules.set(specifier, found);
  }
  return found as T;
}

/**
 * Loads ajv's 2020-12 class and ajv-formats on the first call and returns
 * the same modules afterwards; a caller that needs an ajv instance with
 * options of its own builds it from them.
 * @throws MissingDependencyError when `ajv` or `ajv-formats` is not installed (nothing is
 *   remembered: a later call tries again).
 */
export function loadAjv(): AjvModules {
  loaded ??= { Ajv2020: loadOnce("ajv/dist/2020.js", "ajv", "Ajv2020"), addFormats: loadOnce("ajv-formats", "ajv-formats", "default") };
  return loaded;
}

/**
 * Loads ajv's JSON Schema draft-07 class (ajv's main module) on the first call.
 * @throws MissingDependencyError when `ajv` is not installed.
 */
export function loadAjvDraft07(): typeof Ajv {
  return loadOnce("ajv", "ajv", "default");
}
