import type {
  BlobResourceContents,
  CompleteResult,
  CreateMessageRequest,
  ElicitRequest,
  GetPromptResult,
  InputRequest,
  InputRequiredResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListRootsRequest,
  ReadResourceResult,
  TextResourceContents,
} from "@x/mcp-v2607";
import { describe, expectTypeOf, it } from "vitest";
import {
  completeResult,
  createMessageRequest,
  elicitRequest,
  elicitUrlRequest,
  getPromptResult,
  inputRequiredResult,
  type ListResultOptions,
  listPromptsResult,
  listResourcesResult,
  listResourceTemplatesResult,
  listRootsRequest,
  listToolsResult,
  readResourceResult,
  resourceContents,
} from "../src/index.js";

describe("builder result types are the generated schema types", () => {
  it("lists, reads, prompts, completion and MRTR", () => {
    expectTypeOf(listResourcesResult([], null)).toEqualTypeOf<ListResourcesResult>();
    expectTypeOf(listPromptsResult([], "c")).toEqualTypeOf<ListPromptsResult>();
    expectTypeOf(listResourceTemplatesResult([])).toEqualTypeOf<ListResourceTemplatesResult>();
    expectTypeOf(readResourceResult({ uri: "file:///a", text: "a" })).toEqualTypeOf<ReadResourceResult>();
    expectTypeOf(getPromptResult([["text", "hi"]])).toEqualTypeOf<GetPromptResult>();
    expectTypeOf(completeResult([])).toEqualTypeOf<CompleteResult>();
    expectTypeOf(inputRequiredResult({ requestState: "s" })).toEqualTypeOf<InputRequiredResult>();
  });

  it("resourceContents narrows on text or blob", () => {
    expectTypeOf(resourceContents({ uri: "file:///a", text: "a" })).toEqualTypeOf<TextResourceContents>();
    expectTypeOf(resourceContents({ uri: "file:///a", blob: "AA==" })).toEqualTypeOf<BlobResourceContents>();
  });

  it("input request helpers give InputRequest members", () => {
    expectTypeOf(elicitRequest("m", { type: "object", properties: {} })).toExtend<ElicitRequest>();
    expectTypeOf(elicitUrlRequest("m", "https://example.com")).toExtend<ElicitRequest>();
    expectTypeOf(createMessageRequest({ messages: [], maxTokens: 1 })).toEqualTypeOf<CreateMessageRequest>();
    expectTypeOf(listRootsRequest()).toEqualTypeOf<ListRootsRequest>();
    expectTypeOf(listRootsRequest()).toExtend<InputRequest>();
  });

  it("every list builder accepts the one shared options type", () => {
    const options: ListResultOptions = { ttlMs: 1, cacheScope: "public" };
    expectTypeOf(listToolsResult).parameter(1).toEqualTypeOf<ListResultOptions | undefined>();
    expectTypeOf(listResourcesResult).parameter(2).toEqualTypeOf<ListResultOptions | undefined>();
    expectTypeOf(listPromptsResult).parameter(2).toEqualTypeOf<ListResultOptions | undefined>();
    listResourceTemplatesResult([], options);
    // @ts-expect-error listResourceTemplatesResult takes no cursor
    listResourceTemplatesResult([], { nextCursor: "x" });
  });
});
