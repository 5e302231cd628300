/**
 * Property: whatever a builder is given, it returns a result the 2026-07-28
 * schema accepts (the generated validators of `@x/mcp-v2607`), or it throws
 * a TypeError or RangeError. The inputs mix valid values with hostile ones
 * at every position a builder takes from its caller: arbitrary values,
 * objects with a `type` (a content block's, a misspelt one, a domain
 * object's), nested values, big integers and numbers that are not finite.
 * String formats (URI syntax, base64) are the validators' and not the
 * builders' (see the README), so the check runs on a copy whose
 * format-bound strings are replaced by valid ones.
 *
 * Both the returned object and what is sent are checked: the object written
 * as JSON (`stringifyJson`, as the transports write it: `JSON.stringify`
 * with a `bigint`'s digits) and read back. Objects are also passed in
 * disguise: with a `toJSON`, with a getter or behind a Proxy that answers
 * differently from one read to the next.
 */
import { stringifyJson } from "@x/jsonrpc";
import { validate } from "@x/mcp-v2607";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  audio,
  callToolResult,
  capabilities,
  completeResult,
  contentBlock,
  createMessageRequest,
  discoverResult,
  elicitRequest,
  elicitUrlRequest,
  getPromptResult,
  image,
  inputRequiredResult,
  internalError,
  invalidParams,
  json,
  jsonRpcError,
  listPromptsResult,
  listResourcesResult,
  listResourceTemplatesResult,
  listToolsResult,
  readResourceResult,
  resourceContents,
  serverInfo,
  text,
} from "../src/index.js";

const runs = { numRuns: 300 };

/** Members whose strings carry a format the schema asserts: `uri`/`src`/`url` (uri), `data`/`blob` (byte), `uriTemplate`. */
const FORMATTED: Record<string, string> = {
  uri: "file:///x",
  src: "https://example.com/icon.png",
  url: "https://example.com/",
  data: "AAAA",
  blob: "AAAA",
  uriTemplate: "file:///{x}",
};

/** A copy of `value` with every string under a format-bound member replaced by a valid one (bounded by the value's size). */
function formatsSatisfied(value: unknown, seen = new Set<unknown>()): unknown {
  if (typeof value !== "object" || value === null || seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => formatsSatisfied(v, seen));
  const copy: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    copy[key] = typeof v === "string" && key in FORMATTED ? FORMATTED[key] : formatsSatisfied(v, seen);
  }
  return copy;
}

/**
 * Runs `build`: it throws a TypeError or RangeError, or what it returns is
 * valid as `definition` (formats aside), and so is what is sent: the result
 * written as JSON and read back.
 */
function validOrThrows(definition: Parameters<typeof validate>[0], build: () => unknown): void {
  let built: unknown;
  try {
    built = build();
  } catch (error) {
    expect(error instanceof TypeError || error instanceof RangeError, `threw ${String(error)}`).toBe(true);
    return;
  }
  const shown = stringifyJson(built) ?? String(built);
  const outcome = validate(definition, formatsSatisfied(built));
  expect(outcome.ok ? [] : outcome.problems, shown).toEqual([]);
  const wire = validate(definition, formatsSatisfied(JSON.parse(shown)));
  expect(wire.ok ? [] : wire.problems, `sent as ${shown}`).toEqual([]);
}

// ---- hostile values ---------------------------------------------------------------

const BLOCK_TYPES = ["text", "image", "audio", "resource", "resource_link"] as const;
const OTHER_TYPES = ["txt", "invoice", "link", "tool_use", "tool_result", "", "TEXT", "user"] as const;
const MEMBERS = ["text", "data", "mimeType", "resource", "uri", "name", "title", "description", "size", "icons", "annotations", "_meta"];

/** Numbers JSON has trouble with, and big integers. */
const awkward = fc.oneof(
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 2 ** 53 + 2),
  fc.bigInt(),
  fc.double(),
);
/** Anything: primitives, nested arrays and objects, big integers, objects without a prototype. */
const anything = fc.anything({ maxDepth: 3, maxKeys: 4, withBigInt: true, withNullPrototype: true });
/** An object with a `type`: a content block's, another, or not a string; members blocks have, with any values. */
const typed: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.oneof(fc.constantFrom<unknown>(...BLOCK_TYPES, ...OTHER_TYPES), anything),
    fc.dictionary(
      fc.oneof(fc.constantFrom(...MEMBERS), fc.constantFrom("total", "rows", "id")),
      fc.oneof(fc.string({ maxLength: 6 }), awkward, anything),
      {
        maxKeys: 4,
      },
    ),
  )
  .map(([type, rest]) => ({ ...rest, type }));
/** Any of the above. */
const plainHostile: fc.Arbitrary<unknown> = fc.oneof(anything, awkward, typed);

/**
 * `value` in disguise, when it is an object: a copy with a `toJSON` that
 * gives `other`, a copy whose first member is a getter giving its value on
 * the first read and `other` after, or a Proxy that does the same for every
 * member. Anything else is kept.
 */
function disguise(value: unknown, other: unknown, how: "toJSON" | "getter" | "proxy"): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (how === "proxy") {
    const reads = new Map<PropertyKey, number>();
    return new Proxy(value, {
      get(target, key, receiver) {
        const n = (reads.get(key) ?? 0) + 1;
        reads.set(key, n);
        return n > 1 && Object.hasOwn(target, key) ? other : Reflect.get(target, key, receiver);
      },
    });
  }
  if (Array.isArray(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  if (how === "toJSON") copy.toJSON = () => other;
  else {
    const [key] = Object.keys(copy);
    if (key === undefined) return copy;
    const first = copy[key];
    let reads = 0;
    Object.defineProperty(copy, key, { enumerable: true, get: () => (++reads === 1 ? first : other) });
  }
  return copy;
}
/** An arbitrary's objects, sometimes in disguise (see {@link disguise}). */
const disguised = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 2, arbitrary },
    {
      weight: 1,
      arbitrary: fc
        .tuple(arbitrary, plainHostile, fc.constantFrom("toJSON", "getter", "proxy") as fc.Arbitrary<"toJSON" | "getter" | "proxy">)
        .map(([value, other, how]) => disguise(value, other, how)),
    },
  );
/** Any of the above, plain or in disguise. */
const hostile: fc.Arbitrary<unknown> = disguised(plainHostile);
/** A value that is usually fine and sometimes hostile. */
const either = <T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 3, arbitrary: good }, { weight: 1, arbitrary: hostile });

// ---- valid values -----------------------------------------------------------------

const str = fc.string({ maxLength: 12 });
const uri = fc.constantFrom("file:///a.txt", "https://example.com/r");
const b64 = fc.base64String({ maxLength: 16 });
const mime = fc.constantFrom("text/plain", "image/png");
const annotations = fc.record(
  { audience: fc.array(fc.constantFrom("user", "assistant")), priority: fc.double({ min: 0, max: 1, noNaN: true }), lastModified: str },
  { requiredKeys: [] },
);
const block: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constant("text"), text: either(str), annotations: either(annotations) }, { requiredKeys: ["type", "text"] }),
  fc.record({ type: fc.constantFrom("image", "audio"), data: either(b64), mimeType: either(mime) }),
  fc.record({
    type: fc.constant("resource"),
    resource: either(fc.record({ uri, text: str, mimeType: either(mime) }, { requiredKeys: ["uri", "text"] })),
  }),
  fc.record(
    {
      type: fc.constant("resource_link"),
      name: either(str),
      uri,
      size: either(fc.nat()),
      title: either(str),
      icons: either(fc.array(fc.record({ src: uri }))),
    },
    { requiredKeys: ["type", "name", "uri"] },
  ),
);
const shorthand = fc.oneof(
  fc.tuple(fc.constant("text"), either(str)),
  fc.tuple(fc.constantFrom("image", "audio"), either(fc.tuple(mime, b64))),
  fc.tuple(
    fc.constant("resource"),
    either(fc.record({ uri, text: str, mimeType: either(mime), _meta: either(fc.constant({})) }, { requiredKeys: ["uri", "text"] })),
  ),
  fc.tuple(
    fc.constant("link"),
    either(fc.record({ name: str, uri, size: either(fc.nat()), annotations: either(annotations) }, { requiredKeys: ["name", "uri"] })),
  ),
  fc.tuple(fc.constantFrom("data", "_data"), either(fc.dictionary(str, either(str), { maxKeys: 3 }))),
  fc.tuple(fc.constant("error"), either(fc.oneof(fc.boolean(), str, fc.constant(null)))),
);
const dataMap = fc.dictionary(str, either(fc.oneof(str, fc.integer())), { maxKeys: 3 });

// ---- properties ---------------------------------------------------------------------

describe("property: any input gives a schema-valid result or a TypeError/RangeError", () => {
  it("callToolResult and contentBlock: content blocks, misspelt ones, domain objects with a type, data", () => {
    const entry = disguised(fc.oneof(shorthand, block, typed, dataMap, hostile));
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 4 }), (entries) => validOrThrows("CallToolResult", () => callToolResult(entries as never))),
      runs,
    );
    fc.assert(
      fc.property(disguised(fc.oneof(shorthand, hostile)), (s) => validOrThrows("ContentBlock", () => contentBlock(s as never))),
      runs,
    );
  });

  it("getPromptResult: shorthands and ready messages whose content is anything", () => {
    const entry = disguised(
      fc.oneof(
        shorthand,
        fc.tuple(fc.constant("assistant"), either(str)),
        fc.record({ role: either(fc.constantFrom("user", "assistant")), content: disguised(fc.oneof(block, typed, hostile)) }),
        hostile,
      ),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 4 }), either(str), (entries, description) =>
        validOrThrows("GetPromptResult", () => getPromptResult(entries as never, { description } as never)),
      ),
      runs,
    );
  });

  it("createMessageRequest: sampling messages whose content is anything, and its plain members", () => {
    const content = disguised(fc.oneof(block, typed, hostile, fc.array(disguised(fc.oneof(block, typed)), { maxLength: 3 })));
    const params = disguised(
      fc.record(
        {
          messages: either(fc.array(fc.record({ role: either(fc.constantFrom("user", "assistant")), content }), { maxLength: 3 })),
          maxTokens: either(fc.integer({ min: 1, max: 1000 })),
          systemPrompt: either(str),
          temperature: either(fc.double({ min: 0, max: 2, noNaN: true })),
          stopSequences: either(fc.array(str)),
          includeContext: either(fc.constantFrom("none", "thisServer", "allServers")),
          metadata: either(disguised(fc.constant({ a: 1 }))),
        },
        { requiredKeys: ["messages", "maxTokens"] },
      ),
    );
    fc.assert(
      fc.property(params, (p) => validOrThrows("CreateMessageRequest", () => createMessageRequest(p as never))),
      runs,
    );
  });

  it("text, json, image, audio", () => {
    fc.assert(
      fc.property(hostile, either(b64), either(mime), (value, data, type) => {
        validOrThrows("TextContent", () => text(value as never)[0]);
        validOrThrows("TextContent", () => json(value)[0]);
        validOrThrows("ImageContent", () => image(data as never, type as never)[0]);
        validOrThrows("AudioContent", () => audio(data as never, type as never)[0]);
      }),
      runs,
    );
  });

  it("resourceContents and readResourceResult, flat and contents forms", () => {
    const options = disguised(
      fc.record(
        { uri: either(uri), text: either(str), blob: either(b64), mimeType: either(mime), _meta: either(fc.constant({})) },
        { requiredKeys: [] },
      ),
    );
    const hints = fc.record({ ttlMs: either(fc.nat()), cacheScope: either(fc.constantFrom("private", "public")) }, { requiredKeys: [] });
    fc.assert(
      fc.property(options, hints, fc.array(fc.oneof(options, hostile), { maxLength: 3 }), (o, h, list) => {
        validOrThrows("ReadResourceResult", () => ({
          resultType: "complete",
          contents: [resourceContents(o as never)],
          ttlMs: 0,
          cacheScope: "private",
        }));
        validOrThrows("ReadResourceResult", () => readResourceResult({ ...(o as object), ...h } as never));
        validOrThrows("ReadResourceResult", () => readResourceResult({ contents: list, ...h } as never));
      }),
      runs,
    );
  });

  it("list builders: items with hostile members, cursors, hints", () => {
    const common = {
      title: either(str),
      description: either(str),
      icons: either(fc.array(fc.record({ src: uri }))),
      _meta: either(fc.constant({})),
    };
    const resource = fc.record(
      { name: either(str), uri, mimeType: either(mime), size: either(fc.nat()), annotations: either(annotations), ...common },
      { requiredKeys: ["name", "uri"] },
    );
    const template = fc.record(
      { name: either(str), uriTemplate: fc.constant("file:///{x}"), mimeType: either(mime), annotations: either(annotations), ...common },
      { requiredKeys: ["name", "uriTemplate"] },
    );
    const argument = fc.record(
      { name: either(str), title: either(str), description: either(str), required: either(fc.boolean()) },
      { requiredKeys: ["name"] },
    );
    const prompt = fc.record(
      { name: either(str), arguments: either(fc.array(either(argument), { maxLength: 2 })), ...common },
      { requiredKeys: ["name"] },
    );
    const tool = fc.record(
      { name: either(str), inputSchema: either(fc.constant({ type: "object" })), ...common },
      { requiredKeys: ["name", "inputSchema"] },
    );
    const cursor = either(fc.option(str, { nil: null }));
    const hints = fc.record({ ttlMs: either(fc.nat()), cacheScope: either(fc.constantFrom("private", "public")) }, { requiredKeys: [] });
    fc.assert(
      fc.property(
        fc.array(disguised(fc.oneof(resource, hostile)), { maxLength: 3 }),
        fc.array(disguised(fc.oneof(template, hostile)), { maxLength: 3 }),
        fc.array(disguised(fc.oneof(prompt, hostile)), { maxLength: 3 }),
        fc.array(disguised(fc.oneof(tool, hostile)), { maxLength: 3 }),
        cursor,
        hints,
        (resources, templates, prompts, tools, next, h) => {
          validOrThrows("ListResourcesResult", () => listResourcesResult(resources as never, next as never, h as never));
          validOrThrows("ListResourceTemplatesResult", () => listResourceTemplatesResult(templates as never, h as never));
          validOrThrows("ListPromptsResult", () => listPromptsResult(prompts as never, next as never, h as never));
          validOrThrows("ListToolsResult", () => listToolsResult(tools as never, { ...h, nextCursor: next } as never));
        },
      ),
      runs,
    );
  });

  it("completeResult, serverInfo, capabilities, discoverResult", () => {
    const flag = either(fc.oneof(fc.boolean(), fc.constant({}), fc.record({ listChanged: either(fc.boolean()) }, { requiredKeys: [] })));
    const flags = either(
      disguised(
        fc.record({ tools: disguised(flag), resources: flag, prompts: flag, logging: flag, completions: flag }, { requiredKeys: [] }),
      ),
    );
    fc.assert(
      fc.property(
        fc.array(either(str), { maxLength: 4 }),
        either(fc.nat()),
        either(fc.boolean()),
        either(str.filter((s) => s !== "")),
        either(str),
        flags,
        either(str),
        (values, extra, hasMore, name, title, caps, instructions) => {
          validOrThrows("CompleteResult", () =>
            completeResult(values as never, { total: typeof extra === "number" ? values.length + extra : extra, hasMore } as never),
          );
          validOrThrows("Implementation", () => serverInfo({ name, version: "1", title } as never));
          validOrThrows("ServerCapabilities", () => capabilities(caps as never));
          validOrThrows("DiscoverResult", () => discoverResult({ name, version: "1", title, capabilities: caps, instructions } as never));
        },
      ),
      runs,
    );
  });

  it("elicitation requests and inputRequiredResult, with requests written by hand", () => {
    const property = disguised(fc.oneof(fc.constant({ type: "string" }), fc.constant({ type: "boolean" }), hostile));
    const schema = either(
      disguised(
        fc.record({
          type: either(fc.constant("object")),
          properties: either(fc.dictionary(fc.constantFrom("a", "b"), property, { maxKeys: 2 })),
        }),
      ),
    );
    const request = fc.oneof(
      fc
        .tuple(either(str), schema)
        .map(([m, s]) => ({ method: "elicitation/create", params: { mode: "form", message: m, requestedSchema: s } })),
      fc
        .tuple(either(str), either(fc.constant("https://example.com/k")))
        .map(([m, u]) => ({ method: "elicitation/create", params: { mode: "url", message: m, url: u } })),
      fc.constant({ method: "roots/list" }),
      fc.record({ method: either(fc.constantFrom("elicitation/create", "sampling/createMessage", "roots/list")), params: hostile }),
      hostile,
    );
    fc.assert(
      fc.property(
        either(str),
        schema,
        fc.dictionary(fc.constantFrom("k1", "k2"), disguised(request), { maxKeys: 2 }),
        either(str),
        (message, s, requests, state) => {
          validOrThrows("ElicitRequest", () => elicitRequest(message as never, s as never));
          validOrThrows("ElicitRequest", () => elicitUrlRequest(message as never, "https://example.com/k"));
          validOrThrows("InputRequiredResult", () => inputRequiredResult({ inputRequests: requests, requestState: state } as never));
        },
      ),
      runs,
    );
  });

  it("JSON-RPC errors: any id, code, message and data", () => {
    fc.assert(
      fc.property(
        either(fc.oneof(str, fc.integer())),
        either(fc.integer({ min: -32768, max: -32000 })),
        either(str),
        hostile,
        (id, code, message, data) => {
          validOrThrows("JSONRPCErrorResponse", () => jsonRpcError(id as never, code as never, message as never, data));
          validOrThrows("JSONRPCErrorResponse", () => invalidParams(id as never, message as never, data));
          validOrThrows("JSONRPCErrorResponse", () => internalError(id as never, message as never, data));
        },
      ),
      runs,
    );
  });
});
