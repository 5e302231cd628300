/**
 * Prompts (spec: server/prompts): `prompts/list`, cached per its hints, and
 * `prompts/get`, which may answer `input_required`.
 */
import type { GetPromptResult, InputRequiredResult, ListPromptsResult, Prompt } from "@x/mcp-v2607";
import { Method } from "@x/mcp-v2607/constants";
import type { Channel } from "../channel.js";
import {
  type ClientOptions,
  DEFAULT_MAX_PAGES,
  type InputOptions,
  type ListAllOptions,
  type ListOptions,
  type RequestArguments,
} from "../options.js";
import { expectArray, isInputRequired, listAll } from "../results.js";
import type { CacheFeature } from "./cache.js";

/** The prompts feature of one client (see the module comment). */
export class PromptsFeature {
  constructor(
    private readonly options: ClientOptions,
    private readonly channel: () => Channel,
    private readonly cache: CacheFeature,
  ) {}

  /** One page of `prompts/list`. */
  list(options: ListOptions = {}): Promise<ListPromptsResult> {
    const params = options.cursor === undefined ? {} : { cursor: options.cursor };
    return this.cache.cached(Method.PromptsList, params, options, (r) => expectArray(r, "prompts"));
  }

  /** Every prompt, page after page. */
  listAll(options: ListAllOptions = {}): Promise<Prompt[]> {
    return listAll<Prompt>(
      "prompts",
      (cursor) => this.list({ ...options, cursor }),
      options.maxPages ?? this.options.maxPages ?? DEFAULT_MAX_PAGES,
    );
  }

  /** `prompts/get` with string arguments. */
  async get(name: string, args?: Record<string, string>, options: InputOptions = {}): Promise<GetPromptResult | InputRequiredResult> {
    if (typeof name !== "string") throw new TypeError("getPrompt: name must be a string");
    const params: RequestArguments<"prompts/get"> = { name };
    if (args !== undefined) params.arguments = args;
    const { result } = await this.channel()
      .revision()
      .resolve(Method.PromptsGet, params, options, (p) => this.channel().request(Method.PromptsGet, p, options), false);
    if (isInputRequired(result, Method.PromptsGet)) return result;
    return expectArray(result, "messages");
  }
}
