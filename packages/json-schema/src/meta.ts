/**
 * ajv's checks of a schema against the 2020-12 and draft-07 meta-schemas,
 * compiled when this package is built (`scripts/meta-validators.mjs`, the
 * `./meta/*` export): compiling 2020-12's at run time costs tens of
 * milliseconds. Only the compile of an untrusted schema asks for them
 * (`untrustedSchemas`), so a program that compiles only its own schemas
 * neither loads nor bundles them (about 66 KB minified).
 */
import { requireLazily } from "@x/jsonrpc";
import type { Dialect } from "./dialect.js";
import type { MetaSchemaCheck } from "./validator.js";

const url = import.meta.url;
// One literal require each, so that a bundler carries them; by the package's own name, so that a
// copy of this code inside another package's files finds them too.
const LOADERS: Partial<Record<Dialect, () => unknown>> = {
  "2020-12": () => requireLazily(() => require("@x/json-schema/meta/2020-12"), "@x/json-schema/meta/2020-12", "@x/json-schema", url),
  "draft-07": () => requireLazily(() => require("@x/json-schema/meta/draft-07"), "@x/json-schema/meta/draft-07", "@x/json-schema", url),
};

/** Each dialect's check once looked for: the function, or null when there is none or it could not be loaded (not tried again). */
const loaded = new Map<Dialect, MetaSchemaCheck | null>();

/**
 * The meta-schema check of `dialect` compiled at build time, loaded on the
 * first call, or `undefined` when there is none (2019-09, draft-06,
 * draft-04) or it cannot be loaded (a bundle built without it): an
 * optimisation only, the validator then checks with the meta-schema itself.
 */
export function precompiledMetaCheck(dialect: Dialect): MetaSchemaCheck | undefined {
  let check = loaded.get(dialect);
  if (check === undefined) {
    let found: unknown;
    try {
      const module = LOADERS[dialect]?.() as { default?: unknown } | undefined;
      found = typeof module === "function" ? module : module?.default;
    } catch {
      // Not there: the meta-schema is compiled at run time.
    }
    check = typeof found === "function" ? (found as MetaSchemaCheck) : null;
    loaded.set(dialect, check);
  }
  return check ?? undefined;
}
