/**
 * The checks of a content block given ready-made (spec 2026-07-28, schema:
 * `ContentBlock` and its members `TextContent`, `ImageContent`,
 * `AudioContent`, `EmbeddedResource`, `ResourceLink`, with `Annotations` and
 * `Icon`; for sampling, `ToolUseContent` and `ToolResultContent`), so that a
 * builder that passes one on returns a valid result or throws. String
 * formats (URI syntax, base64) are left to the `@x/mcp-v2607` validators, as
 * everywhere in this package. Members the schema does not name are kept as
 * they are: it allows them.
 */
import { checkAnnotations, checkIcons, fail, optionalMeta, optionalString, requireString } from "./members.js";
import { isPlainObject } from "./util.js";

/** The `type` of each content block of `ContentBlock`. */
export const CONTENT_BLOCK_TYPES: ReadonlySet<string> = new Set(["text", "image", "audio", "resource", "resource_link"]);

/**
 * Every member some content block has. An object with a `type` that is no
 * content block type, and no member outside these, is taken for a
 * misspelt content block (`{ type: "txt", text: "hi" }`), not for data.
 */
const BLOCK_MEMBERS: ReadonlySet<string> = new Set([
  "type",
  "text",
  "data",
  "mimeType",
  "resource",
  "uri",
  "name",
  "title",
  "description",
  "size",
  "icons",
  "annotations",
  "_meta",
]);

/** True when every member of `value` is one a content block has (see {@link BLOCK_MEMBERS}). */
export function looksLikeContentBlock(value: Record<string, unknown>): boolean {
  return Object.keys(value).every((key) => BLOCK_MEMBERS.has(key));
}

/** The body of an embedded resource: a `uri` and exactly one of `text` or `blob` (the rule of `resourceContents`). */
function checkResourceBody(value: unknown, where: string): void {
  if (!isPlainObject(value)) fail(where, "must be an object with a uri and a text or blob", value);
  requireString(value, "uri", where);
  const hasText = value.text !== undefined;
  if (hasText === (value.blob !== undefined)) fail(where, "must have exactly one of text or blob", value);
  requireString(value, hasText ? "text" : "blob", where);
  optionalString(value, "mimeType", where);
  optionalMeta(value, where);
}

/**
 * Checks a content block given ready-made and returns it (the same object).
 * @throws TypeError naming `where` (or the member) when it is not a plain
 *   object, its `type` is none of {@link CONTENT_BLOCK_TYPES}, or a member
 *   the schema names has the wrong type.
 */
export function checkContentBlock(value: unknown, where: string): Record<string, unknown> {
  if (!isPlainObject(value)) fail(where, "must be a content block (a plain object with a type)", value);
  const type = value.type;
  if (typeof type !== "string" || !CONTENT_BLOCK_TYPES.has(type)) {
    fail(`${where}.type`, "must be one of text, image, audio, resource, resource_link", type);
  }
  checkAnnotations(value.annotations, `${where}.annotations`);
  optionalMeta(value, where);
  switch (type) {
    case "text":
      requireString(value, "text", where);
      break;
    case "image":
    case "audio":
      requireString(value, "data", where);
      requireString(value, "mimeType", where);
      break;
    case "resource":
      checkResourceBody(value.resource, `${where}.resource`);
      break;
    default:
      requireString(value, "name", where);
      requireString(value, "uri", where);
      for (const key of ["title", "description", "mimeType"]) optionalString(value, key, where);
      if (value.size !== undefined && !Number.isSafeInteger(value.size)) fail(`${where}.size`, "must be an integer when given", value.size);
      checkIcons(value.icons, `${where}.icons`);
  }
  return value;
}

/**
 * Checks what a sampling message carries (`SamplingMessage.content`): one
 * block or an array of them, each text, image, audio, `tool_use` (`id`,
 * `name`, an object `input`) or `tool_result` (`toolUseId`, `content` an
 * array of content blocks, `isError` a boolean).
 * @throws TypeError naming `where` (or the member) as {@link checkContentBlock} does.
 */
export function checkSamplingContent(value: unknown, where: string): void {
  if (Array.isArray(value)) {
    value.forEach((block, i) => {
      checkSamplingBlock(block, `${where}[${i}]`);
    });
    return;
  }
  checkSamplingBlock(value, where);
}

function checkSamplingBlock(value: unknown, where: string): void {
  if (!isPlainObject(value)) fail(where, "must be a content block (a plain object with a type)", value);
  if (value.type === "text" || value.type === "image" || value.type === "audio") {
    checkContentBlock(value, where);
    return;
  }
  optionalMeta(value, where);
  if (value.type === "tool_use") {
    requireString(value, "id", where);
    requireString(value, "name", where);
    if (!isPlainObject(value.input)) fail(`${where}.input`, "must be a plain object", value.input);
    return;
  }
  if (value.type === "tool_result") {
    requireString(value, "toolUseId", where);
    if (!Array.isArray(value.content)) fail(`${where}.content`, "must be an array of content blocks", value.content);
    value.content.forEach((block: unknown, i) => {
      checkContentBlock(block, `${where}.content[${i}]`);
    });
    if (value.isError !== undefined && typeof value.isError !== "boolean")
      fail(`${where}.isError`, "must be a boolean when given", value.isError);
    return;
  }
  fail(`${where}.type`, "must be one of text, image, audio, tool_use, tool_result", value.type);
}
