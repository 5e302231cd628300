/**
 * The fuzzer's configuration: the violation kinds it counts, the ones known
 * to be open today (counted and printed, not failed on by the unit test),
 * and the bounds every loop keeps.
 */

/** The transports a run drives. */
export type Transport = "http" | "stdio";

/**
 * Every invariant the driver checks, named by how it is broken. A case may
 * break several; each broken one is counted once for that case.
 */
export const VIOLATION_KINDS = [
  // liveness
  "crash", // the server process exited during the run
  "hang", // no answer within the per-request timeout
  "http-5xx", // an HTTP status of 500 or more
  // answers and ids
  "unanswered", // a request answered with no JSON-RPC response (HTTP: an empty or non-message body)
  "answered-twice", // more than one response for one request
  "id-changed", // the response's id is not the request's id, as raw text
  "id-bigint-changed", // the same, for an integer id beyond 2^53 (precision lost)
  "answered-notification", // a response to a notification
  "answered-response", // a response to an unsolicited JSON-RPC response
  "malformed-response", // an answer that is not a JSON-RPC 2.0 response object
  // error codes by category of malformation
  "wrong-code-parse", // not -32700 for bytes that are not UTF-8 JSON
  "wrong-code-invalid-request", // not -32600 for JSON that is no valid request
  "wrong-code-invalid-params", // not -32602 for a missing or malformed _meta core member
  "wrong-code-method", // not -32601 for an unknown method
  "wrong-code-header", // not -32020 for headers that disagree with the body
  "wrong-code-other", // any other expected error answered otherwise
  "bad-meta-accepted", // a request whose _meta member has the wrong type answered with a result
  "error-for-valid", // a valid request answered with an error
  // HTTP
  "wrong-status", // an HTTP status other than the category's
  "non-json-answer", // an HTTP answer on the endpoint that is not application/json (or SSE when asked)
  "non-json-other-path", // the same, for a request to a path other than the endpoint
  "host-accepted", // a Host header that names another host (or two of them) served as if it were loopback
  "origin-accepted", // a foreign Origin served
  // numbers
  "number-bigint-changed", // an integer beyond 2^53 in the arguments not echoed digit for digit
  "number-nonfinite", // a number beyond the double range (1e400) not echoed as sent
  "number-precision-lost", // a decimal with more digits than a double holds not echoed even as its nearest double (decimals are doubles by contract)
  "number-changed", // a number a double holds exactly, not echoed with the same value
  "echo-changed", // anything else echoed differently (strings, keys, structure)
  "output-schema-broken", // structuredContent on the wire that breaks the tool's outputSchema
  "number-tool-fault", // add answered a tool fault for numeric arguments (a handler got a type its schema excludes)
  "number-sum-wrong", // add's sum of finite numbers is not the double sum of what JSON.parse reads
  // the initialize era (2025-11-25)
  "version-negotiation", // InitializeResult.protocolVersion is not the one asked for when served, nor the server's newest otherwise
  "session-id-missing", // an HTTP initialize answered without a valid Mcp-Session-Id
  "later-era-field", // an earlier-era result carrying a 2026-07-28-only member (resultType, ttlMs, ...)
  "session-accepted", // a request with a missing, unknown, ended or malformed session id served as if the session were open
  "mixed-era-accepted", // a 2026-07-28 request (the _meta envelope) served on an earlier-era session
  "reinitialize-accepted", // a second initialize on a session answered with a result
  "asked-before-initialized", // elicitation/create sent before notifications/initialized (the spec's SHOULD NOT)
  "asked-without-capability", // elicitation/create sent to a client that did not declare elicitation
  "ask-not-sent", // the ask tool on an initialized session with the capability answered without eliciting
  "ask-answer-lost", // the ask tool's result does not reflect the client's answer to elicitation/create
  // eras and lifecycle (issue 38: 6, 7, 8)
  "session-id-echoed", // a 2026-07-28 request answered with an Mcp-Session-Id header (it is served statelessly: never minted or echoed)
  "session-header-honoured", // a 2026-07-28 request with the Mcp-Session-Id of a live session served in that session's era
  "invalid-response-accepted", // HTTP: a body shaped as a response but malformed accepted with 202 (due: 400, an error without id)
  "early-request-refused", // stdio: a request written right after initialize answered with an error (the 2026-07-28 envelope's, "not answered yet"...)
  "answered-before-initialize", // stdio: a request written right after initialize answered before initialize was
  "early-out-of-order", // stdio: requests written right after initialize, answered at once, answered in another order than written
  "ping-refused", // stdio: a ping before any era (or while initialize runs) not answered with an empty result
  // memory
  "rss-growth", // RSS after a repeated run more than 10% above the previous run's
] as const;

/** One violation kind. */
export type ViolationKind = (typeof VIOLATION_KINDS)[number];

/**
 * Violations known to be open today, with the finding behind each, per
 * transport. The unit test counts and prints them but does not fail on
 * them. Remove an entry when its fix lands: the test then guards it.
 */
export const KNOWN_OPEN: readonly KnownOpen[] = [];

/** One entry of {@link KNOWN_OPEN}: a kind on some transports, for every case or for cases of some categories only. */
export interface KnownOpen {
  kind: ViolationKind;
  transports: readonly Transport[];
  /** Category prefixes (`host/`, `path/other`) it covers; all categories when absent. */
  categories?: readonly string[];
  finding: string;
}

/** True when a violation of `kind` on `transport` for a case of `category` is in {@link KNOWN_OPEN}. */
export function isKnownOpen(kind: ViolationKind, transport: Transport, category: string): boolean {
  return KNOWN_OPEN.some(
    (k) =>
      k.kind === kind && k.transports.includes(transport) && (!k.categories || k.categories.some((prefix) => category.startsWith(prefix))),
  );
}

/** Bounds and defaults of a run; every loop stops at the first bound reached. */
export const LIMITS = {
  /** Cases per transport when --n is not given. */
  defaultCases: 10_000,
  /** Most cases one run may be asked for. */
  maxCases: 10_000_000,
  /** Wall-clock bound of one run per transport, in seconds, when --time-limit is not given. */
  defaultTimeLimitSeconds: 1800,
  /** How long one request may wait for its answer. */
  requestTimeoutMs: 5000,
  /** HTTP requests in flight at once. */
  httpConcurrency: 8,
  /** How long the fixture may take to start. */
  startTimeoutMs: 15_000,
  /** How long a memory question on the IPC channel may take. */
  memoryTimeoutMs: 5000,
  /** Most hangs before a run gives up (each costs a full timeout). */
  maxHangs: 50,
  /** Largest generated string, in characters (under the 4 MiB body limit). */
  hugeStringChars: 1_000_000,
  /** Growth of RSS between repeated runs that counts as rss-growth. */
  rssGrowthRatio: 0.1,
  /** Examples of each violation kind kept for the report. */
  examplesPerKind: 3,
} as const;

/** The fixture's tools, as the generators call them. */
export const TOOLS = {
  /** Returns its arguments as structuredContent and as JSON text: the number-preservation probe (it opts in to exact integers). */
  echo: "echo",
  /** a + b, with an outputSchema whose sum is a number: any numeric argument (2^53 + 1 too) gives the double sum, never a fault. */
  add: "add",
  /** Arguments mirrored in Mcp-Param-* headers (x-mcp-header). */
  route: "route",
  /** Asks the user a question (input_required, or not_supported without the capability). */
  ask: "ask",
  /** Sleeps `ms`, reporting progress and logging on the way (SSE answers). */
  slow: "slow",
} as const;

/** The fixture's resource, resource template and prompt. */
export const RESOURCE_URI = "file:///fuzz.txt";
export const TEMPLATE_PREFIX = "fuzz://item/";
export const PROMPT = "greet";
export const ENDPOINT_PATH = "/mcp";

/** The `route` tool's arguments, three of them mirrored in Mcp-Param-* headers. */
export const ROUTE_INPUT_SCHEMA = {
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    priority: { type: "integer", "x-mcp-header": "Priority" },
    urgent: { type: "boolean", "x-mcp-header": "Urgent" },
    note: { type: "string" },
  },
  required: ["region"],
} as const;
