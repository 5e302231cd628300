/**
 * ajv and ajv-formats (and, for a draft-04 schema, ajv-draft-04), loaded
 * synchronously on first use (all are CommonJS), never when this package is
 * imported. A bundler cannot see the load: keep `ajv`, `ajv-formats` and
 * `ajv-draft-04` installed beside a bundled program.
 */
import type { Ajv, AnySchemaObject } from "ajv";
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
let draft07: typeof Ajv | undefined;
let draft2019: typeof Ajv2019 | undefined;
let draft04: typeof Ajv | undefined;
let draft06Meta: AnySchemaObject | undefined;

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

/**
 * Loads ajv's JSON Schema 2019-09 class on the first call.
 * @throws MissingDependencyError when `ajv` is not installed.
 */
export function loadAjv2019(): typeof Ajv2019 {
  draft2019 ??= (requireAtRunTime("ajv/dist/2019.js", "ajv") as { Ajv2019: typeof Ajv2019 }).Ajv2019;
  return draft2019;
}

/**
 * Loads ajv-draft-04's class (JSON Schema draft-04: `id`, boolean
 * `exclusiveMaximum`/`exclusiveMinimum`) on the first call.
 * @throws MissingDependencyError when `ajv-draft-04` is not installed.
 */
export function loadAjvDraft04(): typeof Ajv {
  if (!draft04) {
    const main = requireAtRunTime("ajv-draft-04", "ajv-draft-04") as typeof Ajv & { default?: typeof Ajv };
    draft04 = main.default ?? main;
  }
  return draft04;
}

/**
 * Loads the draft-06 meta-schema ajv ships, which a draft-07 instance adds
 * to read draft-06 schemas.
 * @throws MissingDependencyError when `ajv` is not installed.
 */
export function loadDraft06MetaSchema(): AnySchemaObject {
  draft06Meta ??= requireAtRunTime("ajv/dist/refs/json-schema-draft-06.json", "ajv") as AnySchemaObject;
  return draft06Meta;
}
