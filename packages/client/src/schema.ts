/**
 * Validation of a tool's `structuredContent` against its `outputSchema`
 * (spec 2026-07-28, server/tools "Output Schema": clients SHOULD validate
 * structured results; basic/index "JSON Schema Usage": 2020-12 unless
 * `$schema` says otherwise, `$ref` to a network URI never dereferenced,
 * schemas with an unresolved external `$ref` rejected), through
 * `@x/json-schema`.
 *
 * A schema from a server is untrusted input: its size and nesting are
 * checked before any validator sees it. Each distinct schema is compiled
 * once and the check kept in a bounded cache. The validator (ajv by default
 * on Node) is loaded on the first schema compiled, by a literal `require` a
 * bundler follows: a bundled client carries it.
 */
import {
  type CompiledSchema,
  compileSchema,
  defaultValidator,
  formatProblems as format,
  SchemaCompileError,
  type SchemaLimits,
  type SchemaProblem,
  SUPPORTED_DIALECTS,
  type JsonSchemaValidator,
  untrustedSchemas,
} from "@x/json-schema";
import { ClientErrorCode, McpClientError } from "./errors.js";

export {
  type CompiledSchema,
  cfworkerValidator,
  defaultValidator,
  type JsonSchemaValidator,
  MissingDependencyError,
  nonFiniteProblem,
  type SchemaLimits,
  type SchemaProblem,
} from "@x/json-schema";

/**
 * Compiles an output schema with `validator` (default: `defaultValidator()`),
 * or returns the check compiled before for the same schema text. `limits`
 * default to 128 KiB and 32 levels.
 *
 * @throws MissingDependencyError when the validator's package is not installed;
 *   McpClientError -32093 (`OutputSchemaUnusable`) when the schema is
 *   not an object, exceeds `limits`, declares a `$schema` other than
 *   2020-12 (the default), 2019-09, draft-07, draft-06 or draft-04, is not
 *   a valid schema, or has a `$ref` that does not resolve inside it (remote
 *   references are never fetched).
 */
export function compileOutputSchema(schema: unknown, limits: SchemaLimits = {}, validator?: JsonSchemaValidator): CompiledSchema {
  try {
    return compileSchema(schema, { untrusted: untrustedSchemas(limits), validator: validator ?? defaultValidator() });
  } catch (error) {
    if (error instanceof SchemaCompileError) throw unusable(error);
    throw error;
  }
}

/** The client's wording of a refusal: it names the field, and the data keeps the figures. */
function unusable(error: SchemaCompileError): McpClientError {
  const { data } = error;
  const code = ClientErrorCode.OutputSchemaUnusable;
  switch (error.reason) {
    case "not-an-object":
      return new McpClientError(code, "The outputSchema is not a JSON object");
    case "not-json":
      return new McpClientError(code, "The outputSchema cannot be serialized as JSON");
    case "too-large":
      return new McpClientError(code, `The outputSchema is ${data.bytes} bytes, over the limit of ${data.limit}`, data);
    case "too-deep":
      return new McpClientError(code, `The outputSchema is nested more than ${data.limit} levels deep`, data);
    case "unknown-dialect":
      return new McpClientError(
        code,
        `The outputSchema's dialect ${JSON.stringify(data.dialect)} is not supported (supported: ${SUPPORTED_DIALECTS.join(", ")})`,
        data,
      );
    case "unresolved-ref":
      return new McpClientError(
        code,
        `The outputSchema has a $ref to ${data.ref}, which does not resolve inside the schema (remote references are not fetched)`,
        data,
      );
    default:
      return new McpClientError(code, `The outputSchema is not a valid schema: ${error.message}`);
  }
}

/** Renders problems as `/path: message` (`(root)` for the empty path), joined by `"; "` to fit one line of an error message. */
export function formatProblems(problems: readonly SchemaProblem[]): string {
  return format(problems, "; ");
}
