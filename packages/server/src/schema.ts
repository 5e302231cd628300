/**
 * Compilation of user-supplied JSON Schemas (tool `inputSchema` and
 * `outputSchema`, elicitation schemas), through `@x/json-schema`: each is
 * read in the dialect its root `$schema` declares (2020-12 when none;
 * 2019-09, draft-07, draft-06 and draft-04 too; any other refused), the
 * root `$id` dropped, formats asserted. Schemas are compiled once, at
 * registration; a `$ref` must resolve inside the schema itself: remote
 * references are never fetched.
 *
 * The validator is chosen, not imported: `ServerOptions.validator`, else
 * this runtime's default, looked up when the first JSON Schema is compiled
 * (never when the package is imported, and never by a server whose schemas
 * are all Standard Schemas). On Node, Bun and Deno that default is found at
 * run time, not imported, so a bundle carries only the validator its
 * program names; under the workerd, worker and browser conditions it is
 * the cfworker validator, which such a bundle carries. The protocol's own
 * messages are checked without any (`documents.ts`).
 */
import { codeGenerationAllowed, type JsonSchemaValidator, MissingDependencyError, runTimeRequire } from "@x/json-schema";
// Resolved by package.json conditions: none to import on Node, Bun and Deno (found below); the cfworker validator under workerd, worker and browser.
import { defaultValidator as conditioned } from "#default-validator";

export {
  type CompiledSchema,
  compileSchema,
  formatProblems,
  type JsonSchemaValidator,
  type SchemaProblem,
} from "@x/json-schema";
/** The check for Infinity, -Infinity and NaN, which JSON cannot carry, in tool arguments and results. */
export { nonFiniteProblem } from "@x/json-schema";
/** The strict keyword check of tool schemas (unknown keywords are refused at registration). */
export { unknownKeyword } from "@x/json-schema";

const load = runTimeRequire(import.meta.url);

/** The default once looked for: the validator, or null when none could be found (not looked for again). */
let found: JsonSchemaValidator | null | undefined;

/**
 * This package's own default validator found at run time, by a `require`
 * no bundler follows: ajv (`@x/server/ajv`), or the cfworker validator
 * where code generation is forbidden; `undefined` when this package cannot
 * be found from here (a bundle with nothing installed beside it).
 * @throws Error naming `ServerOptions.validator` when it is found but cannot
 *   be loaded (Deno without read access to it, say), its cause the loader's error.
 */
function findAtRunTime(): JsonSchemaValidator | undefined {
  const entry = codeGenerationAllowed() ? "@x/server/ajv" : "@x/server";
  try {
    const exports = load(entry, "@x/server") as { ajvValidator?: JsonSchemaValidator; cfworkerValidator?: JsonSchemaValidator };
    return exports.ajvValidator ?? exports.cfworkerValidator;
  } catch (error) {
    if (error instanceof MissingDependencyError) return undefined;
    throw new Error(
      `The default JSON Schema validator (${entry}) could not be loaded: ${error instanceof Error ? error.message : String(error)}; set ServerOptions.validator to choose one`,
      { cause: error },
    );
  }
}

/**
 * The JSON Schema validator a server uses when `ServerOptions.validator`
 * names none, looked up once: under the `workerd`, `worker` and `browser`
 * conditions the cfworker validator (which the bundle carries); on Node,
 * Bun and Deno none is imported: ajv, found at run time beside this
 * package (the cfworker validator where code generation is forbidden), so
 * an unbundled server works with no option and a bundle carries only the
 * validator its program names. Packaging, not a protocol rule: no spec section.
 * @returns the validator, or `undefined` when none can be found (a bundle
 *   naming none, with nothing installed beside it).
 * @throws any error the found package throws while loading (never for a missing one).
 */
export function defaultValidator(): JsonSchemaValidator | undefined {
  if (found === undefined) found = conditioned ?? findAtRunTime() ?? null;
  return found ?? undefined;
}

/**
 * Whether this runtime's default validator generates no code, decided
 * without loading it: under the workerd, worker and browser conditions (the
 * cfworker default) or where code generation is forbidden. Action tools,
 * which carry ajv themselves, compile with the cfworker validator then.
 */
export function defaultIsInterpreted(): boolean {
  return conditioned ? !conditioned.generatesCode : !codeGenerationAllowed();
}

/**
 * The validator that compiles a JSON Schema of `what` (e.g. `tool echo:
 * inputSchema`): `named` (`ServerOptions.validator`), else
 * {@link defaultValidator}.
 * @throws TypeError starting with `what` when there is none, naming the option that gives one.
 */
export function schemaValidator(named: JsonSchemaValidator | undefined, what: string): JsonSchemaValidator {
  const validator = named ?? defaultValidator();
  if (validator === undefined) {
    throw new TypeError(
      `${what} is a JSON Schema, and this server has no JSON Schema validator: set ServerOptions.validator to cfworkerValidator (from "@x/server") or ajvValidator (from "@x/server/ajv"); a bundle carries only the validator its program names`,
    );
  }
  return validator;
}
