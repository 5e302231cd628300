// The method table of a schema revision: which request and notification
// definitions exist, the params type of each, and the result type of each
// request. Used by scripts/generate.mjs to write src/generated/methods.ts.
//
// The schema states the method of a request only as the `const` of its
// `method` property, and links a request to its result in these ways, which
// are all read and must agree:
// - a `*ResultResponse` definition (2026-07-28 and later) whose description
//   links the request (`{@link CallToolRequest ...}`) and whose `result`
//   property names the result, possibly with interim results beside it
//   (`InputRequiredResult | CallToolResult`);
// - the naming rule `XRequest` -> `XResult`;
// - the direction unions (`ClientRequest` with `ServerResult`,
//   `ServerRequest` with `ClientResult`): the result of a request one side
//   sends must be a member of the other side's result union.
// A request none of these pairs with a result fails the generator, except
// the few methods of EMPTY_RESULT_METHODS, whose reply the spec defines as
// an empty result without the schema saying so.

/**
 * Requests whose result is `EmptyResult` (the base `Result`) although the
 * schema has no `XResult` definition nor any other link for them: the spec
 * text gives their reply as an empty result (basic/utilities/ping,
 * server/utilities/logging, server/resources "Subscriptions"). Listing a
 * method here is only allowed while the schema really gives no link; the
 * generator fails once it does, so the list cannot go stale silently.
 */
export const EMPTY_RESULT_METHODS = new Set(["ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"]);

/** The names methods.ts exports; a schema definition of the same name would clash in the package root. */
export const METHOD_TABLE_EXPORTS = [
  "RequestMethods",
  "RequestMethod",
  "ParamsOf",
  "ResultOf",
  "ResponseResultOf",
  "NotificationMethods",
  "NotificationMethod",
  "NotificationParamsOf",
  "ClientRequestMethod",
  "ServerRequestMethod",
  "ClientNotificationMethod",
  "ServerNotificationMethod",
];

/** Direction unions: which side sends the members, and the union of results that answers them. */
const DIRECTIONS = {
  requests: [
    { union: "ClientRequest", results: "ServerResult", alias: "ClientRequestMethod", sender: "client" },
    { union: "ServerRequest", results: "ClientResult", alias: "ServerRequestMethod", sender: "server" },
  ],
  notifications: [
    { union: "ClientNotification", alias: "ClientNotificationMethod", sender: "client" },
    { union: "ServerNotification", alias: "ServerNotificationMethod", sender: "server" },
  ],
};
const DIRECTION_UNIONS = new Set([...DIRECTIONS.requests, ...DIRECTIONS.notifications].map((d) => d.union));

class MethodTableError extends Error {}
const fail = (message) => {
  throw new MethodTableError(`method table: ${message}`);
};

const refName = (schema) => (typeof schema?.$ref === "string" ? schema.$ref.slice("#/$defs/".length) : undefined);

/** The definition names a schema stands for: itself for a `$ref`, its members for an `anyOf`/`oneOf` of `$ref`s. */
function memberNames(schema, where) {
  const single = refName(schema);
  if (single) return [single];
  const list = schema?.anyOf ?? schema?.oneOf;
  if (Array.isArray(list)) {
    return list.map((member, i) => refName(member) ?? fail(`${where}: member ${i} is not a $ref to a definition`));
  }
  return fail(`${where} is neither a $ref nor a union of $refs`);
}

/** The TypeScript type of a definition's `params`: the named type when it refers to one, else an indexed access. */
function paramsType(defs, name) {
  const def = defs[name];
  const params = def.properties?.params;
  if (params === undefined) return { type: "undefined", uses: [] };
  const optional = !(def.required ?? []).includes("params");
  const named = refName(params);
  if (named) return { type: optional ? `${named} | undefined` : named, uses: [named] };
  // Inline params have no type of their own; the property of the generated interface is it.
  return { type: `${name}["params"]`, uses: [name] };
}

/** Definitions named `*<suffix>` whose `method` is a `const`, grouped by method; one definition per method. */
function collect(defs, suffix) {
  const byMethod = new Map();
  for (const [name, def] of Object.entries(defs)) {
    if (!name.endsWith(suffix) || name === suffix) continue;
    const method = def.properties?.method?.const;
    if (typeof method !== "string") continue;
    if (!byMethod.has(method)) byMethod.set(method, []);
    byMethod.get(method).push(name);
  }
  const chosen = new Map();
  for (const [method, names] of byMethod) {
    // A direction union of one member is written out as a copy of that
    // member (2026-07-28's ClientNotification); it is not a method of its own.
    const own = names.filter((n) => !DIRECTION_UNIONS.has(n));
    if (own.length !== 1) fail(`${names.join(", ")} all define method ${JSON.stringify(method)}; expected exactly one definition`);
    const [name] = own;
    for (const copy of names.filter((n) => n !== name)) {
      if (JSON.stringify(defs[copy].properties.params) !== JSON.stringify(defs[name].properties.params))
        fail(`${copy} and ${name} both define ${JSON.stringify(method)} but with different params`);
    }
    chosen.set(method, name);
  }
  return chosen;
}

/** The `*ResultResponse` definitions that link each request, by request name. */
function responseLinks(defs, requests) {
  const links = new Map();
  const requestNames = new Map([...requests].map(([method, name]) => [name, method]));
  for (const [name, def] of Object.entries(defs)) {
    if (!name.endsWith("ResultResponse") || name === "JSONRPCResultResponse") continue;
    const result = def.properties?.result;
    if (!result) fail(`${name} has no result property`);
    const targets = [...String(def.description ?? "").matchAll(/\{@link ([^}\s|]+)/g)].map((m) => m[1]);
    const linked = new Set();
    for (const target of targets) {
      for (const [request, method] of requestNames) {
        if (target === request || target === `${request}${method}`) linked.add(request);
      }
    }
    const byName = `${name.slice(0, -"ResultResponse".length)}Request`;
    if (requestNames.has(byName)) linked.add(byName);
    if (linked.size !== 1) fail(`${name} links ${linked.size === 0 ? "no request" : [...linked].join(" and ")}; expected exactly one`);
    const [request] = linked;
    if (links.has(request)) fail(`${request} is linked by both ${links.get(request).name} and ${name}`);
    links.set(request, { name, members: memberNames(result, `#/$defs/${name}/properties/result`) });
  }
  return links;
}

/** True when definition `name` is `target` or a plain alias (`{ $ref }`) of it, followed through aliases. */
function isOrAliases(defs, name, target) {
  for (let current = name, hops = 0; current && hops < 10; hops++) {
    if (current === target) return true;
    const def = defs[current];
    const keys = Object.keys(def ?? {}).filter((k) => k !== "description" && k !== "$comment");
    current = keys.length === 1 && keys[0] === "$ref" ? refName(def) : undefined;
  }
  return false;
}

/**
 * Reads the method table of one schema.
 * @returns {{requests: Array<{method, name, params, result, response, pairedBy, uses}>, notifications: Array<{method, name, params, uses}>, directions: Array<{alias, union, sender, methods: string[] | undefined, kind}>}}
 * @throws MethodTableError when a request has no result the schema supports,
 *   or the links disagree.
 */
export function methodTable(schema) {
  const defs = schema.$defs;
  for (const name of METHOD_TABLE_EXPORTS) {
    if (Object.hasOwn(defs, name)) fail(`the schema defines ${name}, a name methods.ts exports; rename the export`);
  }
  const requestDefs = collect(defs, "Request");
  const notificationDefs = collect(defs, "Notification");
  const links = responseLinks(defs, requestDefs);

  const requests = [];
  for (const [method, name] of [...requestDefs].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const byName = `${name.slice(0, -"Request".length)}Result`;
    const named = Object.hasOwn(defs, byName) ? byName : undefined;
    const link = links.get(name);
    let result;
    let pairedBy;
    if (link) {
      if (named && !link.members.includes(named))
        fail(`${link.name} gives ${link.members.join(" | ")} for ${name}, but the naming rule gives ${named}`);
      if (named) result = named;
      else if (link.members.length === 1) result = link.members[0];
      else fail(`${link.name} gives ${link.members.join(" | ")} for ${name}, and no ${byName} says which is the result`);
      pairedBy = `\`${link.name}\``;
    } else if (named) {
      result = named;
      pairedBy = `the naming rule (\`${name}\` -> \`${named}\`)`;
    } else if (EMPTY_RESULT_METHODS.has(method)) {
      if (!Object.hasOwn(defs, "EmptyResult")) fail(`${name} (${method}) answers with an empty result, but the schema has no EmptyResult`);
      result = "EmptyResult";
      pairedBy = "the spec's text (an empty result; the schema gives no link)";
    } else {
      fail(
        `cannot find the result of ${name} (${JSON.stringify(method)}): no *ResultResponse links it and there is no ${byName}; ` +
          "add the link to the generator (scripts/lib/methods.mjs) only if the spec defines it",
      );
    }
    if (EMPTY_RESULT_METHODS.has(method) && (named || link))
      fail(`${method} is in EMPTY_RESULT_METHODS but the schema now pairs ${name} with ${result}; remove it from the list`);
    const response = link ? link.members : [result];
    const params = paramsType(defs, name);
    requests.push({ method, name, params: params.type, result, response, pairedBy, uses: [...params.uses, result, ...response] });
  }

  const notifications = [...notificationDefs]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([method, name]) => {
      const params = paramsType(defs, name);
      return { method, name, params: params.type, uses: params.uses };
    });

  const directions = [];
  for (const [kind, table] of [
    ["requests", requestDefs],
    ["notifications", notificationDefs],
  ]) {
    for (const direction of DIRECTIONS[kind]) {
      const def = defs[direction.union];
      if (!def) {
        directions.push({ ...direction, kind, methods: undefined });
        continue;
      }
      const own = def.properties?.method?.const;
      const members = typeof own === "string" ? [table.get(own)] : memberNames(def, `#/$defs/${direction.union}`);
      const methods = members.map((member) => {
        const method = [...table].find(([, name]) => name === member)?.[0];
        if (method === undefined) fail(`${direction.union} has member ${member}, which is not a ${kind.slice(0, -1)} with a method const`);
        return method;
      });
      if (direction.results && defs[direction.results]) {
        const allowed = memberNames(defs[direction.results], `#/$defs/${direction.results}`);
        for (const method of methods) {
          const entry = requests.find((r) => r.method === method);
          for (const result of entry.response) {
            if (!allowed.some((a) => isOrAliases(defs, result, a)))
              fail(`${entry.name} is in ${direction.union}, but its result ${result} is not in ${direction.results}`);
          }
        }
      }
      directions.push({ ...direction, kind, methods: [...methods].sort() });
    }
  }
  return { requests, notifications, directions };
}

export { MethodTableError };
