/**
 * The prompts feature (spec 2026-07-28, server/prompts): the registry of
 * prompts, the `prompts` capability, `prompts/list` and `prompts/get`.
 */
import type { ClientCapabilities, GetPromptResult, Icon, Prompt, PromptArgument, PromptMessage, ServerCapabilities } from "@x/mcp-v2607";
import { ErrorCode, Method } from "@x/mcp-v2607/constants";
import type { RequestContext } from "../context.js";
import { McpError } from "../errors.js";
import { isObject, type JsonObject } from "../objects.js";
import { formatProblems } from "../schema.js";
import { isStandardSchema, type StandardCheck, type StandardSchemaV1, standardCheck, standardJsonSchema } from "../standard-schema.js";
import { rejectUnknown } from "@x/jsonrpc";
import { listResult, page } from "../pagination.js";
import { checkedScopes } from "../authorization.js";
import type { Completer } from "./completion.js";
import {
  checkRequiredCapabilities,
  type Feature,
  type HandlerResult,
  isInputRequired,
  type MethodTable,
  type ServerHost,
} from "./feature.js";

/**
 * What a prompt handler may return: a `GetPromptResult` (`resultType` may be
 * left out, the server adds it), a list of messages, or a string (one user
 * text message).
 */
export type PromptHandlerResult = HandlerResult<GetPromptResult> | PromptMessage[] | string;

/** A prompt handler: receives the (checked) string arguments and the request context. */
export type PromptHandler<Args = Record<string, string>> = (
  args: Args,
  ctx: RequestContext,
) => PromptHandlerResult | Promise<PromptHandlerResult>;

/** What a prompt's arguments are on the wire (spec: server/prompts, `GetPromptRequestParams.arguments`): strings by name. */
export type PromptArgumentValues = { [name: string]: string | undefined };

/**
 * A Standard Schema (zod 4.2+, arktype, valibot wrapped with
 * `toStandardJsonSchema`) given as a prompt's `arguments`: an object
 * schema whose input is {@link PromptArgumentValues} (a property that is
 * not a string fails to compile), converting itself to JSON Schema.
 */
export type PromptArgumentsSchema = StandardSchemaV1<PromptArgumentValues, unknown>;

/**
 * The arguments a prompt handler receives. From a Standard Schema
 * `arguments`: its output type (what its validation gives back). From a
 * literal list: each `required: true` name a `string`, each other declared
 * name an optional `string`, and no other name, so that a misspelt name
 * does not compile. (With a list, an undeclared argument a client sends is
 * still passed through at run time, as a string; read it with a cast.)
 * Without either: `Record<string, string>`.
 */
export type PromptArguments<C> = C extends { arguments: infer S extends StandardSchemaV1 }
  ? StandardSchemaV1.InferOutput<S>
  : C extends { arguments: readonly (infer A)[] }
    ? { [P in A as P extends { name: infer N extends string; required: true } ? N : never]: string } & {
        [P in A as P extends { name: string; required: true } ? never : P extends { name: infer N extends string } ? N : never]?: string;
      }
    : Record<string, string>;

/** The definition of a prompt, as given to `McpServer.registerPrompt`. */
export interface PromptConfig {
  title?: string;
  description?: string;
  /**
   * Declared arguments: a list, a `required` one missing from a request
   * answered with -32602 naming it; or a Standard Schema of an object of
   * string properties ({@link PromptArgumentsSchema}), from whose JSON Schema
   * conversion the list is derived (each property's name, title and
   * description; `required` from the object's `required`), and whose own
   * validation checks a request's arguments (-32602 listing its problems) and
   * gives the handler its output.
   */
  arguments?: PromptArgument[] | PromptArgumentsSchema;
  icons?: Icon[];
  _meta?: JsonObject;
  /** Client capabilities a request must declare; otherwise -32021 (HTTP 400). */
  requiredClientCapabilities?: ClientCapabilities;
  /** Completers for the prompt's arguments, by argument name (`completion/complete`). */
  complete?: Record<string, Completer>;
  /** OAuth scopes a `prompts/get` token must hold (HTTP `auth` only; else 403 `insufficient_scope` before the handler runs). Still listed. */
  requiredScopes?: readonly string[];
}

/** Every member of {@link PromptConfig}: a member added there must be added here to compile. */
const PROMPT_CONFIG: Record<keyof PromptConfig, true> = {
  title: true,
  description: true,
  arguments: true,
  icons: true,
  _meta: true,
  requiredClientCapabilities: true,
  complete: true,
  requiredScopes: true,
};
const PROMPT_CONFIG_KEYS = Object.keys(PROMPT_CONFIG);

/** A prompt as held by the server. */
export interface RegisteredPrompt {
  readonly name: string;
  readonly definition: Prompt;
  /** The declared arguments: the config's list, or the one derived from its Standard Schema. */
  readonly arguments: readonly PromptArgument[];
  /** The Standard Schema's validation of a request's arguments, when `arguments` is one. */
  readonly parse?: StandardCheck;
  readonly handler: PromptHandler;
  readonly config: PromptConfig;
}

/**
 * The argument list a Standard Schema `arguments` declares, from its JSON
 * Schema conversion (input side).
 * @throws TypeError starting with `prompt <name>: arguments` when it has no
 *   conversion, is not an object schema with `properties`, or a property
 *   does not accept a string (the wire carries only strings, so every
 *   request would be refused).
 */
function argumentsOfSchema(name: string, schema: StandardSchemaV1): PromptArgument[] {
  const what = `prompt ${name}: arguments`;
  const json = standardJsonSchema(schema, "input", what);
  if (json.type !== "object" || !isObject(json.properties)) throw new TypeError(`${what} must be an object schema with properties`);
  const required = new Set(Array.isArray(json.required) ? json.required : []);
  return Object.entries(json.properties).map(([key, property]) => {
    const prop: JsonObject = isObject(property) ? property : {};
    const type = prop.type;
    if (!(type === "string" || (Array.isArray(type) && type.includes("string")))) {
      throw new TypeError(`${what}.${key} must accept a string: prompt arguments are strings on the wire`);
    }
    const arg: PromptArgument = { name: key };
    if (typeof prop.title === "string") arg.title = prop.title;
    if (typeof prop.description === "string") arg.description = prop.description;
    if (required.has(key)) arg.required = true;
    return arg;
  });
}

/**
 * @throws TypeError when the name is empty, the config has a member that is not an option (`argsSchema`, say),
 *   an argument has no name, a completer names no declared argument, or a Standard Schema `arguments` cannot
 *   be read as a list (see {@link argumentsOfSchema}).
 */
export function definePrompt(name: string, config: PromptConfig, handler: PromptHandler): RegisteredPrompt {
  if (typeof name !== "string" || name === "") throw new TypeError("prompt name must be a non-empty string");
  if (typeof handler !== "function") throw new TypeError(`prompt ${name}: handler must be a function`);
  // Refused, not ignored: a prompt declared with another SDK's `argsSchema` would list no arguments.
  rejectUnknown(`prompt ${name}: the config`, config, PROMPT_CONFIG_KEYS);
  const schema = isStandardSchema(config.arguments) ? config.arguments : undefined;
  const args = schema ? argumentsOfSchema(name, schema) : ((config.arguments as PromptArgument[] | undefined) ?? []);
  if (!schema && !Array.isArray(args)) throw new TypeError(`prompt ${name}: arguments must be a list or a Standard Schema`);
  for (const [i, arg] of args.entries()) {
    if (typeof arg?.name !== "string" || arg.name === "")
      throw new TypeError(`prompt ${name}: arguments[${i}].name must be a non-empty string`);
  }
  for (const key of Object.keys(config.complete ?? {})) {
    if (!args.some((a) => a.name === key)) throw new TypeError(`prompt ${name}: complete.${key} names no declared argument`);
  }
  const definition: Prompt = { name };
  if (config.title !== undefined) definition.title = config.title;
  if (config.description !== undefined) definition.description = config.description;
  if (args.length > 0) definition.arguments = args;
  if (config.icons !== undefined) definition.icons = config.icons;
  if (config._meta !== undefined) definition._meta = config._meta as Prompt["_meta"];
  const prompt: RegisteredPrompt = { name, definition, arguments: args, handler, config };
  return schema ? { ...prompt, parse: standardCheck(schema) } : prompt;
}

/**
 * Checks the `arguments` of a `prompts/get` request against the declaration.
 * @throws McpError(-32602) when `arguments` is not an object of strings or a required argument is missing.
 */
export function checkPromptArguments(prompt: RegisteredPrompt, raw: unknown): Record<string, string> {
  if (raw !== undefined && (typeof raw !== "object" || raw === null || Array.isArray(raw))) {
    throw new McpError(ErrorCode.InvalidParams, "Invalid params: arguments must be an object of strings");
  }
  const args = (raw ?? {}) as JsonObject;
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== "string")
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: argument ${key} must be a string`, { argument: key });
  }
  for (const declared of prompt.arguments) {
    if (declared.required && args[declared.name] === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Missing required argument: ${declared.name}`, { argument: declared.name });
    }
  }
  return args as Record<string, string>;
}

/**
 * The arguments the handler receives: as checked, or a Standard Schema's output.
 * @throws McpError(-32602) listing the schema's problems when its validation refuses them.
 */
async function parsedArguments(prompt: RegisteredPrompt, args: Record<string, string>): Promise<unknown> {
  if (!prompt.parse) return args;
  const outcome = await prompt.parse(args);
  if (outcome.ok) return outcome.value;
  throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for prompt ${prompt.name}:\n${formatProblems(outcome.problems)}`, {
    problems: outcome.problems,
  });
}

/** Shapes a handler's return as a `GetPromptResult`. */
export function toGetPromptResult(value: PromptHandlerResult, description: string | undefined): GetPromptResult {
  if (typeof value === "string")
    return withDescription({ resultType: "complete", messages: [{ role: "user", content: { type: "text", text: value } }] }, description);
  if (Array.isArray(value)) return withDescription({ resultType: "complete", messages: value }, description);
  if (isObject(value) && Array.isArray(value.messages)) return value as GetPromptResult;
  throw new Error("prompt handler returned a value that is not a GetPromptResult, a message list or a string");
}

function withDescription(result: GetPromptResult, description: string | undefined): GetPromptResult {
  if (description !== undefined) result.description = description;
  return result;
}

/** The prompts of one server. */
export class PromptsFeature implements Feature {
  readonly #host: ServerHost;
  readonly #prompts = new Map<string, RegisteredPrompt>();

  constructor(host: ServerHost) {
    this.#host = host;
  }

  readonly methods: MethodTable = {
    [Method.PromptsList]: {
      enabled: () => this.#prompts.size > 0,
      handle: (params) => {
        const all = [...this.#prompts.values()].map((p) => p.definition);
        const slice = page(this.#host.keys, Method.PromptsList, all, params.cursor, this.#host.pageSize);
        return listResult("prompts", slice, this.#host.hints(Method.PromptsList));
      },
    },
    [Method.PromptsGet]: {
      enabled: () => this.#prompts.size > 0,
      asks: true,
      requiredScopes: (params) => (typeof params.name === "string" ? this.#prompts.get(params.name)?.config.requiredScopes : undefined),
      handle: async (params, ctx) => {
        const name: unknown = params.name;
        if (typeof name !== "string") throw new McpError(ErrorCode.InvalidParams, "Invalid params: name must be a string");
        const prompt = this.#prompts.get(name);
        if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`, { name });
        const args = await parsedArguments(prompt, checkPromptArguments(prompt, params.arguments));
        checkRequiredCapabilities(prompt.config.requiredClientCapabilities, ctx);
        const value = await prompt.handler(args as Record<string, string>, ctx);
        if (isInputRequired(value)) return value;
        return toGetPromptResult(value, prompt.config.description);
      },
    },
  };

  capabilities(caps: ServerCapabilities): void {
    if (this.#prompts.size > 0) caps.prompts = { listChanged: true };
  }

  /** The registered prompt of that name. */
  get(name: string): RegisteredPrompt | undefined {
    return this.#prompts.get(name);
  }

  /** True when some prompt declares a completer. */
  hasCompleters(): boolean {
    for (const p of this.#prompts.values()) if (p.config.complete && Object.keys(p.config.complete).length > 0) return true;
    return false;
  }

  /** @throws see `McpServer.registerPrompt`. */
  register(name: string, config: PromptConfig, handler: PromptHandler): void {
    if (this.#prompts.has(name)) throw new Error(`prompt ${name} is already registered`);
    checkedScopes(`prompt ${name}`, config.requiredScopes);
    this.#prompts.set(name, definePrompt(name, config, handler));
    this.#host.listChanged("prompts");
  }

  /** Removes a prompt; false when there was none. */
  remove(name: string): boolean {
    const removed = this.#prompts.delete(name);
    if (removed) this.#host.listChanged("prompts");
    return removed;
  }
}
