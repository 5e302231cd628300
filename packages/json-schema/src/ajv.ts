/**
 * ajv and ajv-formats, loaded synchronously on first use (both are
 * CommonJS), never when this package is imported. A bundler cannot see the
 * load: keep `ajv` and `ajv-formats` installed beside a bundled program.
 */
import type { Ajv } from "ajv";
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

let loaded: AjvModules | undefined;
let draft07: typeof Ajv | undefined;

/**
 * Loads ajv's 2020-12 class and ajv-formats on the first call and returns
 * the same modules afterwards; a caller that needs an ajv instance with
 * options of its own builds it from them.
 * @throws MissingDependencyError when `ajv` or `ajv-formats` is not installed (nothing is
 *   remembered: a later call tries again).
 */
export function loadAjv(): AjvModules {
  if (!loaded) {
    const ajv2020 = requireAtRunTime("ajv/dist/2020.js", "ajv") as { Ajv2020: typeof Ajv2020 };
    const formats = requireAtRunTime("ajv-formats", "ajv-formats") as AddFormats & { default?: AddFormats };
    loaded = { Ajv2020: ajv2020.Ajv2020, addFormats: formats.default ?? formats };
  }
  return loaded;
}

/**
 * Loads ajv's JSON Schema draft-07 class (ajv's main module) on the first call.
 * @throws MissingDependencyError when `ajv` is not installed.
 */
export function loadAjvDraft07(): typeof Ajv {
  if (!draft07) {
    const main = requireAtRunTime("ajv", "ajv") as typeof Ajv & { default?: typeof Ajv };
    draft07 = main.default ?? main;
  }
  return draft07;
}
