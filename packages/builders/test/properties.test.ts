/**
 * Property tests: over generated inputs, every builder's output passes the
 * `@x/mcp-v2607` validator of its result type, and wrong input throws a
 * TypeError or RangeError whose message names the argument.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CallToolResultEntry,
  type ContentShorthand,
  callToolResult,
  capabilities,
  completeResult,
  contentBlock,
  createMessageRequest,
  discoverResult,
  elicitRequest,
  elicitUrlRequest,
  getPromptResult,
  inputRequiredResult,
  listPromptsResult,
  listResourcesResult,
  listResourceTemplatesResult,
  listRootsRequest,
  listToolsResult,
  type PromptEntry,
  readResourceResult,
  resourceContents,
  serverInfo,
} from "../src/index.js";
import { expectValid } from "./helpers.js";

const runs = { numRuns: 200 };

// ---- generators of valid input ------------------------------------------------

const text = fc.string({ unit: "grapheme", maxLength: 24 });
const nonEmpty = fc.string({ unit: "grapheme", minLength: 1, maxLength: 16 });
const b64 = fc.base64String({ maxLength: 32 });
const mime = fc.constantFrom("text/plain", "text/markdown", "image/png", "audio/wav", "application/json");
const segment = fc.stringMatching(/^[a-z0-9_-]{1,10}$/);
const fileUri = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `file:///${parts.join("/")}`);
const uri = fc.oneof(fileUri, fc.webUrl({ withQueryParameters: true, withFragments: true }));
const varName = fc.stringMatching(/^[a-z][a-z0-9_]{0,9}$/);
const uriTemplate = fc
  .tuple(fc.constantFrom("file:///", "https://example.com/", "db://rows/"), fc.array(varName, { minLength: 1, maxLength: 3 }))
  .map(([base, vars]) => `${base}${vars.map((v) => `{${v}}`).join("/")}`);
const scalar = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
const meta = fc.dictionary(
  segment.map((k) => `com.example/${k}`),
  scalar,
  { maxKeys: 3 },
);
const cursor = fc.option(fc.string({ maxLength: 12 }), { nil: null });
const hints = fc.record(
  { ttlMs: fc.nat({ max: 86_400_000 }), cacheScope: fc.constantFrom("private" as const, "public" as const) },
  { requiredKeys: [] },
);

const shorthand: fc.Arbitrary<ContentShorthand> = fc.oneof(
  text.map((t) => ["text", t] as const),
  fc.tuple(mime, b64).map(([m, d]) => ["image", [m, d]] as const),
  fc.tuple(mime, b64).map(([m, d]) => ["audio", [m, d]] as const),
  fc.tuple(uri, text).map(([u, t]) => ["resource", { uri: u, text: t }] as const),
  fc.tuple(uri, b64, mime).map(([u, b, m]) => ["resource", { uri: u, blob: b, mimeType: m }] as const),
  fc
    .tuple(nonEmpty, uri, fc.option(text, { nil: undefined }))
    .map(([name, u, description]) => ["link", description === undefined ? { name, uri: u } : { name, uri: u, description }] as const),
);
const resource = fc.record({ name: nonEmpty, uri, mimeType: mime, description: text }, { requiredKeys: ["name", "uri"] });
const prompt = fc.record(
  { name: nonEmpty, description: text, arguments: fc.array(fc.record({ name: nonEmpty, required: fc.boolean() }), { maxLength: 3 }) },
  { requiredKeys: ["name"] },
);
const template = fc.record({ name: nonEmpty, uriTemplate, mimeType: mime }, { requiredKeys: ["name", "uriTemplate"] });
const contents = fc.oneof(
  fc.record({ uri, text, mimeType: mime, _meta: meta }, { requiredKeys: ["uri", "text"] }),
  fc.record({ uri, blob: b64, mimeType: mime, _meta: meta }, { requiredKeys: ["uri", "blob"] }),
);
const promptEntry: fc.Arbitrary<PromptEntry> = fc.oneof(
  shorthand,
  text.map((t) => ["assistant", t] as const),
  fc.tuple(fc.constantFrom("user" as const, "assistant" as const), shorthand).map(([role, s]) => ({ role, content: contentBlock(s) })),
);
const primitiveProperty = fc.oneof(
  fc.record({ type: fc.constant("string" as const), title: text }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constantFrom("number" as const, "integer" as const), minimum: fc.integer() }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("boolean" as const), default: fc.boolean() }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("string" as const), enum: fc.array(segment, { minLength: 1, maxLength: 4 }) }),
);
const requestedSchema = fc
  .dictionary(segment, primitiveProperty, { minKeys: 0, maxKeys: 4 })
  .chain((properties) => fc.subarray(Object.keys(properties)).map((required) => ({ type: "object" as const, properties, required })));
const samplingParams = fc.record({
  messages: fc.array(
    fc.record({
      role: fc.constantFrom("user" as const, "assistant" as const),
      content: text.map((t) => ({ type: "text" as const, text: t })),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  maxTokens: fc.integer({ min: 1, max: 100_000 }),
});
const inputRequest = fc.oneof(
  fc.tuple(text, requestedSchema).map(([m, s]) => elicitRequest(m, s)),
  fc.tuple(text, fc.webUrl()).map(([m, u]) => elicitUrlRequest(m, u)),
  samplingParams.map((p) => createMessageRequest(p)),
  fc.constant(null).map(() => listRootsRequest()),
);
const dataMap = fc.dictionary(
  fc.string({ maxLength: 8 }).filter((k) => k !== "type" && k !== "__proto__"),
  scalar,
  { maxKeys: 4 },
);

// ---- wrong input ---------------------------------------------------------------

/** Runs `build` and asserts it throws a TypeError or RangeError whose message matches `name`. */
function expectThrowsNaming(build: () => unknown, name: RegExp): void {
  let caught: unknown;
  try {
    build();
  } catch (error) {
    caught = error;
  }
  expect(caught instanceof TypeError || caught instanceof RangeError, `expected a TypeError or RangeError, got ${String(caught)}`).toBe(
    true,
  );
  expect((caught as Error).message).toMatch(name);
}

const notAString = fc.oneof(fc.integer(), fc.boolean(), fc.constant({}), fc.constant([]));
const badTtl = fc.oneof(
  fc.integer({ max: -1 }),
  fc.double({ noInteger: true }),
  fc.constant(Number.POSITIVE_INFINITY),
  fc.string(),
  fc.constant(true),
);
const badScope = fc.string().filter((s) => s !== "private" && s !== "public");

// ---- properties ------------------------------------------------------------------

describe("property: generated valid input gives schema-valid output", () => {
  it("list builders (tools, resources, prompts, templates) with any cursor and hints", () => {
    fc.assert(
      fc.property(
        fc.array(resource, { maxLength: 4 }),
        fc.array(prompt, { maxLength: 4 }),
        fc.array(template, { maxLength: 4 }),
        fc.array(nonEmpty, { maxLength: 4 }),
        cursor,
        hints,
        (resources, prompts, templates, toolNames, next, opts) => {
          const r = listResourcesResult(resources, next, opts);
          expectValid("ListResourcesResult", r);
          expect("nextCursor" in r).toBe(next !== null);
          const p = listPromptsResult(prompts, next, opts);
          expectValid("ListPromptsResult", p);
          expect(p.nextCursor).toBe(next ?? undefined);
          expectValid("ListResourceTemplatesResult", listResourceTemplatesResult(templates, opts));
          const tools = toolNames.map((name) => ({ name, inputSchema: { type: "object" as const } }));
          expectValid("ListToolsResult", listToolsResult(tools, { ...opts, nextCursor: next }));
          for (const result of [r, p]) {
            expect(result.ttlMs).toBe(opts.ttlMs ?? 0);
            expect(result.cacheScope).toBe(opts.cacheScope ?? "private");
          }
        },
      ),
      runs,
    );
  });

  it("resourceContents and readResourceResult (flat and contents forms)", () => {
    fc.assert(
      fc.property(
        uri,
        fc.oneof(
          text.map((t) => ({ text: t })),
          b64.map((b) => ({ blob: b })),
        ),
        fc.option(mime, { nil: undefined }),
        meta,
        hints,
        (u, body, m, resultMeta, opts) => {
          const entry = resourceContents({ uri: u, ...body, mimeType: m });
          expectValid("text" in body ? "TextResourceContents" : "BlobResourceContents", entry);
          const flat = readResourceResult({ uri: u, ...body, mimeType: m, _meta: resultMeta, ...opts });
          expect(flat.contents).toHaveLength(1);
          expect(flat.contents[0]).toEqual(entry);
          expectValid("ReadResourceResult", flat);
        },
      ),
      runs,
    );
    fc.assert(
      fc.property(fc.array(contents, { maxLength: 4 }), hints, (list, opts) => {
        const result = readResourceResult({ contents: list, ...opts });
        expect(result.contents).toEqual(list);
        expectValid("ReadResourceResult", result);
      }),
      runs,
    );
  });

  it("contentBlock and callToolResult", () => {
    fc.assert(
      fc.property(shorthand, (s) => expectValid("ContentBlock", contentBlock(s))),
      runs,
    );
    const entry: fc.Arbitrary<CallToolResultEntry> = fc.oneof(
      shorthand,
      fc.constantFrom(["error", true] as const, ["error", false] as const, ["error", null] as const),
      text.map((t) => ["error", t] as const),
    );
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 6 }),
        fc.option(fc.tuple(fc.constantFrom("data", "_data", "bare"), dataMap, fc.nat()), { nil: undefined }),
        (entries, structured) => {
          const all: CallToolResultEntry[] = [...entries];
          if (structured) {
            const [kind, map, at] = structured;
            all.splice(at % (all.length + 1), 0, kind === "bare" ? map : ([kind, map] as const));
          }
          const result = callToolResult(all);
          expect(result.resultType).toBe("complete");
          expectValid("CallToolResult", result);
        },
      ),
      runs,
    );
  });

  it("getPromptResult keeps one message per entry, in order", () => {
    fc.assert(
      fc.property(fc.array(promptEntry, { maxLength: 6 }), fc.option(text, { nil: undefined }), (entries, description) => {
        const result = getPromptResult(entries, { description });
        expect(result.messages).toHaveLength(entries.length);
        expect(result.description).toBe(description);
        expectValid("GetPromptResult", result);
      }),
      runs,
    );
  });

  it("completeResult with up to 100 values", () => {
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 100 }),
        fc.nat({ max: 1000 }),
        fc.option(fc.boolean(), { nil: undefined }),
        (values, extra, hasMore) => {
          const result = completeResult(values, { total: values.length + extra, hasMore });
          expect(result.completion.values).toEqual(values);
          expectValid("CompleteResult", result);
        },
      ),
      runs,
    );
  });

  it("input requests and inputRequiredResult", () => {
    fc.assert(
      fc.property(inputRequest, (request) => expectValid("InputRequest", request)),
      runs,
    );
    fc.assert(
      fc.property(
        fc.dictionary(segment, inputRequest, { maxKeys: 4 }),
        fc.option(fc.base64String({ minLength: 4, maxLength: 40 }), { nil: undefined }),
        (requests, requestState) => {
          fc.pre(Object.keys(requests).length > 0 || requestState !== undefined);
          const result = inputRequiredResult({ inputRequests: requests, requestState });
          expect(result.resultType).toBe("input_required");
          expect("ttlMs" in result || "cacheScope" in result).toBe(false);
          expectValid("InputRequiredResult", result);
        },
      ),
      runs,
    );
  });

  it("serverInfo, capabilities and discoverResult", () => {
    const flag = fc.oneof(fc.boolean(), fc.constant(null), fc.constant({}), fc.constant({ listChanged: true }));
    fc.assert(
      fc.property(
        nonEmpty,
        nonEmpty,
        fc.option(text, { nil: undefined }),
        fc.record({ tools: flag, resources: flag, prompts: flag, logging: flag, completions: flag }, { requiredKeys: [] }),
        (name, version, title, flags) => {
          expectValid("Implementation", serverInfo({ name, version, title }));
          expectValid("ServerCapabilities", capabilities(flags));
          expectValid("DiscoverResult", discoverResult({ name, version, title, capabilities: flags }));
        },
      ),
      runs,
    );
  });
});

describe("property: wrong input throws a TypeError or RangeError naming the argument", () => {
  it("cache hints of every list and read builder", () => {
    const builders = [
      (o: object) => listToolsResult([], o),
      (o: object) => listResourcesResult([], null, o),
      (o: object) => listPromptsResult([], null, o),
      (o: object) => listResourceTemplatesResult([], o),
      (o: object) => readResourceResult({ uri: "file:///a", text: "a", ...o }),
      (o: object) => readResourceResult({ contents: [], ...o }),
    ];
    fc.assert(
      fc.property(badTtl, badScope, fc.constantFrom(...builders), (ttlMs, cacheScope, build) => {
        expectThrowsNaming(() => build({ ttlMs }), /ttlMs/);
        expectThrowsNaming(() => build({ cacheScope }), /cacheScope/);
      }),
      runs,
    );
  });

  it("cursors, list items and resource contents", () => {
    fc.assert(
      fc.property(notAString, fc.oneof(notAString, fc.constant("")), (bad, badUri) => {
        expectThrowsNaming(() => listResourcesResult([], bad as never), /nextCursor/);
        expectThrowsNaming(() => listPromptsResult([], bad as never), /nextCursor/);
        expectThrowsNaming(() => listToolsResult([], { nextCursor: bad as never }), /nextCursor/);
        expectThrowsNaming(() => listResourcesResult([bad] as never), /resources\[0\]/);
        expectThrowsNaming(() => listPromptsResult([bad] as never), /prompts\[0\]/);
        expectThrowsNaming(() => listResourceTemplatesResult([bad] as never), /templates\[0\]/);
        expectThrowsNaming(() => resourceContents({ uri: badUri, text: "t" } as never), /uri/);
        expectThrowsNaming(() => readResourceResult({ uri: badUri, text: "t" } as never), /uri/);
        expectThrowsNaming(() => readResourceResult({ contents: [bad] } as never), /contents\[0\]/);
      }),
      runs,
    );
    fc.assert(
      fc.property(uri, text, b64, (u, t, b) => {
        expectThrowsNaming(() => resourceContents({ uri: u, text: t, blob: b } as never), /text or blob/);
        expectThrowsNaming(() => resourceContents({ uri: u } as never), /text or blob/);
        expectThrowsNaming(() => readResourceResult({ uri: u } as never), /text or blob/);
      }),
      runs,
    );
  });

  it("prompt entries, completion values and input requests", () => {
    fc.assert(
      fc.property(
        fc.array(promptEntry, { maxLength: 4 }),
        fc.oneof(fc.integer(), fc.constant(null), fc.string(), fc.tuple(fc.constantFrom("video", "system"), text)),
        (good, bad) => {
          expectThrowsNaming(() => getPromptResult([...good, bad] as never), new RegExp(`entries\\[${good.length}\\]`));
        },
      ),
      runs,
    );
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 3 }), { minLength: 101, maxLength: 150 }), (values) => {
        expectThrowsNaming(() => completeResult(values), /values/);
        expectThrowsNaming(() => completeResult(values.slice(0, 10), { total: 9 }), /total/);
      }),
      { numRuns: 50 },
    );
    fc.assert(
      fc.property(
        notAString,
        fc.string().filter((s) => !URL.canParse(s)),
        fc.oneof(fc.integer({ max: 0 }), fc.double({ noInteger: true }), fc.string()),
        (badMessage, badUrl, badMaxTokens) => {
          expectThrowsNaming(() => elicitRequest(badMessage as never, { type: "object", properties: {} }), /message/);
          expectThrowsNaming(() => elicitUrlRequest("m", badUrl), /url/);
          expectThrowsNaming(() => createMessageRequest({ messages: [], maxTokens: badMaxTokens as never }), /maxTokens/);
          expectThrowsNaming(() => inputRequiredResult({ requestState: badMessage as never }), /requestState/);
          expectThrowsNaming(() => inputRequiredResult({}), /inputRequests or requestState/);
        },
      ),
      runs,
    );
  });
});
