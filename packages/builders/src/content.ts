/**
 * Content blocks and tool results (spec 2026-07-28, server/tools: "Tool
 * Result", and the `ContentBlock` family in the schema).
 */
import { stringifyJson } from "@x/jsonrpc";
import type { AudioContent, CallToolResult, ContentBlock, EmbeddedResource, ImageContent, ResourceLink, TextContent } from "@x/mcp-v2607";
import { CONTENT_BLOCK_TYPES, checkContentBlock, looksLikeContentBlock } from "./blocks.js";
import { plainData } from "./snapshot.js";
import { describeValue, isPlainObject } from "./util.js";

/** The body of an embedded resource shorthand: a URI plus exactly one of `text` or `blob` (base64). */
export type ResourceShorthand =
  | { uri: string; text: string; mimeType?: string; _meta?: Record<string, unknown> }
  | { uri: string; blob: string; mimeType?: string; _meta?: Record<string, unknown> };

/** A resource link shorthand: `name` and `uri` are required; any other `ResourceLink` key is carried over. */
export type LinkShorthand = { name: string; uri: string } & Partial<Omit<ResourceLink, "type">>;

/**
 * A compact description of one content block, as a tagged tuple:
 * - `["text", text]` → `TextContent`
 * - `["image", [mimeType, base64]]` → `ImageContent`
 * - `["audio", [mimeType, base64]]` → `AudioContent`
 * - `["resource", {uri, text} | {uri, blob}]` → `EmbeddedResource`
 * - `["link", {name, uri, ...}]` → `ResourceLink`
 */
export type ContentShorthand =
  | readonly ["text", string]
  | readonly ["image", readonly [mimeType: string, base64: string]]
  | readonly ["audio", readonly [mimeType: string, base64: string]]
  | readonly ["resource", ResourceShorthand]
  | readonly ["link", LinkShorthand];

/**
 * One entry of {@link callToolResult}:
 * - a string: appended to `content` as a text block;
 * - a {@link ContentShorthand} tuple, or a ready `ContentBlock` (an object whose `type` is `text`, `image`,
 *   `audio`, `resource` or `resource_link`, checked as that block): appended to `content`;
 * - an array of ready `ContentBlock`s (what `text()`, `image()`, `resourceLink()`... return), each
 *   checked and appended in order;
 * - `["data", object]`: sets `structuredContent` and appends its JSON text as a text block (a `bigint` as its digits);
 * - `["_data", object]`: sets `structuredContent` with no text mirror;
 * - any other plain object (a "bare map": no `type`, or a `type` that is no content block's, as a domain
 *   object's `{ type: "invoice", total: 3 }`): same as `["data", object]`; except an object with such a
 *   `type` and only members content blocks have (`{ type: "txt", text: "hi" }`), a misspelt block, which throws;
 * - `["error", true | false | null | string]`: `true` sets `isError` (sticky), a string
 *   appends it as text and sets `isError`, `false`/`null` change nothing.
 */
export type CallToolResultEntry =
  | string
  | ContentShorthand
  | ContentBlock
  | readonly ContentBlock[]
  | readonly ["data", Record<string, unknown>]
  | readonly ["_data", Record<string, unknown>]
  | readonly ["error", boolean | null | string]
  | Record<string, unknown>;

function mediaPair(kind: string, value: unknown): [string, string] {
  if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== "string" || typeof value[1] !== "string") {
    throw new TypeError(`${kind} must be [mimeType, base64Data] (two strings), got ${describeValue(value)}`);
  }
  return [value[0], value[1]];
}

/**
 * Builds one content block from a shorthand tuple (see {@link ContentShorthand}).
 *
 * @returns a `TextContent`, `ImageContent`, `AudioContent`, `EmbeddedResource` or `ResourceLink`, built
 *   from a copy of the shorthand (see the README, "Plain data").
 * @throws TypeError naming the shorthand when its tag is unknown or its value has the wrong shape
 *   (for `resource`: both or neither of `text` and `blob`), or when it is not plain JSON data (a
 *   function such as `toJSON`, a `Date`, a cycle); RangeError when it is nested deeper than 1000 levels.
 *
 * @example
 * contentBlock(["text", "hello"]);                  // { type: "text", text: "hello" }
 * contentBlock(["image", ["image/png", "aGk="]]);   // { type: "image", mimeType: "image/png", data: "aGk=" }
 */
export function contentBlock(shorthand: ContentShorthand): ContentBlock {
  return blockOf(plainData(shorthand, "shorthand"));
}

/** {@link contentBlock} of a shorthand that is a snapshot already (see `snapshot.ts`). */
export function blockOf(shorthand: ContentShorthand): ContentBlock {
  if (!Array.isArray(shorthand) || shorthand.length !== 2) {
    throw new TypeError(`shorthand must be a [tag, value] tuple, got ${describeValue(shorthand)}`);
  }
  const [tag, value] = shorthand as readonly [unknown, unknown];
  switch (tag) {
    case "text": {
      if (typeof value !== "string") throw new TypeError(`text must be a string, got ${describeValue(value)}`);
      return { type: "text", text: value } satisfies TextContent;
    }
    case "image": {
      const [mimeType, data] = mediaPair("image", value);
      return { type: "image", mimeType, data } satisfies ImageContent;
    }
    case "audio": {
      const [mimeType, data] = mediaPair("audio", value);
      return { type: "audio", mimeType, data } satisfies AudioContent;
    }
    case "resource": {
      if (!isPlainObject(value) || typeof value.uri !== "string") {
        throw new TypeError(`resource must be an object with a string uri, got ${describeValue(value)}`);
      }
      const hasText = typeof value.text === "string";
      const hasBlob = typeof value.blob === "string";
      if (hasText === hasBlob) {
        throw new TypeError(`resource must have exactly one of text or blob (strings), got ${describeValue(value)}`);
      }
      // The other members (mimeType, _meta) are checked with the block.
      const block = { type: "resource", resource: value as EmbeddedResource["resource"] } satisfies EmbeddedResource;
      return checkContentBlock(block, "resource") as unknown as EmbeddedResource;
    }
    case "link": {
      if (!isPlainObject(value) || typeof value.name !== "string" || typeof value.uri !== "string") {
        throw new TypeError(`link must be an object with string name and uri, got ${describeValue(value)}`);
      }
      // Every ResourceLink member may be given (title, size, icons, ...): checked with the block.
      return checkContentBlock({ ...(value as LinkShorthand), type: "resource_link" }, "link") as unknown as ResourceLink;
    }
    default:
      throw new TypeError(`shorthand tag must be one of text, image, audio, resource, link, got ${describeValue(tag)}`);
  }
}

const CONTENT_TAGS = new Set(["text", "image", "audio", "resource", "link"]);

/**
 * Builds the `CallToolResult` a tool returns from `tools/call`, from a list of
 * entries read in order (see {@link CallToolResultEntry}), or from one string
 * (a result of one text block).
 *
 * The result always has `resultType: "complete"` and a `content` array;
 * `isError` is present only when an entry set it (`true`); `structuredContent`
 * only when a `data`/`_data`/bare-map entry gave it.
 *
 * The entries are read once, into a copy of plain JSON data, before any
 * check (see the README, "Plain data"): the result holds copies, and what
 * was checked is what `JSON.stringify` writes.
 *
 * @throws TypeError when an entry has an unknown tag or wrong shape (a content
 *   block with a member of the wrong type, a misspelt block's `type`), when
 *   the entries are not plain JSON data (a function such as `toJSON`, a
 *   number JSON cannot carry as `NaN` or `Infinity`, a `Date` or other class
 *   instance, a cycle), or when a second data entry tries to set
 *   `structuredContent` again; RangeError when they are nested deeper than
 *   1000 levels.
 *
 * @example
 * callToolResult([["text", "3 rows"], ["data", { rows: 3 }]]);
 * // { resultType: "complete", structuredContent: { rows: 3 },
 * //   content: [{ type: "text", text: "3 rows" }, { type: "text", text: "{\"rows\":3}" }] }
 * callToolResult([["error", "boom"]]);
 * // { resultType: "complete", content: [{ type: "text", text: "boom" }], isError: true }
 * callToolResult("hi");                             // { resultType: "complete", content: [{ type: "text", text: "hi" }] }
 * callToolResult(["Here:", image("iVBORw0KGgo=", "image/png")]);
 */
export function callToolResult(entries: string | readonly CallToolResultEntry[]): CallToolResult {
  const list = plainData(typeof entries === "string" ? [entries] : entries, "entries");
  if (!Array.isArray(list)) {
    throw new TypeError(`entries must be an array, got ${describeValue(list)}`);
  }
  const content: ContentBlock[] = [];
  let structuredContent: Record<string, unknown> | undefined;
  let isError = false;

  const setStructured = (value: unknown, mirror: boolean, tag: string) => {
    if (!isPlainObject(value)) {
      throw new TypeError(`${tag} must be a plain object, got ${describeValue(value)}`);
    }
    if (structuredContent !== undefined) {
      throw new TypeError(`${tag}: structuredContent is already set; only one data, _data or bare map entry is allowed`);
    }
    structuredContent = value;
    if (mirror) content.push({ type: "text", text: stringifyJson(value) });
  };

  list.forEach((entry, index) => {
    if (typeof entry === "string") content.push({ type: "text", text: entry });
    else if (Array.isArray(entry) && entry.length > 0 && entry.every(isPlainObject)) {
      // A list of blocks (a tuple's first member is its tag, a string).
      entry.forEach((block, i) => {
        content.push(checkContentBlock(block, `entries[${index}][${i}]`) as ContentBlock);
      });
    } else if (Array.isArray(entry)) {
      const [tag, value] = entry as unknown as readonly [unknown, unknown];
      if (typeof tag === "string" && CONTENT_TAGS.has(tag)) {
        content.push(blockOf(entry as unknown as ContentShorthand));
      } else if (tag === "data" || tag === "_data") {
        setStructured(value, tag === "data", tag);
      } else if (tag === "error") {
        if (value === true) isError = true;
        else if (typeof value === "string") {
          content.push({ type: "text", text: value });
          isError = true;
        } else if (value !== false && value !== null && value !== undefined) {
          throw new TypeError(`error must be true, false, null or a message string, got ${describeValue(value)}`);
        }
      } else {
        throw new TypeError(`entries[${index}] has an unknown tag ${describeValue(tag)}`);
      }
    } else if (isPlainObject(entry)) {
      const where = `entries[${index}]`;
      if (typeof entry.type === "string" && CONTENT_BLOCK_TYPES.has(entry.type)) {
        content.push(checkContentBlock(entry, where) as ContentBlock);
      } else if ("type" in entry && looksLikeContentBlock(entry)) {
        // Only content-block members: a block with a wrong type (a typo, the shorthand's "link"), not data.
        throw new TypeError(
          `${where} looks like a content block, but its type ${describeValue(entry.type)} is none of text, image, audio, resource, resource_link; to send it as data, pass ["data", value]`,
        );
      } else setStructured(entry, true, where);
    } else {
      throw new TypeError(
        `entries[${index}] must be a string, a tuple, a content block, a list of content blocks or a plain object, got ${describeValue(entry)}`,
      );
    }
  });

  const result: CallToolResult = { resultType: "complete", content };
  if (structuredContent !== undefined) result.structuredContent = structuredContent as CallToolResult["structuredContent"];
  if (isError) result.isError = true;
  return result;
}
