/**
 * Resource contents and `resources/read` results (spec 2026-07-28,
 * server/resources, "Reading Resources" and "Resource Contents";
 * server/utilities/caching for the cache hints).
 */
import type { BlobResourceContents, MetaObject, ReadResourceResult, ResultMetaObject, TextResourceContents } from "@x/mcp-v2607";
import { type CacheHintOptions, cacheHints } from "./cache.js";
import { optionalMeta, optionalString } from "./members.js";
import { plainData } from "./snapshot.js";
import { describeValue, isGiven, isPlainObject, optionsObject } from "./util.js";

/** Input of {@link resourceContents} with a text body. */
export interface TextResourceContentsOptions {
  /** URI of the resource (required; an absolute URI such as `file:///a.txt`). */
  uri: string;
  /** The text body. */
  text: string;
  blob?: undefined;
  /** Optional MIME type, e.g. `"text/plain"`. */
  mimeType?: string | null;
  /** Optional metadata attached to this content entry. */
  _meta?: MetaObject | null;
}

/** Input of {@link resourceContents} with a binary body. */
export interface BlobResourceContentsOptions {
  /** URI of the resource (required). */
  uri: string;
  /** The binary body, base64-encoded. */
  blob: string;
  text?: undefined;
  /** Optional MIME type, e.g. `"image/png"`. */
  mimeType?: string | null;
  /** Optional metadata attached to this content entry. */
  _meta?: MetaObject | null;
}

/** Input of {@link resourceContents}: a URI plus exactly one of `text` or `blob`. */
export type ResourceContentsOptions = TextResourceContentsOptions | BlobResourceContentsOptions;

/** One entry of `ReadResourceResult.contents`. */
export type ResourceContents = TextResourceContents | BlobResourceContents;

function requireUri(value: unknown): string {
  if (typeof value !== "string" || value === "") {
    throw new TypeError(`uri is required and must be a non-empty string, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * Builds one resource content entry (spec: server/resources, "Resource
 * Contents"): a `TextResourceContents` when `text` is given, a
 * `BlobResourceContents` (base64 `blob`) when `blob` is given.
 * `mimeType` and `_meta` are copied when given; `null` counts as absent.
 *
 * Rule: EXACTLY ONE of `text` and `blob`; both or neither throws, because an
 * entry carrying both bodies is ambiguous and silently dropping one of them
 * would hide a bug.
 *
 * String formats (URI syntax, base64 alphabet) are not checked here; the
 * `@x/mcp-v2607` validators do that.
 *
 * @throws TypeError naming `uri` when it is missing or not a non-empty string;
 *   TypeError naming `text`/`blob` when both or neither are given or the one
 *   given is not a string; TypeError naming `mimeType` or `_meta` when of the wrong type;
 *   TypeError naming the member when the options are not plain JSON data (a function such
 *   as `toJSON`, a `Date`, a cycle: see the README, "Plain data"); RangeError when they are
 *   nested deeper than 1000 levels.
 *
 * @example
 * resourceContents({ uri: "file:///a.txt", text: "hi", mimeType: "text/plain" });
 * // { uri: "file:///a.txt", mimeType: "text/plain", text: "hi" }
 * resourceContents({ uri: "file:///a.png", blob: "iVBORw0KGgo=" });
 * // { uri: "file:///a.png", blob: "iVBORw0KGgo=" }
 */
export function resourceContents(options: TextResourceContentsOptions): TextResourceContents;
export function resourceContents(options: BlobResourceContentsOptions): BlobResourceContents;
export function resourceContents(options: ResourceContentsOptions): ResourceContents;
export function resourceContents(options: ResourceContentsOptions): ResourceContents {
  return contentsOf(plainData(options, "options"));
}

/** {@link resourceContents} of options that are a snapshot already. */
function contentsOf(options: ResourceContentsOptions): ResourceContents {
  if (!isPlainObject(options)) throw new TypeError(`resourceContents options must be a plain object, got ${describeValue(options)}`);
  const uri = requireUri(options.uri);
  const hasText = isGiven(options.text);
  const hasBlob = isGiven(options.blob);
  if (hasText === hasBlob) {
    throw new TypeError(`exactly one of text or blob is required (${hasText ? "both" : "neither"} given) for ${describeValue(uri)}`);
  }
  const body = hasText ? options.text : options.blob;
  if (typeof body !== "string") {
    throw new TypeError(`${hasText ? "text" : "blob"} must be a string, got ${describeValue(body)}`);
  }
  const entry: Record<string, unknown> = { uri };
  if (isGiven(options.mimeType)) {
    if (typeof options.mimeType !== "string") throw new TypeError(`mimeType must be a string, got ${describeValue(options.mimeType)}`);
    entry.mimeType = options.mimeType;
  }
  entry[hasText ? "text" : "blob"] = body;
  if (isGiven(options._meta)) {
    if (!isPlainObject(options._meta)) throw new TypeError(`_meta must be a plain object, got ${describeValue(options._meta)}`);
    entry._meta = options._meta;
  }
  return entry as ResourceContents;
}

/**
 * Flat form of {@link readResourceResult}: one content entry from `uri` plus
 * `text` or `blob` (and an optional `mimeType`).
 */
export interface ReadResourceFlatOptions extends CacheHintOptions {
  /** URI of the single content entry (required in this form). */
  uri: string;
  /** The text body (give this or `blob`). */
  text?: string | null;
  /** The base64 body (give this or `text`). */
  blob?: string | null;
  /** Optional MIME type of the single entry. */
  mimeType?: string | null;
  /** Metadata of the result object itself (not of the content entry). */
  _meta?: ResultMetaObject | null;
  contents?: undefined;
}

/**
 * `contents` form of {@link readResourceResult}: a list of entries, each built
 * by {@link resourceContents} or written by hand. Any flat key (`uri`,
 * `text`, `blob`, `mimeType`) next to `contents` is ignored.
 */
export interface ReadResourceContentsOptions extends CacheHintOptions {
  /** The entries, kept as given; may be empty. */
  contents: readonly ResourceContents[];
  /** Metadata of the result object itself; per-entry `_meta` goes on each entry. */
  _meta?: ResultMetaObject | null;
  uri?: unknown;
  text?: unknown;
  blob?: unknown;
  mimeType?: unknown;
}

/** Input of {@link readResourceResult}: the flat form or the `contents` form. */
export type ReadResourceResultOptions = ReadResourceFlatOptions | ReadResourceContentsOptions;

/**
 * Builds the `ReadResourceResult` answered to `resources/read` (spec:
 * server/resources, "Reading Resources"; server/utilities/caching), with
 * `resultType: "complete"` and cache hints (default `cacheScope: "private"`,
 * `ttlMs: 0`; passing one fills the other with its default).
 *
 * Two forms:
 * - flat: `{ uri, text | blob, mimeType? }` builds exactly one entry with
 *   {@link resourceContents};
 * - `contents`: `{ contents: [...] }` uses the list as given (it may be
 *   empty) and ignores every flat key (`contents: null` counts as absent). Each entry must be a plain object with
 *   a string `uri` and a string `text` or `blob`.
 *
 * The options are read once, into a copy of plain JSON data, before any
 * check (see the README, "Plain data"): the result holds copies.
 *
 * `_meta` is the result's own metadata, separate from any entry's `_meta`
 * (set that through {@link resourceContents}).
 *
 * @throws TypeError naming `uri` when the flat form has no `uri`; TypeError naming `text or blob` when the flat form has neither
 *   (or both); TypeError naming `contents` / `contents[i]` when the list or
 *   an entry is malformed; TypeError naming `_meta` when it is not an object;
 *   TypeError naming the member when the options are not plain JSON data (a
 *   function such as `toJSON`, a `Date`, a cycle); RangeError naming `ttlMs`
 *   or `cacheScope` when a hint is invalid, or when the options are nested
 *   deeper than 1000 levels.
 *
 * @example
 * readResourceResult({ uri: "file:///readme.txt", text: "# Welcome" });
 * // { resultType: "complete", contents: [{ uri: "file:///readme.txt", text: "# Welcome" }], ttlMs: 0, cacheScope: "private" }
 * readResourceResult({
 *   contents: [
 *     resourceContents({ uri: "file:///a.txt", text: "first" }),
 *     resourceContents({ uri: "file:///b.png", blob: "aGk=", mimeType: "image/png" }),
 *   ],
 *   ttlMs: 60_000,
 * });
 */
export function readResourceResult(options: ReadResourceResultOptions): ReadResourceResult {
  const opts = optionsObject(plainData(options as ReadResourceResultOptions | undefined, "options"), "readResourceResult options");
  let contents: ResourceContents[];
  if (isGiven(opts.contents)) {
    const list: unknown = opts.contents;
    if (!Array.isArray(list)) throw new TypeError(`contents must be an array, got ${describeValue(list)}`);
    contents = list.map((entry, index) => {
      if (!isPlainObject(entry) || typeof entry.uri !== "string" || (typeof entry.text !== "string" && typeof entry.blob !== "string")) {
        throw new TypeError(
          `contents[${index}] must be an object with a string uri and a string text or blob, got ${describeValue(entry)}`,
        );
      }
      optionalString(entry, "mimeType", `contents[${index}]`);
      optionalMeta(entry, `contents[${index}]`);
      return entry as ResourceContents;
    });
  } else {
    const flat = opts as ReadResourceFlatOptions;
    requireUri(flat.uri);
    if (!isGiven(flat.text) && !isGiven(flat.blob)) {
      throw new TypeError(`text or blob is required in the flat form (uri ${describeValue(flat.uri)})`);
    }
    contents = [contentsOf({ uri: flat.uri, text: flat.text, blob: flat.blob, mimeType: flat.mimeType } as ResourceContentsOptions)];
  }
  const hints = cacheHints(opts);
  const result: ReadResourceResult = { resultType: "complete", contents, ttlMs: hints.ttlMs, cacheScope: hints.cacheScope };
  if (isGiven(opts._meta)) {
    if (!isPlainObject(opts._meta)) throw new TypeError(`_meta must be a plain object, got ${describeValue(opts._meta)}`);
    result._meta = opts._meta;
  }
  return result;
}
