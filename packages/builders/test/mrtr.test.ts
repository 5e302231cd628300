import { describe, expect, it } from "vitest";
import { createMessageRequest, elicitRequest, elicitUrlRequest, inputRequiredResult, listRootsRequest } from "../src/index.js";
import { expectValid } from "./helpers.js";

const nameSchema = { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] };
const sampling = { messages: [{ role: "user" as const, content: { type: "text" as const, text: "Capital of France?" } }], maxTokens: 100 };

describe("input requests", () => {
  it("elicitRequest builds a form-mode ElicitRequest", () => {
    const request = elicitRequest("Your GitHub username?", nameSchema);
    expect(request).toEqual({
      method: "elicitation/create",
      params: { mode: "form", message: "Your GitHub username?", requestedSchema: nameSchema },
    });
    expectValid("ElicitRequest", request);
    expectValid("InputRequest", request);
  });

  it("elicitRequest refuses a schema that is not a flat object of primitives", () => {
    expect(() => elicitRequest(1 as never, nameSchema)).toThrow(/message must be a string/);
    expect(() => elicitRequest("m", { type: "string" } as never)).toThrow(/requestedSchema must be/);
    expect(() => elicitRequest("m", { type: "object", properties: { a: { type: "object" } } } as never)).toThrow(
      /requestedSchema\.properties\.a/,
    );
    expect(() => elicitRequest("m", { type: "object", properties: {}, required: ["a"] })).toThrow(/requestedSchema\.required/);
  });

  it("elicitUrlRequest builds a URL-mode ElicitRequest (no elicitationId in 2026-07-28)", () => {
    const request = elicitUrlRequest("Please set your API key", "https://mcp.example.com/ui/set_api_key");
    expect(request).toEqual({
      method: "elicitation/create",
      params: { mode: "url", message: "Please set your API key", url: "https://mcp.example.com/ui/set_api_key" },
    });
    expectValid("ElicitRequest", request);
    expect(() => elicitUrlRequest("m", "/relative/path")).toThrow(/url must be an absolute URL/);
    expect(() => elicitUrlRequest("m", 5 as never)).toThrow(/url/);
  });

  it("createMessageRequest builds a CreateMessageRequest and checks messages and maxTokens", () => {
    const request = createMessageRequest(sampling);
    expect(request).toEqual({ method: "sampling/createMessage", params: sampling });
    expectValid("CreateMessageRequest", request);
    expect(() => createMessageRequest({ ...sampling, maxTokens: 0 })).toThrow(RangeError);
    expect(() => createMessageRequest({ ...sampling, maxTokens: 1.5 })).toThrow(/maxTokens/);
    expect(() => createMessageRequest({ maxTokens: 5 } as never)).toThrow(/messages must be an array/);
    expect(() => createMessageRequest({ ...sampling, messages: [{ role: "system", content: {} }] } as never)).toThrow(/messages\[0\]/);
    expect(() => createMessageRequest(null as never)).toThrow(/params must be/);
  });

  it("listRootsRequest builds a ListRootsRequest without params", () => {
    expect(listRootsRequest()).toEqual({ method: "roots/list" });
    expectValid("ListRootsRequest", listRootsRequest());
  });
});

describe("inputRequiredResult", () => {
  it("carries inputRequests and requestState, resultType input_required, and no cache hints", () => {
    const result = inputRequiredResult({
      inputRequests: {
        github_login: elicitRequest("Your GitHub username?", nameSchema),
        capital: createMessageRequest(sampling),
        roots: listRootsRequest(),
      },
      requestState: "eyJzdGVwIjoxfQ",
    });
    expect(result.resultType).toBe("input_required");
    expect(Object.keys(result.inputRequests ?? {})).toEqual(["github_login", "capital", "roots"]);
    expect(result.requestState).toBe("eyJzdGVwIjoxfQ");
    expect("ttlMs" in result).toBe(false);
    expect("cacheScope" in result).toBe(false);
    expectValid("InputRequiredResult", result);
  });

  it("either key alone is enough", () => {
    const stateOnly = inputRequiredResult({ requestState: "s" });
    expect(stateOnly).toEqual({ resultType: "input_required", requestState: "s" });
    expectValid("InputRequiredResult", stateOnly);
    const requestsOnly = inputRequiredResult({ inputRequests: { r: listRootsRequest() } });
    expect(requestsOnly).toEqual({ resultType: "input_required", inputRequests: { r: { method: "roots/list" } } });
    expectValid("InputRequiredResult", requestsOnly);
  });

  it("needs at least one of inputRequests or requestState (an empty map counts as none)", () => {
    expect(() => inputRequiredResult({})).toThrow(TypeError);
    expect(() => inputRequiredResult({})).toThrow(/inputRequests or requestState is required/);
    expect(() => inputRequiredResult({ inputRequests: null, requestState: null })).toThrow(TypeError);
    expect(() => inputRequiredResult({ inputRequests: {} })).toThrow(/at least one/);
    expect(inputRequiredResult({ inputRequests: {}, requestState: "s" })).toEqual({ resultType: "input_required", requestState: "s" });
  });

  it("refuses cache hints and malformed input with a TypeError naming the argument", () => {
    expect(() => inputRequiredResult({ requestState: "s", ttlMs: 0 } as never)).toThrow(
      /ttlMs: an InputRequiredResult carries no cache hints/,
    );
    expect(() => inputRequiredResult({ requestState: "s", cacheScope: "private" } as never)).toThrow(/cacheScope/);
    expect(() => inputRequiredResult({ requestState: 5 } as never)).toThrow(/requestState must be a string/);
    expect(() => inputRequiredResult({ inputRequests: [] } as never)).toThrow(/inputRequests must be a plain object/);
    expect(() => inputRequiredResult({ inputRequests: { x: { method: "tools/call", params: {} } } } as never)).toThrow(
      /inputRequests\["x"\]/,
    );
    expect(() => inputRequiredResult({ inputRequests: { x: { method: "elicitation/create" } } } as never)).toThrow(/inputRequests\["x"\]/);
    expect(() => inputRequiredResult(undefined as never)).toThrow(TypeError);
  });
});
