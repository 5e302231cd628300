/**
 * Multi Round-Trip Requests on the server (spec 2026-07-28,
 * basic/patterns/mrtr): a handler asks with `await ctx.elicit(...)` (or
 * `ctx.createMessage`, `ctx.listRoots`, `ctx.elicitUrl`); an ask whose
 * answer is not there yet ends the round with an `InputRequiredResult`, and
 * the client's retry re-runs the handler with the answers, found by key.
 *
 * Keys: by default the ask's kind and its position in run order
 * (`elicit-1`, `elicit-2`, `sample-1`, `roots-1`; URL elicitations count as
 * `elicit`), or the key the handler names (`{ key: "user_name" }`).
 *
 * This module builds and checks the asks, for every route they take
 * (`route.ts`): a round of 2026-07-28 (`revisions/2026-07-28/`: `round.ts`
 * resolves them in one run, `state.ts` seals what a round gathered, `run.ts`
 * runs a handler as a round), a request on an `initialize`-era session, or
 * a task's input request.
 */
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  InputRequest,
  ListRootsResult,
} from "@x/mcp-v2607";
import { Method } from "@x/mcp-v2607/constants";
import { isObject, type JsonObject } from "../objects.js";
import { asParsed } from "../numbers.js";
import type { SchemaType } from "../features/tools/define.js";
import { MissingDependencyError } from "../runtime-deps.js";
import { type CompiledSchema, compileSchema, type JsonSchemaValidator, schemaValidator } from "../schema.js";
import {
  isStandardSchema,
  type StandardCheck,
  type StandardOutcome,
  type StandardSchemaV1,
  standardCheck,
  standardJsonSchema,
} from "../standard-schema.js";

type Validators = typeof import("./validators.js");

/**
 * The answer checks and the request builders that check an ask, loaded on
 * the first ask rather than when the package is imported: a server that
 * never asks neither compiles those three schema documents nor runs (or,
 * bundled with code splitting, loads) the builders' code.
 */
let V: Validators | undefined;

/** Loads the validators the asks use (once). Asks are checked only after it resolved. */
export async function loadAskValidators(): Promise<void> {
  V ??= await import("./validators.js");
}

/** What an ask answers when the client did not declare the capability it needs. */
export interface NotSupported {
  action: "not_supported";
  /** The client capability that was missing, e.g. `"elicitation.form"`, `"sampling"`. */
  capability: string;
}

/** The answer of a form elicitation: the client's `ElicitResult`, or not supported. */
export type ElicitAnswer = ElicitResult | NotSupported;
/**
 * What a form elicitation's content may hold (spec: client/elicitation):
 * flat properties of primitive values, a string array for a multi-select.
 * A Standard Schema asked with must accept input of this shape.
 */
export type ElicitContent = { [key: string]: string | number | boolean | string[] | undefined };

/**
 * A Standard Schema (`@standard-schema/spec`) that can be a form
 * elicitation's `requestedSchema`: its input is an {@link ElicitContent}
 * (a nested object, say, fails to compile), and it converts itself to JSON
 * Schema (zod 4.2+, arktype, valibot wrapped with `toStandardJsonSchema`).
 */
export type ElicitationSchema = StandardSchemaV1<ElicitContent, unknown>;

/**
 * The client's answer to a form elicitation asked with a Standard Schema:
 * an accepted answer's `content` is what the schema's validation gave back
 * (defaults filled, transforms applied), typed as its output; a declined or
 * cancelled one carries no content.
 */
export type StandardElicitResult<T> =
  | { action: "accept"; content: T; _meta?: ElicitResult["_meta"] }
  | { action: "decline" | "cancel"; _meta?: ElicitResult["_meta"] };

/** The answer of a form elicitation asked with a Standard Schema: {@link StandardElicitResult}, or not supported. */
export type StandardElicitAnswer<T> = StandardElicitResult<T> | NotSupported;

/**
 * The `content` type of a form elicitation asked with a literal JSON Schema
 * (`as const`, or written inline): its declared properties only, as
 * {@link SchemaType} reads them (a `required` name present, any other
 * optional), since the spec's `requestedSchema` has no
 * `additionalProperties`; `never` for a schema that is not a literal.
 */
export type ElicitContentOf<S> = S extends { readonly properties: infer P }
  ? string extends keyof S
    ? never
    : string extends keyof P
      ? never
      : SchemaType<S & { readonly additionalProperties: false }>
  : never;

/** A JSON Schema `requestedSchema`, its arrays allowed to be read-only (as an `as const` literal's are). */
export type RequestedSchemaLiteral = ReadonlyArrays<ElicitRequestFormParams["requestedSchema"]>;
/** `T` with every array, at any depth, also allowed to be read-only; objects' members read-only. */
export type ReadonlyArrays<T> = T extends readonly (infer U)[]
  ? readonly ReadonlyArrays<U>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadonlyArrays<T[K]> }
    : T;

/**
 * The answer of a form elicitation asked with a JSON Schema: for a literal
 * one, {@link StandardElicitResult} of {@link ElicitContentOf} (a misspelt
 * field does not compile); else {@link ElicitAnswer}.
 */
export type JsonElicitAnswer<S> = [ElicitContentOf<S>] extends [never] ? ElicitAnswer : StandardElicitAnswer<ElicitContentOf<S>>;

/** The answer of a sampling request. @deprecated Sampling is deprecated by the 2026-07-28 spec. */
export type SampleAnswer = CreateMessageResult | NotSupported;
/** The answer of a roots request. @deprecated Roots are deprecated by the 2026-07-28 spec. */
export type RootsAnswer = ListRootsResult | NotSupported;

/** True when an ask answered "not supported" (the client lacks the capability). */
export function isNotSupported(answer: unknown): answer is NotSupported {
  return typeof answer === "object" && answer !== null && (answer as NotSupported).action === "not_supported";
}

/** Options of one ask. */
export interface AskOptions {
  /** The key of this ask in `inputRequests`/`inputResponses`; default kind and position (`elicit-1`). Unique per run. */
  key?: string;
}

/** The kinds of ask, which name the default keys (`elicit-1`, `sample-1`, `roots-1`). */
export type Kind = "elicit" | "sample" | "roots";

/** One question, not yet asked: made by `ctx.ask.*`, answered by `ctx.all([...])`. */
export interface Ask<T> {
  readonly kind: Kind;
  readonly request: InputRequest;
  readonly options: AskOptions;
  /** The client capability the ask needs, e.g. `"elicitation.url"`, `"sampling"`, whether or not the client declared it. */
  readonly needs: string;
  /** The capability the ask needs, or `undefined` when the client declared it. */
  readonly missing: string | undefined;
  /**
   * Checks the question itself (after the ask validators are loaded).
   * @throws TypeError when its parameters are not acceptable.
   */
  readonly check: () => void;
  /**
   * Reads an answer; `undefined` when it is not acceptable (then the
   * question is asked again). A promise only when a Standard Schema's
   * validation answered with one.
   */
  readonly accept: (answer: unknown) => T | undefined | Promise<T | undefined>;
  /** Phantom field carrying the answer type. */
  readonly __answer?: T;
}

/** The compiled `requestedSchema`s of the last 256 distinct schema texts, per validator. */
const answerSchemas = new WeakMap<JsonSchemaValidator, Map<string, CompiledSchema>>();
/**
 * The compiled `requestedSchema` an answer is checked against, by `validator`.
 * @throws TypeError prefixed `elicit: requestedSchema` when it does not compile
 *   (an unknown `$schema` included); MissingDependencyError as it is.
 */
function answerSchema(requestedSchema: object, validator: JsonSchemaValidator): CompiledSchema {
  const text = JSON.stringify(requestedSchema);
  let kept = answerSchemas.get(validator);
  if (!kept) {
    kept = new Map();
    answerSchemas.set(validator, kept);
  }
  let compiled = kept.get(text);
  if (!compiled) {
    try {
      compiled = compileSchema(requestedSchema, { validator });
    } catch (error) {
      if (error instanceof MissingDependencyError) throw error;
      throw new TypeError(`elicit: requestedSchema does not compile: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (kept.size >= 256) kept.delete(kept.keys().next().value!);
    kept.set(text, compiled);
  }
  return compiled;
}

/** A Standard Schema's conversion and check, made once per schema object: the `requestedSchema` is asked on every round. */
const standardAsks = new WeakMap<object, { schema: JsonObject; check: StandardCheck } | TypeError>();

/** The JSON Schema and the check of a Standard Schema `requestedSchema`; a conversion that failed is the TypeError to throw. */
function standardAsk(schema: StandardSchemaV1): { schema: JsonObject; check: StandardCheck } | TypeError {
  let known = standardAsks.get(schema);
  if (!known) {
    try {
      known = { schema: standardJsonSchema(schema, "input", "elicit: requestedSchema"), check: standardCheck(schema) };
    } catch (error) {
      known = error instanceof TypeError ? error : new TypeError(String(error));
    }
    standardAsks.set(schema, known);
  }
  return known;
}

/** An accepted answer whose content the schema's validation gave back, or `undefined` when it did not pass. */
function acceptedAs(result: ElicitResult, outcome: StandardOutcome): StandardElicitResult<unknown> | undefined {
  if (!outcome.ok) return undefined;
  const copy = { ...result } as JsonObject;
  copy.content = outcome.value;
  return copy as StandardElicitResult<unknown>;
}

/** An answer with JSON.parse's numbers (README "Numbers") if it is of its type, else `undefined`. */
function checkedAnswer<T>(answer: unknown, valid: (value: unknown) => value is T): T | undefined {
  const parsed = asParsed(answer);
  return valid(parsed) ? parsed : undefined;
}

/** Form elicitation needs `elicitation` with `form`, or an empty `elicitation` (form is the default mode). */
function formMissing(caps: ClientCapabilities): string | undefined {
  // Unchecked: the client's capabilities are only known to be an object.
  const e: unknown = caps.elicitation;
  if (!isObject(e)) return "elicitation.form";
  if (e.form !== undefined || e.url === undefined) return undefined;
  return "elicitation.form";
}

/**
 * Checks what a handler asks with the rules of `@x/builders`' request
 * builders (the same rules a handler building an `InputRequiredResult` by
 * hand meets); the client's answers, which are untrusted, go through the
 * generated validators instead.
 * @throws TypeError (or RangeError) prefixed with the ask's name.
 */
function checked(name: string, build: () => unknown): void {
  try {
    build();
  } catch (error) {
    if (error instanceof RangeError) throw new RangeError(`${name}: ${error.message}`);
    throw new TypeError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Builders of asks for one request's client capabilities; `validator` compiles elicitation schemas (default: the default one). */
export function askBuilders(caps: ClientCapabilities, validator?: JsonSchemaValidator) {
  /**
   * A form elicitation (spec: client/elicitation). `requestedSchema` must be
   * a flat object schema of primitive properties: a JSON Schema, read in the
   * dialect its `$schema` declares (as a tool's schemas are), whose answers
   * are checked by the server's validator; or a Standard Schema, sent as
   * its own conversion (`~standard.jsonSchema.input`, 2020-12), which must
   * pass the same flatness rules, and whose own validation checks an
   * accepted answer and gives the `content` the handler receives.
   * @throws TypeError when the message or schema is not acceptable (an
   *   unknown `$schema` included; for a Standard Schema, no conversion or a
   *   conversion that fails), when the ask is checked.
   */
  function elicit<S extends ElicitationSchema>(
    message: string,
    requestedSchema: S,
    options?: AskOptions,
  ): Ask<StandardElicitResult<StandardSchemaV1.InferOutput<S>>>;
  /**
   * A form elicitation with a JSON Schema `requestedSchema` (see the first signature); the answer is the
   * client's `ElicitResult`, its `content` typed from a literal schema (see {@link JsonElicitAnswer}).
   */
  function elicit<const S extends RequestedSchemaLiteral>(
    message: string,
    requestedSchema: S,
    options?: AskOptions,
  ): Ask<Exclude<JsonElicitAnswer<S>, NotSupported>>;
  function elicit(message: string, requestedSchema: RequestedSchemaLiteral | ElicitationSchema, options: AskOptions = {}): Ask<unknown> {
    if (isStandardSchema(requestedSchema)) return standardElicit(message, requestedSchema, options);
    const params = { message, requestedSchema } as ElicitRequestFormParams;
    let matches: CompiledSchema | undefined;
    return {
      kind: "elicit",
      request: { method: Method.ElicitationCreate, params } as InputRequest,
      options,
      needs: "elicitation.form",
      missing: formMissing(caps),
      check: () => {
        checked("elicit", () => V!.elicitRequest(message, requestedSchema as ElicitRequestFormParams["requestedSchema"]));
        matches ??= answerSchema(requestedSchema, schemaValidator(validator, "elicit: requestedSchema"));
      },
      accept: (answer) => {
        // JSON.parse's numbers, as the answer's type declares them (an integer beyond 2^53 the nearest double).
        const result = asParsed(answer) as ElicitResult;
        if (!V!.ElicitResult(result)) return undefined;
        if (result.action === "accept" && matches!(result.content ?? {}).length > 0) return undefined;
        return result;
      },
    };
  }

  function standardElicit(message: string, schema: StandardSchemaV1, options: AskOptions): Ask<unknown> {
    const known = standardAsk(schema);
    const requestedSchema = (known instanceof TypeError ? {} : known.schema) as ElicitRequestFormParams["requestedSchema"];
    return {
      kind: "elicit",
      request: { method: Method.ElicitationCreate, params: { message, requestedSchema } } as InputRequest,
      options,
      needs: "elicitation.form",
      missing: formMissing(caps),
      check: () => {
        if (known instanceof TypeError) throw known;
        // The conversion must meet the spec's rules for a requestedSchema, as a hand-written one does.
        checked("elicit", () => V!.elicitRequest(message, requestedSchema as ElicitRequestFormParams["requestedSchema"]));
      },
      accept: (answer) => {
        const result = asParsed(answer) as ElicitResult;
        if (known instanceof TypeError || !V!.ElicitResult(result)) return undefined;
        if (result.action !== "accept") return result;
        const outcome = known.check(result.content ?? {});
        return outcome instanceof Promise ? outcome.then((o) => acceptedAs(result, o)) : acceptedAs(result, outcome);
      },
    };
  }

  return {
    /** A form elicitation, not asked yet (see `ctx.elicit` for the rules of `requestedSchema`). */
    elicit,
    /** A URL-mode elicitation: sends the user to `url` (spec: client/elicitation, URL mode). */
    elicitUrl(message: string, url: string, options: AskOptions = {}): Ask<ElicitResult> {
      const e: unknown = caps.elicitation;
      return {
        kind: "elicit",
        request: { method: Method.ElicitationCreate, params: { mode: "url", message, url } } as InputRequest,
        options,
        needs: "elicitation.url",
        missing: isObject(e) && e.url !== undefined ? undefined : "elicitation.url",
        check: () => checked("elicitUrl", () => V!.elicitUrlRequest(message, url)),
        accept: (answer) => checkedAnswer(answer, V!.ElicitResult),
      };
    },
    /** A sampling request. @deprecated Sampling is deprecated by the 2026-07-28 spec. */
    createMessage(params: CreateMessageRequestParams, options: AskOptions = {}): Ask<CreateMessageResult> {
      return {
        kind: "sample",
        request: { method: Method.SamplingCreateMessage, params } as InputRequest,
        options,
        needs: "sampling",
        missing: isObject(caps.sampling) ? undefined : "sampling",
        check: () => checked("createMessage", () => V!.createMessageRequest(params)),
        accept: (answer) => checkedAnswer(answer, V!.CreateMessageResult),
      };
    },
    /** A roots request. @deprecated Roots are deprecated by the 2026-07-28 spec. */
    listRoots(options: AskOptions = {}): Ask<ListRootsResult> {
      return {
        kind: "roots",
        request: { method: Method.RootsList, params: {} } as InputRequest,
        options,
        needs: "roots",
        missing: isObject(caps.roots) ? undefined : "roots",
        check: () => {},
        accept: (answer) => checkedAnswer(answer, V!.ListRootsResult),
      };
    },
  };
}
