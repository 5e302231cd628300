/**
 * The resources feature (spec 2026-07-28, server/resources): the registry of
 * resources and resource templates, the `resources` capability,
 * `resources/list`, `resources/templates/list` and `resources/read`.
 * Templates are RFC 6570 URI templates, matched with the `uri-templates`
 * library; a match must expand back to the very same URI, so a simple
 * `{id}` never swallows a `/`.
 */
import { type CacheHintOptions, type CacheHints, cacheHints } from "@x/builders/cache";
import type {
  Annotations,
  BlobResourceContents,
  ClientCapabilities,
  Icon,
  InputRequiredResult,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  TextResourceContents,
} from "@x/mcp-v2607";
import { ErrorCode, Method } from "@x/mcp-v2607/constants";
import type uriTemplatesType from "uri-templates";
import { applyHints } from "../cache.js";
import type { RequestContext } from "../context.js";
import { McpError, ResourceNotFoundError } from "../errors.js";
import { isObject, type JsonObject } from "../objects.js";
import { listResult, page } from "../pagination.js";
import { rejectUnknown, requireLazily } from "@x/jsonrpc";
import { MissingDependencyError } from "../runtime-deps.js";
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

// RFC 6570 section 2 syntax, checked here because uri-templates accepts an
// unclosed brace or an empty variable name and then matches nonsense.
const VARCHAR = "(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})";
const VARSPEC = `${VARCHAR}(?:\\.?${VARCHAR})*(?::[1-9][0-9]{0,3}|\\*)?`;
const TEMPLATE_SYNTAX = new RegExp(`^(?:[^{}]|\\{[+#./;?&]?${VARSPEC}(?:,${VARSPEC})*\\})*$`);

// uri-templates (CommonJS) is loaded when the first template is registered:
// a server without templates never pays for it.
let uriTemplatesModule: typeof uriTemplatesType | undefined;
function uriTemplates(template: string): ReturnType<typeof uriTemplatesType> {
  uriTemplatesModule ??= requireLazily(
    () => require("uri-templates"),
    "uri-templates",
    "uri-templates",
    import.meta.url,
  ) as typeof uriTemplatesType;
  return uriTemplatesModule(template);
}

/** One content entry of a `resources/read` result. */
export type ResourceContents = TextResourceContents | BlobResourceContents;

/**
 * What a read handler may return: a `ReadResourceResult` (`resultType`,
 * `ttlMs` and `cacheScope` may be left out: the server fills them in, the
 * hints from the registration's `cache`), a list of contents, one contents entry, or a string (one text entry for the read URI,
 * with the registration's `mimeType`).
 */
export type ReadHandlerResult = HandlerResult<ReadResourceResult, "cacheScope" | "ttlMs"> | ResourceContents[] | ResourceContents | string;

/** Reads a static resource. */
export type ReadHandler = (uri: string, ctx: RequestContext) => ReadHandlerResult | Promise<ReadHandlerResult>;
/**
 * The variables of a URI that matched a template: a string each, or a list
 * of strings for an exploded variable (`{/path*}`, RFC 6570 level 4).
 */
export type TemplateVariables = Record<string, string | string[]>;

/** Reads a resource that matched a template; `variables` holds the template's variables. */
export type TemplateReadHandler = (
  uri: string,
  variables: TemplateVariables,
  ctx: RequestContext,
) => ReadHandlerResult | Promise<ReadHandlerResult>;

/** Metadata shared by resources and templates. */
export interface ResourceMetadata {
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
  /** Cache hints of this registration's `resources/read` results (checked now). */
  cache?: CacheHintOptions;
  /** Client capabilities a read must declare; otherwise -32021 (HTTP 400). */
  requiredClientCapabilities?: ClientCapabilities;
  /** OAuth scopes a `resources/read` token must hold (HTTP `auth` only; else 403 `insufficient_scope` before the handler runs). Still listed. */
  requiredScopes?: readonly string[];
}

/** The definition of a static resource. */
export interface ResourceConfig extends ResourceMetadata {
  /** Size in bytes, when known. */
  size?: number;
}

/** The definition of a resource template. */
export interface ResourceTemplateConfig extends ResourceMetadata {
  /** Concrete resources of this template to include in `resources/list`. */
  list?: () => Resource[] | Promise<Resource[]>;
  /** Completers for the template's variables (`completion/complete` with `ref/resource`). */
  complete?: Record<string, Completer>;
}

/** Every member of {@link ResourceMetadata}: a member added there must be added here to compile. */
const METADATA: Record<keyof ResourceMetadata, true> = {
  title: true,
  description: true,
  mimeType: true,
  annotations: true,
  icons: true,
  _meta: true,
  cache: true,
  requiredClientCapabilities: true,
  requiredScopes: true,
};
const RESOURCE_CONFIG: Record<keyof ResourceConfig, true> = { ...METADATA, size: true };
const RESOURCE_CONFIG_KEYS = Object.keys(RESOURCE_CONFIG);
const TEMPLATE_CONFIG: Record<keyof ResourceTemplateConfig, true> = { ...METADATA, list: true, complete: true };
const TEMPLATE_CONFIG_KEYS = Object.keys(TEMPLATE_CONFIG);

/** A static resource as held by the server. */
export interface RegisteredResource {
  readonly name: string;
  readonly uri: string;
  readonly definition: Resource;
  readonly read: ReadHandler;
  readonly cache: CacheHints | undefined;
  readonly config: ResourceConfig;
}

/** A resource template as held by the server. */
export interface RegisteredTemplate {
  readonly name: string;
  readonly uriTemplate: string;
  readonly definition: ResourceTemplate;
  readonly read: TemplateReadHandler;
  readonly cache: CacheHints | undefined;
  readonly config: ResourceTemplateConfig;
  /** The variables of `uri` when it matches the template, else `undefined`. */
  match(uri: string): TemplateVariables | undefined;
}

function metadata<T extends { name: string }>(target: T, config: ResourceMetadata): T {
  const out = target as unknown as JsonObject;
  for (const key of ["title", "description", "mimeType", "annotations", "icons", "_meta"] as const) {
    if (config[key] !== undefined) out[key] = config[key];
  }
  return target;
}

/**
 * @throws TypeError when the name or URI is empty, the config has a member that is not an option, or the handler is not a function;
 *   RangeError when `cache` holds an invalid hint.
 */
export function defineResource(name: string, uri: string, config: ResourceConfig, read: ReadHandler): RegisteredResource {
  if (typeof name !== "string" || name === "") throw new TypeError("resource name must be a non-empty string");
  if (typeof uri !== "string" || uri === "") throw new TypeError(`resource ${name}: uri must be a non-empty string`);
  if (typeof read !== "function") throw new TypeError(`resource ${name}: read handler must be a function`);
  // Refused, not ignored: a misspelt `mimeType` would publish the resource without one.
  rejectUnknown(`resource ${name}: the config`, config, RESOURCE_CONFIG_KEYS);
  const definition = metadata<Resource>({ uri, name }, config);
  if (config.size !== undefined) definition.size = config.size;
  return { name, uri, definition, read, cache: config.cache ? cacheHints(config.cache) : undefined, config };
}

/**
 * @throws TypeError when the template does not parse, the config has a member that is not an option, or a completer names no template variable;
 *   RangeError when `cache` holds an invalid hint.
 */
export function defineTemplate(
  name: string,
  uriTemplate: string,
  config: ResourceTemplateConfig,
  read: TemplateReadHandler,
): RegisteredTemplate {
  if (typeof name !== "string" || name === "") throw new TypeError("resource template name must be a non-empty string");
  if (typeof read !== "function") throw new TypeError(`resource template ${name}: read handler must be a function`);
  rejectUnknown(`resource template ${name}: the config`, config, TEMPLATE_CONFIG_KEYS);
  if (typeof uriTemplate !== "string" || !TEMPLATE_SYNTAX.test(uriTemplate)) {
    throw new TypeError(
      `resource template ${name}: ${String(uriTemplate)} is not an RFC 6570 template (an unclosed brace, an empty or invalid variable name, or an unknown operator)`,
    );
  }
  let template: ReturnType<typeof uriTemplates>;
  try {
    template = uriTemplates(uriTemplate);
  } catch (error) {
    if (error instanceof MissingDependencyError) throw error;
    throw new TypeError(`resource template ${name}: ${uriTemplate} is not an RFC 6570 template: ${(error as Error).message}`);
  }
  for (const key of Object.keys(config.complete ?? {})) {
    if (!template.varNames.includes(key)) throw new TypeError(`resource template ${name}: complete.${key} names no template variable`);
  }
  const definition = metadata<ResourceTemplate>({ uriTemplate, name }, config);
  return {
    name,
    uriTemplate,
    definition,
    read,
    cache: config.cache ? cacheHints(config.cache) : undefined,
    config,
    match(uri) {
      let vars: TemplateVariables | undefined;
      try {
        vars = template.fromUri(uri) as TemplateVariables | undefined; // exploded variables come back as arrays
      } catch {
        return undefined; // e.g. broken percent-encoding: not a match
      }
      if (!vars) return undefined;
      // The match must be exact: expanding the variables gives the same URI back.
      return template.fillFromObject(vars as Parameters<typeof template.fillFromObject>[0]) === uri ? vars : undefined;
    },
  };
}

/** Shapes a read handler's return as a `ReadResourceResult` (without cache hints). */
export function toReadResult(value: ReadHandlerResult, uri: string, mimeType: string | undefined): ReadResourceResult {
  if (typeof value === "string") {
    const entry: TextResourceContents = { uri, text: value };
    if (mimeType !== undefined) entry.mimeType = mimeType;
    return { resultType: "complete", contents: [entry] } as ReadResourceResult;
  }
  if (Array.isArray(value)) return { resultType: "complete", contents: value } as ReadResourceResult;
  if (isObject(value)) {
    if (Array.isArray((value as ReadResourceResult).contents)) return value as ReadResourceResult;
    if (typeof (value as ResourceContents).uri === "string")
      return { resultType: "complete", contents: [value as ResourceContents] } as ReadResourceResult;
  }
  throw new Error("read handler returned a value that is not a ReadResourceResult, contents or a string");
}

/**
 * A template's `list()` answer: user code, so each entry is checked.
 * @throws TypeError when it is not an array of objects with string `name` and `uri`.
 */
function checkListed(template: string, listed: unknown): Resource[] {
  if (!Array.isArray(listed)) throw new TypeError(`resource template ${template}: list() must return an array`);
  for (const [i, r] of listed.entries()) {
    if (!isObject(r) || typeof r.name !== "string" || typeof r.uri !== "string") {
      throw new TypeError(`resource template ${template}: list()[${i}] must be a Resource (string name and uri)`);
    }
  }
  return listed;
}

/** The resources and resource templates of one server. */
export class ResourcesFeature implements Feature {
  readonly #host: ServerHost;
  readonly #resources = new Map<string, RegisteredResource>();
  readonly #templates = new Map<string, RegisteredTemplate>();

  constructor(host: ServerHost) {
    this.#host = host;
  }

  readonly #enabled = () => this.#resources.size > 0 || this.#templates.size > 0;

  readonly methods: MethodTable = {
    [Method.ResourcesList]: {
      enabled: this.#enabled,
      handle: async (params) => {
        const all: Resource[] = [...this.#resources.values()].map((r) => r.definition);
        for (const template of this.#templates.values()) {
          if (template.config.list) all.push(...checkListed(template.name, await template.config.list()));
        }
        const slice = page(this.#host.keys, Method.ResourcesList, all, params.cursor, this.#host.pageSize);
        return listResult("resources", slice, this.#host.hints(Method.ResourcesList));
      },
    },
    [Method.ResourcesTemplatesList]: {
      enabled: this.#enabled,
      handle: (params) => {
        const all = [...this.#templates.values()].map((t) => t.definition);
        const slice = page(this.#host.keys, Method.ResourcesTemplatesList, all, params.cursor, this.#host.pageSize);
        return listResult("resourceTemplates", slice, this.#host.hints(Method.ResourcesTemplatesList));
      },
    },
    [Method.ResourcesRead]: {
      enabled: this.#enabled,
      asks: true,
      requiredScopes: (params) => (typeof params.uri === "string" ? this.requiredScopes(params.uri) : undefined),
      handle: (params, ctx) => this.#read(params.uri, ctx),
    },
  };

  async #read(uri: unknown, ctx: RequestContext): Promise<ReadResourceResult | InputRequiredResult> {
    if (typeof uri !== "string") throw new McpError(ErrorCode.InvalidParams, "Invalid params: uri must be a string");
    const resource = this.#resources.get(uri);
    if (resource) {
      checkRequiredCapabilities(resource.config.requiredClientCapabilities, ctx);
      const value = await resource.read(uri, ctx);
      if (isInputRequired(value)) return value;
      return this.#hinted(toReadResult(value, uri, resource.config.mimeType), resource.cache);
    }
    for (const template of this.#templates.values()) {
      const variables = template.match(uri);
      if (!variables) continue;
      checkRequiredCapabilities(template.config.requiredClientCapabilities, ctx);
      const value = await template.read(uri, variables, ctx);
      if (isInputRequired(value)) return value;
      return this.#hinted(toReadResult(value, uri, template.config.mimeType), template.cache);
    }
    throw new ResourceNotFoundError(uri);
  }

  /** A read result with its hints: its own, else the registration's, else the server's for `resources/read`. */
  #hinted(result: ReadResourceResult, own: CacheHints | undefined): ReadResourceResult {
    applyHints(result, own ?? this.#host.hints(Method.ResourcesRead));
    return result;
  }

  /** The `requiredScopes` of the registration `resources/read` of `uri` would reach (the resource, else the first matching template). */
  requiredScopes(uri: string): readonly string[] | undefined {
    const resource = this.#resources.get(uri);
    if (resource) return resource.config.requiredScopes;
    for (const template of this.#templates.values()) if (template.match(uri)) return template.config.requiredScopes;
    return undefined;
  }

  capabilities(caps: ServerCapabilities): void {
    if (this.#enabled()) caps.resources = { listChanged: true, subscribe: true };
  }

  /** The template whose URI template is `uriTemplate`. */
  templateOf(uriTemplate: unknown): RegisteredTemplate | undefined {
    for (const t of this.#templates.values()) if (t.uriTemplate === uriTemplate) return t;
    return undefined;
  }

  /** True when some template declares a completer. */
  hasCompleters(): boolean {
    for (const t of this.#templates.values()) if (t.config.complete && Object.keys(t.config.complete).length > 0) return true;
    return false;
  }

  /** @throws see `McpServer.registerResource`. */
  register(name: string, uri: string, config: ResourceConfig, read: ReadHandler): void {
    if (this.#resources.has(uri)) throw new Error(`resource ${uri} is already registered`);
    checkedScopes(`resource ${uri}`, config.requiredScopes);
    this.#resources.set(uri, defineResource(name, uri, config, read));
    this.#host.listChanged("resources");
  }

  /** Removes a static resource by URI; false when there was none. */
  remove(uri: string): boolean {
    const removed = this.#resources.delete(uri);
    if (removed) this.#host.listChanged("resources");
    return removed;
  }

  /** @throws see `McpServer.registerResourceTemplate`. */
  registerTemplate(name: string, uriTemplate: string, config: ResourceTemplateConfig, read: TemplateReadHandler): void {
    if (this.#templates.has(name)) throw new Error(`resource template ${name} is already registered`);
    checkedScopes(`resource template ${name}`, config.requiredScopes);
    this.#templates.set(name, defineTemplate(name, uriTemplate, config, read));
    this.#host.listChanged("resources");
  }

  /** Removes a resource template by name; false when there was none. */
  removeTemplate(name: string): boolean {
    const removed = this.#templates.delete(name);
    if (removed) this.#host.listChanged("resources");
    return removed;
  }
}
