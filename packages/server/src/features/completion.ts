/**
 * The completion feature (spec 2026-07-28, server/utilities/completion):
 * `completion/complete` for prompt arguments and resource template
 * variables, advertised as `completions` while some prompt or template
 * declares a completer.
 */
import type { CompleteResult, ServerCapabilities } from "@x/mcp-v2607";
import { ErrorCode, Method } from "@x/mcp-v2607/constants";
import { McpError } from "../errors.js";
import { isObject } from "../objects.js";
import type { Feature, MethodTable } from "./feature.js";
import type { PromptsFeature } from "./prompts.js";
import type { ResourcesFeature } from "./resources.js";

/**
 * Suggests values for one argument of a prompt or one variable of a resource
 * template. `value` is what the user typed so far; `context.arguments` holds
 * the other arguments already filled in. Return at most 100 values (more are
 * cut, and `hasMore` is set).
 */
export type Completer = (
  value: string,
  context: { arguments: Readonly<Record<string, string>> },
) => readonly string[] | Promise<readonly string[]>;

/** Largest number of values one completion result may carry (the schema's `maxItems`). */
export const MAX_COMPLETION_VALUES = 100;

/** Runs a completer and shapes its answer as the `completion` of a `CompleteResult`. */
export async function complete(
  completer: Completer | undefined,
  value: string,
  args: Readonly<Record<string, string>>,
): Promise<CompleteResult["completion"]> {
  if (!completer) return { values: [], total: 0, hasMore: false };
  const all = (await completer(value, { arguments: args })).filter((v): v is string => typeof v === "string");
  return { values: all.slice(0, MAX_COMPLETION_VALUES), total: all.length, hasMore: all.length > MAX_COMPLETION_VALUES };
}

/** Completion over the prompts and templates of one server. */
export class CompletionFeature implements Feature {
  readonly #prompts: PromptsFeature;
  readonly #resources: ResourcesFeature;

  constructor(prompts: PromptsFeature, resources: ResourcesFeature) {
    this.#prompts = prompts;
    this.#resources = resources;
  }

  readonly #enabled = () => this.#prompts.hasCompleters() || this.#resources.hasCompleters();

  readonly methods: MethodTable = {
    [Method.CompletionComplete]: {
      enabled: this.#enabled,
      // Completing a scoped prompt's arguments or template's variables needs the scopes of using it.
      requiredScopes: (params) => {
        const ref = params.ref;
        if (!isObject(ref)) return undefined;
        if (ref.type === "ref/prompt" && typeof ref.name === "string") return this.#prompts.get(ref.name)?.config.requiredScopes;
        if (ref.type === "ref/resource" && typeof ref.uri === "string") return this.#resources.templateOf(ref.uri)?.config.requiredScopes;
        return undefined;
      },
      handle: async (params) => {
        const ref: unknown = params.ref;
        const argument: unknown = params.argument;
        if (!isObject(ref) || !isObject(argument) || typeof argument.name !== "string" || typeof argument.value !== "string") {
          throw new McpError(ErrorCode.InvalidParams, "Invalid params: ref and argument {name, value} are required");
        }
        const given: unknown = params.context;
        const context = isObject(given) && isObject(given.arguments) ? (given.arguments as Record<string, string>) : {};
        for (const [key, value] of Object.entries(context)) {
          if (typeof value !== "string") {
            throw new McpError(ErrorCode.InvalidParams, `Invalid params: context.arguments.${key} must be a string`, { argument: key });
          }
        }
        let completers: Record<string, Completer> | undefined;
        if (ref.type === "ref/prompt") {
          const prompt = typeof ref.name === "string" ? this.#prompts.get(ref.name) : undefined;
          if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${String(ref.name)}`, { name: ref.name });
          if (!prompt.arguments.some((a) => a.name === argument.name)) {
            throw new McpError(ErrorCode.InvalidParams, `Prompt ${prompt.name} has no argument ${argument.name}`, {
              argument: argument.name,
            });
          }
          completers = prompt.config.complete;
        } else if (ref.type === "ref/resource") {
          const template = this.#resources.templateOf(ref.uri);
          if (!template) throw new McpError(ErrorCode.InvalidParams, `Unknown resource template: ${String(ref.uri)}`, { uri: ref.uri });
          completers = template.config.complete;
        } else {
          throw new McpError(ErrorCode.InvalidParams, `Invalid params: unknown ref type ${String(ref.type)}`);
        }
        const completion = await complete(completers?.[argument.name], argument.value, context);
        return { resultType: "complete", completion };
      },
    },
  };

  capabilities(caps: ServerCapabilities): void {
    if (this.#enabled()) caps.completions = {};
  }
}
