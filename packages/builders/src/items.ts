/**
 * The checks of the definitions the list builders list (spec 2026-07-28,
 * schema: `Resource`, `ResourceTemplate`, `Prompt` with its
 * `PromptArgument`s, `Tool` with its `ToolAnnotations`), so that a list
 * built from definitions its caller wrote is valid or the builder throws.
 * String formats are the validators' (see the README); members the schema
 * does not name are kept as they are.
 */
import {
  checkAnnotations,
  checkIcons,
  fail,
  optionalBoolean,
  optionalInteger,
  optionalMeta,
  optionalString,
  requireString,
} from "./members.js";
import { isPlainObject } from "./util.js";

/** The members every listed definition may carry: `title`, `description`, `icons`, `_meta`. */
function checkCommon(item: Record<string, unknown>, where: string): void {
  optionalString(item, "title", where);
  optionalString(item, "description", where);
  checkIcons(item.icons, `${where}.icons`);
  optionalMeta(item, where);
}

/** A `Resource`: `name`, `uri`, and optional `mimeType`, `size` (an integer), `annotations`. */
export function checkResource(item: Record<string, unknown>, where: string): void {
  requireString(item, "name", where);
  requireString(item, "uri", where);
  optionalString(item, "mimeType", where);
  optionalInteger(item, "size", where);
  checkAnnotations(item.annotations, `${where}.annotations`);
  checkCommon(item, where);
}

/** A `ResourceTemplate`: `name`, `uriTemplate`, and optional `mimeType`, `annotations`. */
export function checkTemplate(item: Record<string, unknown>, where: string): void {
  requireString(item, "name", where);
  requireString(item, "uriTemplate", where);
  optionalString(item, "mimeType", where);
  checkAnnotations(item.annotations, `${where}.annotations`);
  checkCommon(item, where);
}

/** A `Prompt`: `name`, and `arguments`, each a `name` with optional `title`, `description` and `required` (a boolean). */
export function checkPrompt(item: Record<string, unknown>, where: string): void {
  requireString(item, "name", where);
  checkCommon(item, where);
  const args = item.arguments;
  if (args === undefined) return;
  if (!Array.isArray(args)) fail(`${where}.arguments`, "must be an array when given", args);
  args.forEach((arg: unknown, i) => {
    const at = `${where}.arguments[${i}]`;
    if (!isPlainObject(arg)) fail(at, "must be an object with a string name", arg);
    requireString(arg, "name", at);
    optionalString(arg, "title", at);
    optionalString(arg, "description", at);
    optionalBoolean(arg, "required", at);
  });
}

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

/**
 * A `Tool`: `name`, an `inputSchema` object whose `type` is `"object"`, an
 * optional `outputSchema` object, `annotations` (a `title` string, hints
 * that are booleans); each schema's `$schema` a string when given.
 */
export function checkTool(item: Record<string, unknown>, where: string): void {
  requireString(item, "name", where);
  checkCommon(item, where);
  const input = item.inputSchema;
  if (!isPlainObject(input) || input.type !== "object")
    fail(`${where}.inputSchema`, 'must be an object schema ({ type: "object", ... })', input);
  optionalString(input, "$schema", `${where}.inputSchema`);
  if (item.outputSchema !== undefined) {
    if (!isPlainObject(item.outputSchema)) fail(`${where}.outputSchema`, "must be a schema object when given", item.outputSchema);
    optionalString(item.outputSchema, "$schema", `${where}.outputSchema`);
  }
  const annotations = item.annotations;
  if (annotations === undefined) return;
  if (!isPlainObject(annotations)) fail(`${where}.annotations`, "must be a plain object when given", annotations);
  optionalString(annotations, "title", `${where}.annotations`);
  for (const hint of HINTS) optionalBoolean(annotations, hint, `${where}.annotations`);
}
