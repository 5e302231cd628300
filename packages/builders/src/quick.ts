/**
 * One-line content builders for tool handlers: each returns a `content`
 * array holding one block (spec 2026-07-28, server/tools "Tool Result"), to
 * return as `{ content: text("hi") }` or to pass among the entries of
 * `callToolResult`. They are pure: no side effects, the same input gives an
 * equal output.
 */
import { stringifyJson } from "@x/jsonrpc";
import type { AudioContent, EmbeddedResource, ImageContent, ResourceLink, TextContent } from "@x/mcp-v2607";
import { contentBlock, type LinkShorthand, type ResourceShorthand } from "./content.js";
import { describeValue } from "./util.js";

/**
 * `[{ type: "text", text }]`.
 * @throws TypeError when `text` is not a string.
 * @example text("42"); // [{ type: "text", text: "42" }]
 */
export function text(text: string): [TextContent] {
  if (typeof text !== "string") throw new TypeError(`text must be a string, got ${describeValue(text)}`);
  return [{ type: "text", text }];
}

/**
 * `[{ type: "text", text: JSON.stringify(data) }]`: a value as JSON text, a
 * `bigint` written as its digits (`stringifyJson` of `@x/jsonrpc`). Text
 * only: for `structuredContent`, pass `["data", value]` to `callToolResult`.
 * @throws TypeError when `data` cannot be written as JSON (undefined, a function, a cycle).
 * @example json({ rows: 3 }); // [{ type: "text", text: "{\"rows\":3}" }]
 */
export function json(data: unknown): [TextContent] {
  let encoded: string | undefined;
  try {
    encoded = stringifyJson(data);
  } catch (error) {
    throw new TypeError(`data cannot be written as JSON: ${(error as Error).message}`);
  }
  if (encoded === undefined) throw new TypeError(`data cannot be written as JSON, got ${describeValue(data)}`);
  return [{ type: "text", text: encoded }];
}

/**
 * `[{ type: "image", data, mimeType }]` from base64 data and its MIME type.
 * @throws TypeError when either argument is not a string.
 * @example image("iVBORw0KGgo=", "image/png");
 */
export function image(base64Data: string, mimeType: string): [ImageContent] {
  if (typeof base64Data !== "string" || typeof mimeType !== "string")
    throw new TypeError("image takes (base64Data, mimeType), two strings");
  return [{ type: "image", data: base64Data, mimeType }];
}

/**
 * `[{ type: "audio", data, mimeType }]` from base64 data and its MIME type.
 * @throws TypeError when either argument is not a string.
 * @example audio("UklGRg==", "audio/wav");
 */
export function audio(base64Data: string, mimeType: string): [AudioContent] {
  if (typeof base64Data !== "string" || typeof mimeType !== "string")
    throw new TypeError("audio takes (base64Data, mimeType), two strings");
  return [{ type: "audio", data: base64Data, mimeType }];
}

/**
 * `[{ type: "resource_link", uri, name, ... }]`: a link to a resource the client may read
 * (`ResourceLink`; any other of its members, `title`, `mimeType`, `size`, ..., carried over).
 * @throws TypeError when `uri` or `name` is not a string, or another member has the wrong type.
 * @example resourceLink({ uri: "notes://todo", name: "todo", mimeType: "text/plain" });
 */
export function resourceLink(link: LinkShorthand): [ResourceLink] {
  return [contentBlock(["link", link]) as ResourceLink];
}

/**
 * `[{ type: "resource", resource }]`: a resource's contents carried in the result
 * (`EmbeddedResource`), from a `uri` and exactly one of `text` or `blob` (base64).
 * @throws TypeError when `uri` is not a string, or both or neither of `text` and `blob` are given.
 * @example embeddedResource({ uri: "notes://todo", text: "buy milk", mimeType: "text/plain" });
 */
export function embeddedResource(resource: ResourceShorthand): [EmbeddedResource] {
  return [contentBlock(["resource", resource]) as EmbeddedResource];
}
