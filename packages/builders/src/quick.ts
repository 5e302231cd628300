/**
 * One-line content builders for tool handlers: each returns a `content`
 * array holding one block (spec 2026-07-28, server/tools "Tool Result").
 * They are pure: no side effects, the same input gives an equal output.
 */
import { stringifyJson } from "@x/jsonrpc";
import type { AudioContent, ImageContent, TextContent } from "@x/mcp-v2607";
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
 * `bigint` written as its digits (`stringifyJson` of `@x/jsonrpc`).
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
