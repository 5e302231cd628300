/** The hand-written constants agree with the schema they describe. */
import { describe, expect, it } from "vitest";
import { describeConstants } from "../../../test-support/revision-constants.js";
import { ErrorCode, META_PROGRESS_TOKEN, Method, PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "../src/index.js";
import { pkg } from "./helpers.js";

describeConstants({ pkg, PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, Method, ErrorCode, META_PROGRESS_TOKEN });

describe("constants of 2024-11-05", () => {
  it("has the first revision's 24 methods: no elicitation and no tasks", () => {
    expect(PROTOCOL_VERSION).toBe("2024-11-05");
    expect(Object.values(Method)).toHaveLength(24);
    expect(Object.values(Method).filter((m) => m.startsWith("tasks/") || m.includes("elicitation"))).toEqual([]);
  });
});
