// What a handler may ask (src/mrtr/asks.ts): the capability each ask needs, the question checked before it is
// sent, the answer checked before the handler sees it, and the methods that may ask at all.
import { describe, expect, it } from "vitest";
import { buildContext, runHandler } from "../../src/testing.js";
import { caps, ELICIT, nameSchema, serveMrtr } from "./fixture.js";
import { rpc } from "../helpers.js";

const srv = serveMrtr();

describe("asks over HTTP", () => {
  it("[A30] [A31] without the capability an ask answers not_supported and never reads the answers", async () => {
    for (const c of [{}, { elicitation: { url: {} } }]) {
      const r = await srv.call(
        "one_question",
        { inputResponses: { user_name: { action: "accept", content: { name: "ignored" } } } },
        caps(c),
      );
      expect(r.result.resultType).toBe("complete");
      expect(JSON.parse(r.result.content[0].text)).toEqual({ action: "not_supported", capability: "elicitation.form" });
    }
  });

  it("asks again for missing answers and for accepted content that fails requestedSchema; ignores extra keys", async () => {
    const missing = await srv.call("one_question", { inputResponses: { wrong_key: { action: "accept", content: {} } } });
    expect(missing.result.resultType).toBe("input_required");
    const invalid = await srv.call("one_question", { inputResponses: { user_name: { action: "accept", content: { name: 42 } } } });
    expect(invalid.result.resultType).toBe("input_required");
    const badShape = await srv.call("one_question", { inputResponses: { user_name: { action: "maybe" } } });
    expect(badShape.result.resultType).toBe("input_required");
    const extra = await srv.call("one_question", { inputResponses: { user_name: { action: "decline" }, other: { x: 1 } } });
    expect(extra.result.resultType).toBe("complete");
  });

  it("asks from prompts/get and resources/read too, never with cache hints", async () => {
    const prompt = (await rpc(srv.url, "prompts/get", { name: "asking_prompt" }, caps(ELICIT))).json.result;
    expect(prompt.resultType).toBe("input_required");
    const read = (await rpc(srv.url, "resources/read", { uri: "file:///secret" }, caps(ELICIT))).json.result;
    expect(read.resultType).toBe("input_required");
    expect("ttlMs" in read || "cacheScope" in read).toBe(false);
    const answered = (
      await rpc(
        srv.url,
        "resources/read",
        {
          uri: "file:///secret",
          inputResponses: { "elicit-1": { action: "accept", content: { password: "x" } } },
          requestState: read.requestState,
        },
        caps(ELICIT),
      )
    ).json.result;
    expect(answered).toMatchObject({ resultType: "complete", contents: [{ text: "the secret" }], ttlMs: 1000, cacheScope: "public" });
  });

  it("an empty elicitation capability means form mode; URL mode needs elicitation.url, sampling and roots their own", async () => {
    const formOnly = await srv.call("kinds", {}, caps({ elicitation: {} }));
    expect(Object.keys(formOnly.result.inputRequests)).toEqual(["elicit-1"]);
    const done = await srv.call(
      "kinds",
      { inputResponses: { "elicit-1": { action: "decline" } }, requestState: formOnly.result.requestState },
      caps({ elicitation: {} }),
    );
    expect(JSON.parse(done.result.content[0].text)).toEqual({
      form: { action: "decline" },
      url: { action: "not_supported", capability: "elicitation.url" },
      sample: { action: "not_supported", capability: "sampling" },
      roots: { action: "not_supported", capability: "roots" },
    });
    const urlOnly = await srv.call("kinds", {}, caps({ elicitation: { url: {} } }));
    expect(Object.keys(urlOnly.result.inputRequests)).toEqual(["elicit-2"]);
  });
});

describe("asks checked before they are sent (@x/server/testing)", () => {
  it("[A35] the schema must be a flat object of primitive properties", async () => {
    const ctx = buildContext({ capabilities: ELICIT });
    const nested = { type: "object", properties: { address: { type: "object", properties: {} } } };
    const outcome = runHandler((_a, c) => c.elicit("x", nested as never), {}, ctx);
    await expect(outcome).rejects.toThrow(TypeError);
    await expect(runHandler((_a, c) => c.elicit("x", nested as never), {}, ctx)).rejects.toThrow(
      /^elicit: requestedSchema\.properties\.address/,
    );
  });

  it("what a handler asks is checked by the builders' rules, before anything is sent", async () => {
    const ctx = buildContext({ capabilities: { elicitation: { form: {}, url: {} }, sampling: {} } });
    await expect(runHandler((_a, c) => c.elicitUrl("Sign in", "not a url"), {}, ctx)).rejects.toThrow(
      /^elicitUrl: url must be an absolute URL/,
    );
    const messages = [{ role: "user" as const, content: { type: "text" as const, text: "hi" } }];
    await expect(runHandler((_a, c) => c.createMessage({ messages, maxTokens: 0 }), {}, ctx)).rejects.toThrow(RangeError);
    await expect(
      runHandler((_a, c) => c.createMessage({ messages: [{ role: "system" }] as never, maxTokens: 5 }), {}, ctx),
    ).rejects.toThrow(/^createMessage: messages\[0\]/);
    // A well-formed ask goes out as an input request.
    const asked = await runHandler((_a, c) => c.createMessage({ messages, maxTokens: 5 }), {}, ctx);
    expect(asked.status).toBe("input_required");
  });

  it("asks are refused on methods that may not answer input_required", async () => {
    const ctx = buildContext({ capabilities: ELICIT, method: "tools/list" });
    await expect(runHandler((_a, c) => c.elicit("x", nameSchema), {}, ctx)).rejects.toThrow(/only allowed in tools\/call/);
  });
});
