import { describe, expect, it } from "vitest";
import * as root from "../src/index.js";

// The root is curated: tuning constants are options with documented
// defaults, the header codec is @x/mcp-v2607/wire's, and the session
// framing is the revision's (the changeset lists each name and what replaces it).
const REMOVED = [
  "DEFAULT_MAX_INPUT_ROUNDS",
  "DEFAULT_MAX_PAGES",
  "DEFAULT_TIMEOUT_MS",
  "MAX_SERVER_REQUESTS",
  "DEFAULT_PROBE_TIMEOUT_MS",
  "MODERN_ERROR_CODES",
  "DEFAULT_MAX_RESUME_ATTEMPTS",
  "DEFAULT_RESUME_DELAY_MS",
  "MAX_RESUME_DELAY_MS",
  "DEFAULT_MAX_MESSAGE_BYTES",
  "DEFAULT_TASK_POLL_INTERVAL_MS",
  "DEFAULT_TASK_WAIT_MS",
  "MIN_TASK_POLL_INTERVAL_MS",
  "MAX_TASK_POLL_INTERVAL_MS",
  "TASK_CANCEL_TIMEOUT_MS",
  "TASK_POLL_ATTEMPTS",
  "TASK_POLL_RETRY_DELAY_MS",
  "pollDelay",
  "encodeHeaderValue",
  "paramHeaders",
  "standardHeaders",
  "toolHeaderParams",
  "answerServerRequest",
];

describe("the root of @x/client", () => {
  it("exports no tuning constant, header codec or poll helper", () => {
    expect(REMOVED.filter((name) => Object.hasOwn(root, name))).toEqual([]);
  });
});
