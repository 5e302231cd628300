import { brandAcrossCopies } from "@x/jsonrpc";

/** Why `compileSchema` refused a schema (see {@link SchemaCompileError}). */
export type SchemaRefusal = "not-an-object" | "not-json" | "too-large" | "too-deep" | "unknown-dialect" | "unresolved-ref" | "invalid";

/**
 * Thrown by `compileSchema` for a schema it cannot use: any schema whose
 * `$schema` names no supported dialect (`unknown-dialect`), and an untrusted
 * one for every other reason. `reason` says why and `data` carries the
 * figures: `bytes` and `limit` (too-large), `limit` (too-deep), `dialect`
 * (unknown-dialect: the `$schema` value as given), `ref` (unresolved-ref).
 * For `invalid` and `unresolved-ref` the message is the validator's, and
 * `cause` the validator's error where it threw one (ajv's).
 */
export class SchemaCompileError extends Error {
  /** What is wrong with the schema. */
  readonly reason: SchemaRefusal;
  /** The figures behind the reason (see the class comment). */
  readonly data: Record<string, unknown>;

  /**
   * Made by the validators when they refuse a schema.
   * @param reason what is wrong with the schema
   * @param message the error's message
   * @param data the figures behind the reason
   * @param cause the error that led to this one (the validator's), if any
   */
  constructor(reason: SchemaRefusal, message: string, data: Record<string, unknown> = {}, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "SchemaCompileError";
    this.reason = reason;
    this.data = data;
  }
}

// @x/server and @x/client carry their own copies of this package (after the class: see brandAcrossCopies).
brandAcrossCopies(SchemaCompileError, "@x/json-schema/SchemaCompileError");
