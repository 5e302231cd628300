/**
 * fast-check generators of the `initialize` era (spec 2025-11-25:
 * basic/lifecycle, basic/transports), as scenarios: an `initialize` (valid,
 * malformed, with odd protocol versions), `notifications/initialized`, then
 * steps on the session it opened: requests with or without `Mcp-Session-Id`
 * and `MCP-Protocol-Version`, unknown and ended sessions, DELETE, the GET
 * stream, requests of the other era, a second `initialize`, notifications
 * before `initialized`, and the client's answers to the server's
 * `elicitation/create` (valid, malformed, wrong id, twice, an error, none).
 *
 * A scenario is data: `session-drivers.ts` plays it against a running
 * fixture and checks each step's answer with `check.ts`, plus the era's own
 * rules (`checkInitializeAnswer`, `laterEraFields`).
 */
import { ErrorCode } from "@x/mcp-v2511/constants";
import { INITIALIZE_ERA_VERSIONS, isValidSessionId, negotiateProtocolVersion } from "@x/mcp-v2511/wire";
import { ErrorCode as LaterErrorCode, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, PROTOCOL_VERSION } from "@x/mcp-v2607/constants";
import fc from "fast-check";
import type { Expect, IdSpec } from "./cases.js";
import type { Violation } from "./check.js";
import { PROMPT, RESOURCE_URI, TEMPLATE_PREFIX, TOOLS, type Transport } from "./config.js";
import { ID_SLOT, type J, type L, Raw } from "./json.js";

/** The era a run drives: 2026-07-28 (`generators.ts`) or the `initialize` era (this module). */
export type Era = "2026-07-28" | "2025-11-25";

/** The eras, as `--era` names them. */
export const ERAS: readonly Era[] = ["2026-07-28", "2025-11-25"];

/** How a step names its session in `Mcp-Session-Id`. */
export type SessionHeader =
  | "session" // the id the scenario's initialize got
  | "none" // no header
  | "unknown" // a well-formed id no server minted
  | "malformed"; // not 1 to 256 visible ASCII characters

/** How a step sends `MCP-Protocol-Version`. */
export type VersionHeader = "negotiated" | "none" | "later" | "junk";

/** One message a step sends: its JSON tree (the id in {@link ID_SLOT}) or raw text. */
export type Body = { tree: J; id?: IdSpec } | { text: string };

/** One step of a scenario, played in order on the scenario's session. */
export type Step =
  | {
      kind: "post";
      label: string;
      body: Body;
      session: SessionHeader;
      version: VersionHeader;
      accept?: string;
      /** Headers sent beside the session's (a 2026-07-28 request's mirrors). */
      headers?: [string, string][];
      expect: Expect;
      /** What stdio expects when it differs (no HTTP status there, and a refused body may be silent). */
      stdioExpect?: Expect;
    }
  | { kind: "delete"; label: string; session: SessionHeader; expect: Expect }
  | { kind: "get"; label: string; session: SessionHeader; accept: string; lastEventId?: string; second?: boolean; expect: Expect }
  /** `tools/call` of `ask`: the server's `elicitation/create` is answered as `answer` says, then the call's answer is checked. */
  | { kind: "ask"; label: string; answer: AskAnswer; accept?: string; name: string };

/** How the client answers `elicitation/create`. */
export type AskAnswer = "accept" | "decline" | "cancel" | "malformed" | "error" | "wrong-id" | "twice" | "none" | "not-a-response";

/** One scenario: how it opens, then its steps. */
export interface Scenario {
  /** `2511/<family>/<variant>`; the report groups violations by it (a step adds `:<label>`). */
  category: string;
  transports: readonly Transport[];
  /** The opening `initialize` (HTTP: a new session; stdio: sent once, at the start of the connection). */
  open: Opening;
  /** Send `notifications/initialized` after the opening (most scenarios do). */
  initialized: boolean;
  steps: Step[];
}

/** The opening `initialize` of a scenario. */
export interface Opening {
  /** `protocolVersion` asked for (any JSON: a malformed one is refused). */
  protocolVersion: J;
  /** The client's capabilities: with `elicitation`, the server may ask. */
  elicitation: boolean;
  /** The whole params, when they are malformed on purpose (then no session opens). */
  params?: J;
  /** Accept header of the initialize POST. */
  accept?: string;
}

const BOTH: readonly Transport[] = ["http", "stdio"];
const HTTP_ONLY: readonly Transport[] = ["http"];

/** Where {@link Step} ids come from: each step renders a unique one. */
const ID: fc.Arbitrary<IdSpec> = fc.constantFrom<IdSpec>(
  { kind: "int" },
  { kind: "int" },
  { kind: "negative" },
  { kind: "string", suffix: "s" },
  { kind: "numeric-string" },
  { kind: "bigint", prefix: "90071992547409" },
);

const RESULT: Expect = { answer: "response", id: "same", outcome: "result", status: [200] };
const ANY: Expect = { answer: "response", id: "same", outcome: "any", status: [200] };
const SILENT: Expect = { answer: "silent", silentKind: "answered-notification", status: [202] };
const BAD_NOTIFICATION: Expect = { answer: "silent-or-idless-error", silentKind: "answered-notification", status: [202, 400] };
const SILENT_RESPONSE: Expect = { answer: "silent", silentKind: "answered-response", status: [202] };

/** An error with one of `codes`; JSON-RPC errors on a session come with HTTP 200 (the server's rule), refusals before it with 400. */
function error(
  codes: number[],
  kind: Expect["wrongCode"],
  status: number[],
  id: Expect["id"] = "same",
  accepted?: Expect["accepted"],
): Expect {
  return { answer: "response", id, outcome: { codes }, wrongCode: kind, status, ...(accepted ? { accepted } : {}) };
}

const request = (method: string, params?: J): J => {
  const m: { [key: string]: J } = { jsonrpc: "2.0", id: ID_SLOT, method };
  if (params !== undefined) m.params = params;
  return m;
};
const notification = (method: string, params?: J): J => {
  const m: { [key: string]: J } = { jsonrpc: "2.0", method };
  if (params !== undefined) m.params = params;
  return m;
};

const post = (
  label: string,
  tree: J,
  id: IdSpec | undefined,
  expect: Expect,
  extra: Partial<Extract<Step, { kind: "post" }>> = {},
): Step => ({
  kind: "post",
  label,
  body: id ? { tree, id } : { tree },
  session: "session",
  version: "negotiated",
  expect,
  ...extra,
});

/** The params of a valid `initialize`. */
export function initializeParams(protocolVersion: J, elicitation: boolean): J {
  return {
    protocolVersion,
    capabilities: elicitation ? { elicitation: {} } : {},
    clientInfo: { name: "x-fuzz", version: "0.0.0" },
  };
}

// ---------------------------------------------------------------- openings

/** Versions asked for in a valid `initialize`: every one of the era, and odd ones the server answers with its newest. */
export const ODD_VERSIONS: readonly string[] = ["2099-01-01", PROTOCOL_VERSION, "2024-10-07", "", "2025-11-25 ", "1.0", "latest"];

const validOpening: fc.Arbitrary<Opening> = fc.record({
  protocolVersion: fc.oneof(
    { arbitrary: fc.constantFrom<J>(...INITIALIZE_ERA_VERSIONS), weight: 6 },
    { arbitrary: fc.constantFrom<J>(...ODD_VERSIONS), weight: 1 },
  ),
  elicitation: fc.boolean(),
  accept: fc.constantFrom(
    "application/json, text/event-stream",
    "application/json, text/event-stream",
    "application/json",
    "text/event-stream",
  ),
});

/**
 * The versions of the era whose server may send `elicitation/create` (spec
 * 2025-06-18: changelog, elicitation added): a session of an older one is
 * never asked, whatever its client declared; its ask answers "not supported".
 */
const ELICITATION_VERSIONS: ReadonlySet<string> = new Set(["2025-11-25", "2025-06-18"]);

/** True when a session that negotiated `version` can be sent `elicitation/create`. */
export function elicits(version: string): boolean {
  return ELICITATION_VERSIONS.has(version);
}

/**
 * The versions of the era that take JSON-RPC batches: 2025-03-26 alone (spec
 * 2025-03-26: basic/index "Batching"; 2025-06-18 removed them). On a
 * session of it a batch of requests is answered with an array of responses.
 */
const BATCH_VERSIONS: ReadonlySet<string> = new Set(["2025-03-26"]);

/** True when a session that negotiated `version` takes batches. */
export function takesBatches(version: string): boolean {
  return BATCH_VERSIONS.has(version);
}

/** Params `initialize` refuses with -32602: a member missing or of the wrong type. */
export const BAD_INITIALIZE_PARAMS: readonly [string, J][] = [
  ["no-capabilities", { protocolVersion: "2025-11-25", clientInfo: { name: "x", version: "1" } }],
  ["no-client-info", { protocolVersion: "2025-11-25", capabilities: {} }],
  ["no-version", { capabilities: {}, clientInfo: { name: "x", version: "1" } }],
  ["version-number", { protocolVersion: 20251125, capabilities: {}, clientInfo: { name: "x", version: "1" } }],
  ["version-null", { protocolVersion: null, capabilities: {}, clientInfo: { name: "x", version: "1" } }],
  ["capabilities-array", { protocolVersion: "2025-11-25", capabilities: [], clientInfo: { name: "x", version: "1" } }],
  ["client-info-string", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: "x" }],
  ["client-info-no-name", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { version: "1" } }],
  ["empty", {}],
];

// ---------------------------------------------------------------- steps on a session

const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;

/** Requests a session answers with a result (the shared handlers, and the era's own methods). */
const validSessionRequest: fc.Arbitrary<[string, J]> = fc.oneof(
  fc.constant<[string, J]>(["tools-list", request("tools/list")]),
  fc.constant<[string, J]>(["tools-list-params", request("tools/list", {})]),
  fc
    .dictionary(
      fc.stringMatching(/^[a-z]{1,6}$/).filter((k) => k !== "text"),
      fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.boolean()),
      {
        maxKeys: 4,
      },
    )
    .map<[string, J]>((args) => ["echo", request("tools/call", { name: TOOLS.echo, arguments: args as J })]),
  fc
    .tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -1000, max: 1000 }))
    .map<[string, J]>(([a, b]) => ["add", request("tools/call", { name: TOOLS.add, arguments: { a, b } })]),
  fc
    .record({
      ms: fc.integer({ min: 0, max: 15 }),
      steps: fc.integer({ min: 0, max: 3 }),
      token: fc.option(fc.oneof(fc.string({ maxLength: 6 }), fc.nat())),
    })
    .map<[string, J]>(({ ms, steps, token }) => [
      "slow",
      request("tools/call", { name: TOOLS.slow, arguments: { ms, steps }, ...(token === null ? {} : { _meta: { progressToken: token } }) }),
    ]),
  fc.constant<[string, J]>(["resources-list", request("resources/list")]),
  fc.constant<[string, J]>(["templates-list", request("resources/templates/list")]),
  fc
    .oneof(
      fc.constant(RESOURCE_URI),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/).map((id) => `${TEMPLATE_PREFIX}${id}`),
    )
    .map<[string, J]>((uri) => ["resources-read", request("resources/read", { uri })]),
  fc.constant<[string, J]>(["prompts-list", request("prompts/list")]),
  fc.string({ maxLength: 10 }).map<[string, J]>((name) => ["prompts-get", request("prompts/get", { name: PROMPT, arguments: { name } })]),
  fc.constant<[string, J]>(["ping", request("ping")]),
  fc.constantFrom(...LOG_LEVELS).map<[string, J]>((level) => ["set-level", request("logging/setLevel", { level })]),
  fc.constant<[string, J]>(["subscribe", request("resources/subscribe", { uri: RESOURCE_URI })]),
  fc.constant<[string, J]>(["unsubscribe", request("resources/unsubscribe", { uri: RESOURCE_URI })]),
);

/** Requests a session refuses with -32602 (params the method refuses). */
const badParamsRequest: fc.Arbitrary<[string, J]> = fc.constantFrom<[string, J]>(
  ["set-level-unknown", request("logging/setLevel", { level: "loud" })],
  ["set-level-missing", request("logging/setLevel", {})],
  ["set-level-upper", request("logging/setLevel", { level: "DEBUG" })],
  ["subscribe-no-uri", request("resources/subscribe", {})],
  ["subscribe-uri-number", request("resources/subscribe", { uri: 5 })],
  ["unsubscribe-no-uri", request("resources/unsubscribe", {})],
  ["prompts-get-no-name", request("prompts/get", {})],
  ["read-no-uri", request("resources/read", {})],
  ["call-no-name", request("tools/call", { arguments: {} })],
);

/** Progress tokens that are neither a string nor an integer: refused with -32602 as the message is read (HTTP 400 there, as other refusals before the call). */
const badProgressToken: fc.Arbitrary<[string, J]> = fc.constantFrom<[string, J]>(
  ["progress-token-fraction", request("tools/list", { _meta: { progressToken: 1.5 } })],
  ["progress-token-object", request("tools/list", { _meta: { progressToken: {} } })],
  ["progress-token-bool", request("ping", { _meta: { progressToken: true } })],
);

/** Methods a session does not have: unknown ones, the 2026-07-28-only ones, and client-side ones (-32601). */
const unknownMethod = fc.oneof(
  fc.constantFrom(
    "server/discover",
    "subscriptions/listen",
    "elicitation/create",
    "sampling/createMessage",
    "roots/list",
    "tools/List",
    "nope",
  ),
  fc
    .stringMatching(/^[a-z]{1,8}\/[a-z]{1,8}$/)
    .filter(
      (m) =>
        !m.startsWith("tools/") &&
        !m.startsWith("resources/") &&
        !m.startsWith("prompts/") &&
        !m.startsWith("logging/") &&
        !m.startsWith("completion/"),
    ),
);

/**
 * A request in the 2026-07-28 form (the `_meta` envelope) sent on a session
 * of the earlier era. Over stdio the connection speaks one era: -32600. Over
 * HTTP the dual-era rule serves it statelessly, its `Mcp-Session-Id` ignored:
 * with the session's `MCP-Protocol-Version` its header mirrors disagree
 * (-32020), or its envelope lacks members (-32602), as without the session.
 */
const laterEraRequest: fc.Arbitrary<[string, J]> = fc.constantFrom<[string, J]>(
  ["tools-list", request("tools/list", { _meta: { [META_PROTOCOL_VERSION]: PROTOCOL_VERSION, [META_CLIENT_CAPABILITIES]: {} } })],
  ["discover", request("server/discover", { _meta: { [META_PROTOCOL_VERSION]: PROTOCOL_VERSION, [META_CLIENT_CAPABILITIES]: {} } })],
  [
    "echo",
    request("tools/call", {
      name: TOOLS.echo,
      arguments: {},
      _meta: { [META_PROTOCOL_VERSION]: PROTOCOL_VERSION, [META_CLIENT_CAPABILITIES]: {} },
    }),
  ],
  ["version-only", request("ping", { _meta: { [META_PROTOCOL_VERSION]: PROTOCOL_VERSION } })],
);

/** Notifications a session takes silently (202): the era's own, unknown ones, ones naming no request of ours. */
const sessionNotification: fc.Arbitrary<[string, J]> = fc.constantFrom<[string, J]>(
  ["initialized-again", notification("notifications/initialized")],
  ["roots-changed", notification("notifications/roots/list_changed")],
  ["cancelled-unknown", notification("notifications/cancelled", { requestId: 424242, reason: "fuzz" })],
  ["cancelled-bad", notification("notifications/cancelled", { requestId: { x: 1 } })],
  ["cancelled-no-params", notification("notifications/cancelled")],
  ["progress", notification("notifications/progress", { progressToken: "t", progress: 1 })],
  ["unknown", notification("notifications/fuzz", { a: [1, 2] })],
);

/**
 * Notifications no MCP message can be (params that are not an object): 202,
 * or 400 with an error without an id (spec 2025-11-25: basic/transports, a
 * notification the server cannot accept), never an answer with an id.
 */
const badNotification: fc.Arbitrary<[string, J]> = fc.constantFrom<[string, J]>(
  ["params-array", notification("notifications/initialized", [1])],
  ["params-string", notification("notifications/cancelled", "x")],
);

/** Responses no request of the server asked for: dropped, never answered. */
const unsolicitedResponse: fc.Arbitrary<[string, J]> = fc.constantFrom<[string, J]>(
  ["result", { jsonrpc: "2.0", id: "x-mcp-999999", result: {} }],
  ["result-int", { jsonrpc: "2.0", id: 77, result: { action: "accept" } }],
  ["error", { jsonrpc: "2.0", id: "x-mcp-999998", error: { code: -1, message: "no" } }],
  ["error-null-id", { jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse" } }],
);

/** Bodies that are not one valid request, sent on a session. */
const malformedBody: fc.Arbitrary<[string, Body, Expect]> = fc.constantFrom<[string, Body, Expect]>(
  ["not-json", { text: "{nope" }, error([ErrorCode.ParseError], "wrong-code-parse", [400], "none")],
  ["truncated", { text: '{"jsonrpc":"2.0","id":1,"method":"tools/li' }, error([ErrorCode.ParseError], "wrong-code-parse", [400], "none")],
  [
    "batch",
    { text: '[{"jsonrpc":"2.0","id":1,"method":"ping"}]' },
    error([ErrorCode.InvalidRequest], "wrong-code-invalid-request", [400], "none"),
  ],
  ["number", { text: "42" }, error([ErrorCode.InvalidRequest], "wrong-code-invalid-request", [400], "none")],
  [
    "wrong-jsonrpc",
    { tree: { jsonrpc: "1.0", id: ID_SLOT, method: "ping" }, id: { kind: "int" } },
    error([ErrorCode.InvalidRequest], "wrong-code-invalid-request", [200, 400], "same-or-none"),
  ],
  [
    "id-object",
    { text: '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}' },
    error([ErrorCode.InvalidRequest], "wrong-code-invalid-request", [200, 400], "none"),
  ],
  [
    "params-string",
    { tree: { jsonrpc: "2.0", id: ID_SLOT, method: "ping", params: "x" }, id: { kind: "int" } },
    error([ErrorCode.InvalidRequest, ErrorCode.InvalidParams], "wrong-code-invalid-request", [200, 400], "same-or-none"),
  ],
);

/** Ids of sessions no server minted, and ids that are not session ids. */
export const UNKNOWN_SESSION_ID = "00000000-0000-4000-8000-000000000000";
/** Session ids that are not 1 to 256 visible ASCII characters, and that an HTTP header can still carry. */
export const MALFORMED_SESSION_IDS: readonly string[] = ["has space", "x".repeat(300), "in\tside", "a b", `${"0".repeat(36)} x`];

// ---------------------------------------------------------------- scenarios

const open = (o: Partial<Opening> = {}): Opening => ({ protocolVersion: "2025-11-25", elicitation: true, ...o });

const scenario = (category: string, transports: readonly Transport[], steps: Step[], extra: Partial<Scenario> = {}): Scenario => ({
  category: `2511/${category}`,
  transports,
  open: open(),
  initialized: true,
  steps,
  ...extra,
});

/** A valid opening, then valid requests on the session: results, with the negotiated version in the header or without it. */
const validScenario: fc.Arbitrary<Scenario> = fc
  .tuple(
    validOpening,
    fc.array(fc.tuple(validSessionRequest, ID, fc.constantFrom<VersionHeader>("negotiated", "negotiated", "negotiated", "none")), {
      minLength: 1,
      maxLength: 4,
    }),
  )
  .map(([opening, requests]) =>
    scenario(
      "valid",
      BOTH,
      requests.map(([[label, tree], id, version]) => post(label, tree, id, RESULT, { version })),
      { open: opening },
    ),
  );

/** An `initialize` with params the server refuses: -32602 (HTTP 400, no session). */
const badInitializeScenario: fc.Arbitrary<Scenario> = fc.tuple(fc.constantFrom(...BAD_INITIALIZE_PARAMS), ID).map(([[label, params], id]) =>
  scenario(
    `initialize-bad/${label}`,
    HTTP_ONLY,
    [
      post(label, request("initialize", params), id, error([ErrorCode.InvalidParams], "wrong-code-invalid-params", [400]), {
        session: "none",
        version: "none",
      }),
    ],
    { open: { protocolVersion: null, elicitation: false, params }, initialized: false },
  ),
);

/** Requests with a session header the server must refuse: unknown (404), malformed (400), or a version header it does not serve (400). */
const badSessionHeaderScenario: fc.Arbitrary<Scenario> = fc
  .tuple(
    validSessionRequest,
    ID,
    fc.constantFrom<[string, SessionHeader, VersionHeader, number]>(
      ["unknown-session", "unknown", "negotiated", 404],
      ["unknown-session-no-version", "unknown", "none", 404],
      ["malformed-session", "malformed", "negotiated", 400],
      ["version-later", "session", "later", 400],
      ["version-junk", "session", "junk", 400],
    ),
  )
  .map(([[label, tree], id, [variant, session, version, status]]) =>
    scenario(`session-header/${variant}`, HTTP_ONLY, [
      post(
        label,
        tree,
        id,
        error(
          status === 404 ? [-32001, ErrorCode.InvalidRequest] : [ErrorCode.InvalidRequest],
          "wrong-code-invalid-request",
          [status],
          "same-or-none",
          "session-accepted",
        ),
        {
          session,
          version,
        },
      ),
    ]),
  );

/** A request without `Mcp-Session-Id` after `initialize`: 400 (spec 2025-11-25: basic/transports, "Session Management"). */
const missingSessionScenario: fc.Arbitrary<Scenario> = fc
  .tuple(validSessionRequest, ID, fc.constantFrom<VersionHeader>("negotiated", "none"))
  .map(([[label, tree], id, version]) =>
    scenario(`session-missing/${version === "none" ? "no-version" : "with-version"}`, HTTP_ONLY, [
      post(
        label,
        tree,
        id,
        // Without any era header the request reads as a 2026-07-28 one without its envelope: -32602; with the era's version, -32600.
        error([ErrorCode.InvalidRequest, ErrorCode.InvalidParams], "wrong-code-invalid-request", [400], "same-or-none", "session-accepted"),
        { session: "none", version },
      ),
    ]),
  );

/** DELETE ends the session: then its id gets 404 on POST, GET and DELETE. */
const endedSessionScenario: fc.Arbitrary<Scenario> = fc
  .tuple(validSessionRequest, ID, fc.constantFrom("post", "get", "delete"))
  .map(([[label, tree], id, after]) => {
    const notFound = error(
      [-32001, ErrorCode.InvalidRequest],
      "wrong-code-invalid-request",
      [404],
      after === "post" ? "same-or-none" : "none",
      "session-accepted",
    );
    const then: Step =
      after === "post"
        ? post(label, tree, id, notFound)
        : after === "get"
          ? { kind: "get", label: "get", session: "session", accept: "text/event-stream", expect: notFound }
          : { kind: "delete", label: "delete-again", session: "session", expect: notFound };
    return scenario(`session-ended/${after}`, HTTP_ONLY, [
      { kind: "delete", label: "delete", session: "session", expect: SILENT_DELETE },
      then,
    ]);
  });

/** DELETE answers: 200 or 204 with no JSON-RPC message. */
const SILENT_DELETE: Expect = { answer: "silent", silentKind: "answered-notification", status: [200, 202, 204] };

/** DELETE of a session that does not exist: 404; a malformed id: 400. */
const deleteScenario: fc.Arbitrary<Scenario> = fc
  .constantFrom<[string, SessionHeader, number]>(["unknown", "unknown", 404], ["malformed", "malformed", 400])
  .map(([variant, session, status]) =>
    scenario(`delete/${variant}`, HTTP_ONLY, [
      {
        kind: "delete",
        label: "delete",
        session,
        expect: error([-32001, ErrorCode.InvalidRequest], "wrong-code-invalid-request", [status], "none", "session-accepted"),
      },
    ]),
  );

/** The GET stream: opened (SSE, 200), a second one at once (409), refused without Accept (406), resumed after an unknown event id (a fresh stream). */
const getScenario: fc.Arbitrary<Scenario> = fc
  .constantFrom("open", "second", "not-acceptable", "unknown-session", "last-event-id-unknown", "before-initialized")
  .map((variant) => {
    const stream: Expect = { answer: "silent", silentKind: "answered-notification", status: [200] };
    const steps: Step[] =
      variant === "open"
        ? [{ kind: "get", label: "get", session: "session", accept: "text/event-stream", expect: stream }]
        : variant === "second"
          ? [
              {
                kind: "get",
                label: "get-twice",
                session: "session",
                accept: "text/event-stream",
                second: true,
                expect: error([ErrorCode.InvalidRequest], "wrong-code-invalid-request", [409], "none"),
              },
            ]
          : variant === "not-acceptable"
            ? [
                {
                  kind: "get",
                  label: "get",
                  session: "session",
                  accept: "application/json",
                  expect: error([ErrorCode.InvalidRequest], "wrong-code-invalid-request", [405, 406], "none"),
                },
              ]
            : variant === "unknown-session"
              ? [
                  {
                    kind: "get",
                    label: "get",
                    session: "unknown",
                    accept: "text/event-stream",
                    expect: error([-32001, ErrorCode.InvalidRequest], "wrong-code-invalid-request", [404], "none", "session-accepted"),
                  },
                ]
              : variant === "last-event-id-unknown"
                ? [{ kind: "get", label: "get", session: "session", accept: "text/event-stream", lastEventId: "nope.1", expect: stream }]
                : [{ kind: "get", label: "get", session: "session", accept: "text/event-stream", expect: stream }];
    return scenario(`get/${variant}`, HTTP_ONLY, steps, variant === "before-initialized" ? { initialized: false } : {});
  });

/** Requests of the other era, a second `initialize`, unknown methods, bad params and malformed bodies on a session. */
const refusedOnSessionScenario: fc.Arbitrary<Scenario> = fc
  .tuple(
    fc.oneof(
      laterEraRequest.map(([label, tree]) => ({
        family: `mixed-era/${label}`,
        step: (id: IdSpec) =>
          post(
            label,
            tree,
            id,
            {
              ...error([LaterErrorCode.HeaderMismatch, ErrorCode.InvalidParams], "wrong-code-other", [400]),
              sessionless: true,
            },
            {
              stdioExpect: error([ErrorCode.InvalidRequest], "wrong-code-invalid-request", [], "same", "mixed-era-accepted"),
            },
          ),
      })),
      fc.constantFrom(...INITIALIZE_ERA_VERSIONS).map((v) => ({
        family: "initialize-twice",
        step: (id: IdSpec) =>
          post(
            "initialize",
            request("initialize", initializeParams(v, true)),
            id,
            error([ErrorCode.InvalidRequest], "wrong-code-invalid-request", [200, 400], "same", "reinitialize-accepted"),
          ),
      })),
      unknownMethod.map((m) => ({
        family: "unknown-method",
        step: (id: IdSpec) => post("method", request(m, {}), id, error([ErrorCode.MethodNotFound], "wrong-code-method", [200])),
      })),
      badParamsRequest.map(([label, tree]) => ({
        family: `bad-params/${label}`,
        step: (id: IdSpec) => post(label, tree, id, error([ErrorCode.InvalidParams], "wrong-code-invalid-params", [200])),
      })),
      badProgressToken.map(([label, tree]) => ({
        family: `bad-params/${label}`,
        step: (id: IdSpec) => post(label, tree, id, error([ErrorCode.InvalidParams], "wrong-code-invalid-params", [200, 400])),
      })),
      malformedBody.map(([label, body, expect]) => ({
        family: `malformed/${label}`,
        step: (_id: IdSpec) => ({ kind: "post", label, body, session: "session", version: "negotiated", expect }) as Step,
      })),
    ),
    ID,
    validSessionRequest,
    ID,
  )
  .map(([{ family, step }, id, [label, tree], id2]) =>
    // A valid request after the refusal: the session still serves.
    scenario(family, BOTH, [step(id), post(`after:${label}`, tree, id2, RESULT)]),
  );

/**
 * A 2026-07-28 request built as a 2026-07-28 client builds it (envelope and
 * header mirrors) that also carries the session's `Mcp-Session-Id` (HTTP):
 * served statelessly with a result that has the 2026-07-28 members, the
 * header never echoed; the session still serves its own era afterwards.
 */
const laterWithSessionScenario: fc.Arbitrary<Scenario> = fc
  .tuple(
    fc.constantFrom<[string, string, { [key: string]: J }]>(
      ["tools-list", "tools/list", {}],
      ["discover", "server/discover", {}],
      ["echo", "tools/call", { name: TOOLS.echo, arguments: { a: 1 } }],
      ["resources-read", "resources/read", { uri: RESOURCE_URI }],
    ),
    ID,
    validSessionRequest,
    ID,
  )
  .map(([[label, method, params], id, [after, afterTree], id2]) => {
    const meta = { [META_PROTOCOL_VERSION]: PROTOCOL_VERSION, [META_CLIENT_CAPABILITIES]: {} };
    const name = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
    const headers: [string, string][] = [["mcp-method", method]];
    if (name !== undefined) headers.push(["mcp-name", name]);
    return scenario(`later-with-session/${label}`, HTTP_ONLY, [
      post(label, request(method, { ...params, _meta: meta }), id, { ...RESULT, sessionless: true }, { version: "later", headers }),
      post(`after:${after}`, afterTree, id2, RESULT),
    ]);
  });

/** Messages shaped as responses but malformed, on a session: over HTTP 400 with an error without id; over stdio nothing. */
const malformedResponse: fc.Arbitrary<[string, J]> = fc.constantFrom<[string, J]>(
  ["error-array", { jsonrpc: "2.0", error: [[]] }],
  ["error-string", { jsonrpc: "2.0", id: "x-mcp-999997", error: "no" }],
  ["error-no-message", { jsonrpc: "2.0", id: 78, error: { code: -32603 } }],
  ["both", { jsonrpc: "2.0", id: 79, result: {}, error: { code: -1, message: "both" } }],
  ["result-no-id", { jsonrpc: "2.0", result: { action: "accept" } }],
  ["no-jsonrpc", { id: "x-mcp-999996", result: {} }],
);
const MALFORMED_RESPONSE: Expect = {
  answer: "response",
  id: "none",
  outcome: { codes: [ErrorCode.InvalidRequest] },
  wrongCode: "wrong-code-invalid-request",
  status: [400],
  unansweredKind: "invalid-response-accepted",
};

/** Notifications and unsolicited responses on a session (before or after `initialized`): 202, never answered. */
const silentScenario: fc.Arbitrary<Scenario> = fc
  .tuple(
    fc.oneof(
      { arbitrary: sessionNotification.map((n) => ["notification", n] as const), weight: 4 },
      { arbitrary: badNotification.map((n) => ["bad-notification", n] as const), weight: 1 },
      { arbitrary: unsolicitedResponse.map((r) => ["unsolicited", r] as const), weight: 3 },
      { arbitrary: malformedResponse.map((r) => ["invalid-response", r] as const), weight: 2 },
    ),
    fc.boolean(),
    validSessionRequest,
    ID,
  )
  .map(([[family, [label, tree]], before, [after, afterTree], id]) =>
    scenario(
      `${family}${before ? "-before-initialized" : ""}/${label}`,
      before ? HTTP_ONLY : BOTH,
      [
        post(
          label,
          tree,
          undefined,
          family === "notification"
            ? SILENT
            : family === "bad-notification"
              ? BAD_NOTIFICATION
              : family === "invalid-response"
                ? MALFORMED_RESPONSE
                : SILENT_RESPONSE,
          family === "invalid-response" ? { stdioExpect: SILENT_RESPONSE } : {},
        ),
        post(`after:${after}`, afterTree, id, RESULT),
      ],
      {
        initialized: !before,
      },
    ),
  );

/** A request before `notifications/initialized`: answered (the client may; the server only must not ask first). */
const beforeInitializedScenario: fc.Arbitrary<Scenario> = fc.tuple(validSessionRequest, ID).map(([[label, tree], id]) =>
  // Over stdio the connection's opening does this once (session-drivers.ts).
  scenario("before-initialized/request", HTTP_ONLY, [post(label, tree, id, ANY)], { initialized: false }),
);

/** The `ask` tool: the server sends `elicitation/create` on the call's stream and waits; the client answers it so. */
const askScenario: fc.Arbitrary<Scenario> = fc
  .tuple(
    fc.constantFrom<AskAnswer>(
      "accept",
      "accept",
      "decline",
      "cancel",
      "malformed",
      "error",
      "wrong-id",
      "twice",
      "none",
      "not-a-response",
    ),
    fc.stringMatching(/^[A-Za-z0-9 ]{0,12}$/),
    fc.constantFrom("with-capability", "with-capability", "with-capability", "without-capability", "before-initialized"),
  )
  .map(([answer, name, variant]) =>
    // Over stdio the one connection has the capability and is initialized; a message that is no response has an answer of its own there.
    scenario(
      `ask/${variant === "with-capability" ? answer : variant}`,
      variant === "with-capability" && answer !== "not-a-response" ? BOTH : HTTP_ONLY,
      [{ kind: "ask", label: "ask", answer, name }],
      {
        open: open({ elicitation: variant !== "without-capability" }),
        initialized: variant !== "before-initialized",
      },
    ),
  );

/** An opening with an unsupported or odd version: answered with a version the server serves (its newest), and the session works. */
const versionScenario: fc.Arbitrary<Scenario> = fc
  .tuple(fc.constantFrom<J>(...INITIALIZE_ERA_VERSIONS, ...ODD_VERSIONS), ID)
  .map(([v, id]) =>
    // Over stdio the version is the opening's, one per run.
    scenario(
      `version/${INITIALIZE_ERA_VERSIONS.includes(v as never) ? "supported" : "odd"}`,
      HTTP_ONLY,
      [post("ping", request("ping"), id, RESULT)],
      {
        open: open({ protocolVersion: v }),
      },
    ),
  );

/** Every scenario family with its weight, and the transports it applies to. */
export const SCENARIO_FAMILIES: readonly {
  name: string;
  weight: number;
  arbitrary: fc.Arbitrary<Scenario>;
  transports: readonly Transport[];
}[] = [
  { name: "valid", weight: 300, arbitrary: validScenario, transports: BOTH },
  { name: "version", weight: 40, arbitrary: versionScenario, transports: HTTP_ONLY },
  { name: "initialize-bad", weight: 40, arbitrary: badInitializeScenario, transports: HTTP_ONLY },
  { name: "session-header", weight: 60, arbitrary: badSessionHeaderScenario, transports: HTTP_ONLY },
  { name: "session-missing", weight: 40, arbitrary: missingSessionScenario, transports: HTTP_ONLY },
  { name: "session-ended", weight: 40, arbitrary: endedSessionScenario, transports: HTTP_ONLY },
  { name: "delete", weight: 20, arbitrary: deleteScenario, transports: HTTP_ONLY },
  { name: "get", weight: 50, arbitrary: getScenario, transports: HTTP_ONLY },
  { name: "refused", weight: 150, arbitrary: refusedOnSessionScenario, transports: BOTH },
  { name: "later-with-session", weight: 40, arbitrary: laterWithSessionScenario, transports: HTTP_ONLY },
  { name: "silent", weight: 80, arbitrary: silentScenario, transports: BOTH },
  { name: "before-initialized", weight: 30, arbitrary: beforeInitializedScenario, transports: BOTH },
  { name: "ask", weight: 120, arbitrary: askScenario, transports: BOTH },
];

/** The weighted mix of the scenario families that apply to `transport`. */
export function scenarioArbitrary(transport: Transport): fc.Arbitrary<Scenario> {
  const families = SCENARIO_FAMILIES.filter((f) => f.transports.includes(transport));
  // A family of both transports has some variants of one only (ask without the capability: HTTP).
  return fc.oneof(...families.map((f) => ({ arbitrary: f.arbitrary, weight: f.weight }))).filter((s) => s.transports.includes(transport));
}

// ---------------------------------------------------------------- the era's own checks

function isRecord(v: L | undefined): v is { [key: string]: L } {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Raw);
}

/**
 * The `InitializeResult` rules: the version answered is the one asked for
 * when the server serves it, else the server's newest (spec 2025-11-25:
 * basic/lifecycle, "Version Negotiation"); over HTTP the answer carries an
 * `Mcp-Session-Id` of visible ASCII (basic/transports, "Session Management").
 * `sessionId` is `null` over stdio (no header there).
 */
export function checkInitializeAnswer(requested: J, result: L | undefined, sessionId: string | undefined | null): Violation[] {
  const out: Violation[] = [];
  const answered = isRecord(result) ? result.protocolVersion : undefined;
  const due = negotiateProtocolVersion(requested);
  if (answered !== due)
    out.push({
      kind: "version-negotiation",
      detail: `asked for ${JSON.stringify(requested)}, answered ${JSON.stringify(answered)} where ${due} was due`,
    });
  if (!isRecord(result) || !isRecord(result.capabilities) || !isRecord(result.serverInfo))
    out.push({ kind: "malformed-response", detail: "InitializeResult without capabilities or serverInfo" });
  if (sessionId !== null && !isValidSessionId(sessionId))
    out.push({ kind: "session-id-missing", detail: `initialize answered without a valid Mcp-Session-Id (${JSON.stringify(sessionId)})` });
  return out;
}

/** Members of 2026-07-28 results an earlier-era result must not carry (the era has no result types, no cache hints). */
export const LATER_ONLY_RESULT_MEMBERS: readonly string[] = ["resultType", "ttlMs", "cacheScope", "inputRequests", "requestState"];

/** The prefix of the 2026-07-28 `_meta` keys (server info, protocol version) an earlier-era result must not carry either. */
export const LATER_META_PREFIX = "io.modelcontextprotocol/";

/** The 2026-07-28-only members of `result` (and of its `_meta`), as violations (kind `later-era-field`). */
export function laterEraFields(result: L | undefined): Violation[] {
  if (!isRecord(result)) return [];
  const found = LATER_ONLY_RESULT_MEMBERS.filter((k) => Object.hasOwn(result, k));
  const meta = result._meta;
  if (isRecord(meta))
    found.push(
      ...Object.keys(meta)
        .filter((k) => k.startsWith(LATER_META_PREFIX))
        .map((k) => `_meta.${k}`),
    );
  return found.map((k) => ({ kind: "later-era-field" as const, detail: `an earlier-era result carries ${k}` }));
}
