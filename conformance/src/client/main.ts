/**
 * The client entry for the official MCP conformance suite (client side).
 *
 * The suite runs `<command> <server-url>` once per scenario, with the
 * scenario's name in MCP_CONFORMANCE_SCENARIO and, for some scenarios, a
 * JSON context in MCP_CONFORMANCE_CONTEXT (e.g. the tool calls to make). This
 * program drives `@x/client` against that URL over Streamable HTTP, doing
 * what each scenario expects of a client, and exits 0 when its own steps
 * succeeded (the suite judges the wire itself). The client runs in its
 * default `protocol: "auto"`: the scenarios of `--requirements 2025-11-25`
 * are reached through the `server/discover` probe and its fall-back to
 * `initialize`, as a client meeting a server of that era would.
 *
 * The auth/* scenarios run with the transport's `auth` option: the
 * authorization code flow with an `authorize` hook that follows the suite's
 * redirect instead of a browser (and the suite's Client ID Metadata Document
 * URL, DPoP where offered, pre-registered credentials from the context), or
 * the machine grants the context asks for (client credentials with a secret
 * or a private key, the JWT bearer grant for workload identity and, after a
 * token exchange at the IdP, enterprise-managed authorization).
 *
 *   node conformance/dist/client/main.js http://localhost:PORT/mcp
 */
import {
  type ClientCapabilities,
  Client,
  type CreateMessageResult,
  clientCredentials,
  type ElicitResult,
  jwtBearer,
  type OAuthClientProvider,
  StreamableHttpTransport,
  type Tool,
} from "@x/client";

interface ToolCall {
  name: string;
  arguments?: Record<string, unknown>;
}

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = parseContext(process.env.MCP_CONFORMANCE_CONTEXT);

/** What a scenario hands the client in MCP_CONFORMANCE_CONTEXT: tool calls, or credentials for the auth scenarios. */
interface Context {
  toolCalls?: ToolCall[];
  client_id?: string;
  client_secret?: string;
  issuer?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  valid_jwt?: string;
  idp_id_token?: string;
  idp_token_endpoint?: string;
  idp_client_id?: string;
}

function parseContext(text: string | undefined): Context {
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null ? (value as Context) : {};
  } catch {
    return {};
  }
}

/** The Client ID Metadata Document URL the suite expects from a client that supports them. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * The authorization hook without a browser: the suite's authorization
 * endpoint answers at once with a redirect, whose Location is the redirect
 * the authorization server sends the user back with.
 */
async function followRedirect(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: "manual", signal: AbortSignal.timeout(10_000) });
  await response.body?.cancel().catch(() => {});
  const location = response.headers.get("location");
  if (!location) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  return new URL(location, authorizationUrl).href;
}

/** Enterprise-managed authorization: the IdP's ID token exchanged for an ID-JAG (RFC 8693) at the IdP. */
async function idJag(issuer: string, resource: string): Promise<string> {
  const body = new URLSearchParams({
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    subject_token: context.idp_id_token ?? "",
    subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
    audience: issuer,
    resource,
    client_id: context.idp_client_id ?? "",
  });
  const response = await fetch(context.idp_token_endpoint ?? "", { method: "POST", body, signal: AbortSignal.timeout(10_000) });
  const answer = (await response.json()) as { access_token?: string; error?: string };
  if (!response.ok || typeof answer.access_token !== "string")
    throw new Error(`token exchange at the IdP failed: ${answer.error ?? response.status}`);
  return answer.access_token;
}

/** The auth option for this scenario: a machine grant when the scenario gives one, else the authorization code flow. */
async function authFor(name: string): Promise<OAuthClientProvider | undefined> {
  if (!name.startsWith("auth/")) return undefined;
  if (name === "auth/client-credentials-basic" || name === "auth/client-credentials-jwt") {
    return clientCredentials({
      clientId: context.client_id ?? "",
      ...(context.client_secret !== undefined ? { clientSecret: context.client_secret } : {}),
      ...(context.private_key_pem !== undefined
        ? { privateKey: context.private_key_pem, algorithm: context.signing_algorithm ?? "ES256" }
        : {}),
    });
  }
  if (name === "auth/wif-jwt-bearer") return jwtBearer({ clientId: context.client_id ?? "", assertion: () => context.valid_jwt ?? "" });
  if (name === "auth/enterprise-managed-authorization") {
    return jwtBearer({
      clientId: context.client_id ?? "",
      ...(context.client_secret !== undefined ? { clientSecret: context.client_secret } : {}),
      assertion: ({ issuer, resource }) => idJag(issuer, resource),
    });
  }
  const preregistered = context.client_id !== undefined;
  return {
    redirectUrl: "http://localhost:3000/callback",
    clientMetadata: { client_name: "x-conformance-client" },
    authorize: followRedirect,
    clientMetadataUrl: CLIENT_METADATA_URL,
    dpop: true,
    ...(preregistered
      ? {
          clientInformation: {
            client_id: context.client_id as string,
            ...(context.client_secret !== undefined ? { client_secret: context.client_secret } : {}),
          },
        }
      : {}),
  };
}

function log(message: string): void {
  process.stderr.write(`[conformance client] ${message}\n`);
}

/** A value for each property of a form: its default, else the first enum value, else a plain sample of its type. */
function formContent(schema: unknown): ElicitResult["content"] {
  const content: Record<string, string | number | boolean | string[]> = {};
  const properties = (schema as { properties?: Record<string, Record<string, unknown>> } | undefined)?.properties ?? {};
  for (const [name, property] of Object.entries(properties)) {
    if (property.default !== undefined) content[name] = property.default as string;
    else if (Array.isArray(property.enum) && property.enum.length > 0) content[name] = property.enum[0] as string;
    else if (property.type === "boolean") content[name] = true;
    else if (property.type === "integer" || property.type === "number") content[name] = 1;
    else if (property.type === "array") content[name] = [];
    else content[name] = "conformance";
  }
  return content;
}

/** Sample arguments for a tool: a value for each required property, by type. */
function sampleArguments(tool: Tool): Record<string, unknown> {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: unknown }>; required?: unknown };
  const args: Record<string, unknown> = {};
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  for (const name of required) {
    const type = schema.properties?.[name]?.type;
    args[name] =
      type === "integer" || type === "number" ? 1 : type === "boolean" ? true : type === "object" ? {} : type === "array" ? [] : "us-east1";
  }
  return args;
}

const capabilities: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

function newClient(extra: { onElicit?: () => Promise<void> } = {}): Client {
  return new Client(
    { name: "x-conformance-client", version: "0.0.0" },
    {
      capabilities,
      handlers: {
        elicitation: async (params) => {
          await extra.onElicit?.();
          if (params.mode === "url") return { action: "accept" };
          return { action: "accept", content: formContent((params as { requestedSchema?: unknown }).requestedSchema) };
        },
        sampling: async (): Promise<CreateMessageResult> => ({
          role: "assistant",
          content: { type: "text", text: "A sample answer from the conformance client." },
          model: "x-conformance-model",
          stopReason: "endTurn",
        }),
        roots: async () => ({ roots: [{ uri: "file:///tmp/conformance", name: "conformance" }] }),
      },
      onWarning: (message) => log(`warning: ${message}`),
    },
  );
}

async function connect(client: Client): Promise<Client> {
  const auth = await authFor(scenario);
  await client.connect(new StreamableHttpTransport(url!, auth ? { auth } : {}));
  return client;
}

const scenarios: Record<string, () => Promise<void>> = {
  async tools_call() {
    const client = await connect(newClient());
    const tools = await client.listAllTools();
    for (const tool of tools) {
      const args = tool.name === "add_numbers" ? { a: 5, b: 3 } : sampleArguments(tool);
      const result = await client.callTool(tool.name, args);
      log(`${tool.name} → ${JSON.stringify(result.content)}`);
    }
  },

  async "request-metadata"() {
    const client = await connect(newClient());
    await client.listTools();
    await client.discover();
    log(`speaking ${client.protocolVersion}`);
  },

  async "sep-2322-client-request-state"() {
    let client: Client | undefined;
    let unrelatedDone = false;
    // While the server waits for the echo_state answer, make an unrelated call:
    // it must carry neither that exchange's inputResponses nor its requestState.
    client = await connect(
      newClient({
        onElicit: async () => {
          if (unrelatedDone || !client) return;
          unrelatedDone = true;
          await client.callTool("test_mrtr_unrelated", {});
        },
      }),
    );
    await client.listAllTools();
    for (const name of ["test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_no_result_type"]) {
      const result = await client.callTool(name, {});
      log(`${name} → ${JSON.stringify(result.content)}`);
    }
    if (!unrelatedDone) await client.callTool("test_mrtr_unrelated", {});
  },

  async "http-standard-headers"() {
    const client = await connect(newClient());
    for (const tool of await client.listAllTools()) await client.callTool(tool.name, sampleArguments(tool));
    for (const resource of await client.listAllResources()) await client.readResource(resource.uri);
    for (const prompt of await client.listAllPrompts()) await client.getPrompt(prompt.name, {});
  },

  async "http-custom-headers"() {
    const client = await connect(newClient());
    await client.listAllTools();
    for (const call of context.toolCalls ?? []) {
      const result = await client.callTool(call.name, call.arguments ?? {});
      log(`${call.name} → ${JSON.stringify(result.content)}`);
    }
  },

  async "http-invalid-tool-headers"() {
    const client = await connect(newClient());
    const tools = await client.listAllTools();
    log(`kept ${tools.map((t) => t.name).join(", ")}`);
    for (const tool of tools) await client.callTool(tool.name, sampleArguments(tool));
  },

  // Not scored by --requirements 2026-07-28 (added after the release); run for information.
  async "json-schema-2020-12-preservation"() {
    const client = await connect(newClient());
    const tools = await client.listAllTools();
    const focal = tools.find((t) => t.name === "json_schema_2020_12_tool");
    if (!focal) throw new Error("the scenario's json_schema_2020_12_tool is missing");
    await client.callTool("json_schema_echo", { schema: focal.inputSchema });
  },

  async "json-schema-ref-no-deref"() {
    const client = await connect(newClient());
    const tools = await client.listAllTools();
    log(`listed ${tools.map((t) => t.name).join(", ")}`);
  },
};

/** Any other scenario (auth, ...): list the tools and call each, with the context's calls when given. */
async function generic(): Promise<void> {
  const client = await connect(newClient());
  const tools = await client.listAllTools();
  const calls = context.toolCalls ?? tools.map((tool) => ({ name: tool.name, arguments: sampleArguments(tool) }));
  for (const call of calls) await client.callTool(call.name, call.arguments ?? {});
}

if (!url || !/^https?:\/\//.test(url)) {
  log("usage: main.js <server-url> (the scenario name comes from MCP_CONFORMANCE_SCENARIO)");
  process.exit(2);
}

try {
  await (scenarios[scenario] ?? generic)();
  log(`${scenario || "(no scenario)"}: done`);
  process.exit(0);
} catch (error) {
  const code = (error as { code?: unknown }).code;
  log(`${scenario}: failed${typeof code === "number" ? ` (${code})` : ""}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
