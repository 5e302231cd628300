/**
 * `prompts/get` results (spec 2026-07-28, server/prompts, "Getting a Prompt"
 * and "Data Types" → PromptMessage).
 */
import type { GetPromptResult, PromptMessage } from "@x/mcp-v2607";
import { checkContentBlock } from "./blocks.js";
import { blockOf, type ContentShorthand } from "./content.js";
import { plainData } from "./snapshot.js";
import { describeValue, isGiven, isPlainObject, optionsObject } from "./util.js";

/**
 * One entry of {@link getPromptResult}:
 * - `["text", s]` → a `"user"` message with `TextContent`;
 * - `["assistant", s]` → an `"assistant"` message with `TextContent` (text only;
 *   for other assistant content pass a ready message);
 * - `["image", [mime, b64]]`, `["audio", [mime, b64]]`, `["resource", {...}]`,
 *   `["link", {...}]` → a `"user"` message with that content block (see `contentBlock`);
 * - a ready `PromptMessage` (`{ role, content }`) → kept as given (a copy, see the README, "Plain data"), its content checked as a content block.
 */
export type PromptEntry = ContentShorthand | readonly ["assistant", string] | PromptMessage;

/** Options of {@link getPromptResult}. */
export interface GetPromptResultOptions {
  /** Optional description of the prompt; `null`/absent leaves the key out. */
  description?: string | null;
}

const SHORTHAND_TAGS = new Set(["text", "image", "audio", "resource", "link"]);

/**
 * Builds the `GetPromptResult` answered to `prompts/get`: `resultType:
 * "complete"`, one `PromptMessage` per entry in input order (so roles come out
 * in the order given), and `description` when the option is given.
 *
 * Resource links: in revision 2026-07-28 `PromptMessage.content` is a
 * `ContentBlock`, which includes `ResourceLink`, and server/prompts
 * ("Resource Links") says prompt messages MAY include them, so
 * `["link", {name, uri, ...}]` is accepted and becomes a user message
 * carrying a `ResourceLink`.
 *
 * @throws TypeError naming `entries` when it is not an array; naming
 *   `entries[i]` when an entry has an unknown tag (a `["description", ...]`
 *   entry is told to use the option), a malformed shorthand, or is a message
 *   whose `role` is not `"user"`/`"assistant"` or whose `content` is not a
 *   valid content block (its `type` one of `text`, `image`, `audio`,
 *   `resource`, `resource_link`, its members of their types); naming
 *   `description` when it is not a string; naming the member when the
 *   arguments are not plain JSON data (a function such as `toJSON`, a
 *   `Date`, a cycle: see the README, "Plain data"). RangeError when they are
 *   nested deeper than 1000 levels.
 *
 * @example
 * getPromptResult([["text", "hello"], ["assistant", "hi there"]], { description: "greeting" });
 * // { resultType: "complete", description: "greeting", messages: [
 * //   { role: "user", content: { type: "text", text: "hello" } },
 * //   { role: "assistant", content: { type: "text", text: "hi there" } } ] }
 */
export function getPromptResult(entries: readonly PromptEntry[], options?: GetPromptResultOptions): GetPromptResult {
  const opts = optionsObject(plainData(options, "options"));
  const list = plainData(entries, "entries");
  if (!Array.isArray(list)) throw new TypeError(`entries must be an array, got ${describeValue(list)}`);
  const messages = list.map((entry: unknown, index): PromptMessage => {
    if (Array.isArray(entry)) {
      const [tag, value] = entry as unknown as readonly [unknown, unknown];
      if (tag === "assistant") {
        if (entry.length !== 2 || typeof value !== "string") {
          throw new TypeError(`entries[${index}]: assistant takes a text string, got ${describeValue(value)}`);
        }
        return { role: "assistant", content: { type: "text", text: value } };
      }
      if (typeof tag === "string" && SHORTHAND_TAGS.has(tag)) {
        try {
          return { role: "user", content: blockOf(entry as unknown as ContentShorthand) };
        } catch (error) {
          throw new TypeError(`entries[${index}]: ${(error as Error).message}`);
        }
      }
      if (tag === "description") {
        throw new TypeError(`entries[${index}]: pass description as an option, getPromptResult(entries, { description })`);
      }
      throw new TypeError(`entries[${index}] has an unknown tag ${describeValue(tag)}`);
    }
    if (isPlainObject(entry) && "role" in entry) {
      if (entry.role !== "user" && entry.role !== "assistant") {
        throw new TypeError(`entries[${index}].role must be "user" or "assistant", got ${describeValue(entry.role)}`);
      }
      // A prompt message carries a content block: there is no data to take an unknown type for.
      checkContentBlock(entry.content, `entries[${index}].content`);
      return entry as PromptMessage;
    }
    throw new TypeError(`entries[${index}] must be a [tag, value] tuple or a { role, content } message, got ${describeValue(entry)}`);
  });
  const result: GetPromptResult = { resultType: "complete", messages };
  if (isGiven(opts.description)) {
    if (typeof opts.description !== "string") throw new TypeError(`description must be a string, got ${describeValue(opts.description)}`);
    result.description = opts.description;
  }
  return result;
}
