/**
 * What an app gives the HTTP transport to authorize (spec 2026-07-28,
 * basic/authorization): its hooks and where tokens are kept.
 */
import { nodeBuiltin } from "@x/jsonrpc";
import { utf8Length } from "../transports/jsonrpc.js";
import { DEFAULT_MAX_TOKEN_FILE_BYTES, integerOption, rejectUnknown } from "./options.js";

/** `node:fs/promises`, loaded when a FileTokenStore first reads or writes: a browser build of the client has no file system. */
const files = (): typeof import("node:fs/promises") => nodeBuiltin("node:fs/promises");

/**
 * A client identity known before any registration: pre-registered
 * credentials (spec 2026-07-28, basic/authorization/client-registration
 * "Pre-registration"). `token_endpoint_auth_method` defaults to what the
 * authorization server advertises (`client_secret_basic`, `client_secret_post`,
 * or `none` for a client without a secret).
 */
export interface OAuthClientInformation {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method?: string;
}

/**
 * The client metadata sent in dynamic client registration (RFC 7591). The
 * transport fills `redirect_uris` from `redirectUrl`, `grant_types`
 * (`authorization_code`, `refresh_token`), `response_types` and
 * `application_type` (`"native"` for a loopback or custom-scheme redirect,
 * else `"web"`) unless given here.
 */
export interface OAuthClientMetadata {
  client_name?: string;
  application_type?: "native" | "web";
  grant_types?: string[];
  redirect_uris?: string[];
  scope?: string;
  [member: string]: unknown;
}

/** Tokens as kept in a {@link TokenStore}: `expires_at` and `issued_at` in seconds since the epoch. */
export interface StoredTokens {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  expires_at?: number;
  /** When the token endpoint answered; with `expires_at` it gives the token's lifetime. */
  issued_at?: number;
  scope?: string;
}

/**
 * What the transport keeps per MCP endpoint: the authorization server the
 * state is bound to (`issuer`), the client registered there (dynamic
 * registration only; pre-registered clients are not stored), the tokens, and
 * the scopes last asked for (the base of a step-up). Everything is dropped
 * when the server names another authorization server.
 */
export interface StoredAuthorization {
  issuer: string;
  client?: OAuthClientInformation;
  tokens?: StoredTokens;
  scopes?: string[];
}

/**
 * Where tokens and registrations live, keyed by the MCP endpoint URL. Calls
 * may reject; the transport then fails the request with that error.
 */
export interface TokenStore {
  /** What is stored for the endpoint `key`; `undefined` when nothing is. */
  load(key: string): StoredAuthorization | undefined | Promise<StoredAuthorization | undefined>;
  /** Replaces what is stored for `key` (after a grant, a refresh or a registration). */
  save(key: string, value: StoredAuthorization): void | Promise<void>;
  /** Forgets `key` (the endpoint named another authorization server, so what was stored is void). */
  clear(key: string): void | Promise<void>;
}

/** The default {@link TokenStore}: a `Map` in this process, gone when it exits. */
export class InMemoryTokenStore implements TokenStore {
  readonly #entries = new Map<string, StoredAuthorization>();
  /** A copy of what is stored for `key`, so a caller's changes do not reach the store. */
  load(key: string): StoredAuthorization | undefined {
    const value = this.#entries.get(key);
    return value === undefined ? undefined : structuredClone(value);
  }
  /** Stores a copy of `value` for `key`. */
  save(key: string, value: StoredAuthorization): void {
    this.#entries.set(key, structuredClone(value));
  }
  /** Forgets `key`. */
  clear(key: string): void {
    this.#entries.delete(key);
  }
}

/** Options of {@link FileTokenStore}. */
export interface FileTokenStoreOptions {
  /**
   * Largest file read, in bytes: a positive integer, default 1 MiB
   * (1 048 576). A larger file reads as empty, so raise it when one file
   * keeps the tokens of very many endpoints.
   */
  maxFileBytes?: number;
}

const FILE_STORE_OPTIONS: Record<keyof FileTokenStoreOptions, true> = { maxFileBytes: true };

/**
 * A {@link TokenStore} in one JSON file, for CLIs: readable and writable by
 * the owner only (mode 0600, set on every write), written to a temporary
 * file and renamed so a crash never leaves half a file. A missing, unreadable,
 * malformed or oversized (over `maxFileBytes`) file reads as empty. Not safe
 * for several processes writing at once.
 */
export class FileTokenStore implements TokenStore {
  readonly #maxFileBytes: number;

  /**
   * A store in the file at `path`, which need not exist yet.
   * @param path the file, e.g. `~/.config/my-cli/mcp-tokens.json`; its folder is created (mode 0700).
   * @throws TypeError for an unknown option or a `maxFileBytes` that is not a positive integer.
   */
  constructor(
    readonly path: string,
    options: FileTokenStoreOptions = {},
  ) {
    rejectUnknown("FileTokenStore", options, Object.keys(FILE_STORE_OPTIONS));
    this.#maxFileBytes = integerOption("maxFileBytes", options.maxFileBytes, DEFAULT_MAX_TOKEN_FILE_BYTES, 1);
  }

  /** The authorization stored under `key`; `undefined` when there is none or the file cannot be read. */
  async load(key: string): Promise<StoredAuthorization | undefined> {
    return (await this.#read())[key];
  }

  /** Stores `value` under `key`, rewriting the whole file (mode 0600). */
  async save(key: string, value: StoredAuthorization): Promise<void> {
    const all = await this.#read();
    all[key] = value;
    await this.#write(all);
  }

  /** Removes what is stored under `key`; the file is not written when there was nothing. */
  async clear(key: string): Promise<void> {
    const all = await this.#read();
    if (!(key in all)) return;
    delete all[key];
    await this.#write(all);
  }

  async #read(): Promise<Record<string, StoredAuthorization>> {
    let text: string;
    try {
      text = await files().readFile(this.path, "utf8");
    } catch {
      return {};
    }
    if (utf8Length(text) > this.#maxFileBytes) return {};
    try {
      const value = JSON.parse(text) as unknown;
      return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, StoredAuthorization>) : {};
    } catch {
      return {};
    }
  }

  async #write(all: Record<string, StoredAuthorization>): Promise<void> {
    const fs = files();
    await fs.mkdir(nodeBuiltin<typeof import("node:path")>("node:path").dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    await fs.writeFile(temporary, JSON.stringify(all), { mode: 0o600 });
    await fs.chmod(temporary, 0o600);
    await fs.rename(temporary, this.path);
  }
}

/** What the `authorize` hook is told besides the URL. */
export interface AuthorizeContext {
  /** The `state` the redirect must carry back (already in the URL). */
  state: string;
  /** The issuer of the authorization server the user is sent to. */
  issuer: string;
}

/**
 * A grant that needs no user: `client_credentials` (see `clientCredentials()`)
 * or the JWT bearer grant (RFC 7523, see `jwtBearer()`). Built by those
 * helpers; its members are not a stable API.
 */
export interface MachineGrant {
  readonly kind: "client_credentials" | "jwt_bearer";
  readonly client: OAuthClientInformation;
  /** PKCS#8 private key for `private_key_jwt` client authentication. */
  readonly privateKey?: CryptoKey;
  /** JWT bearer: returns the assertion for the given authorization server and resource. */
  readonly assertion?: (context: { issuer: string; tokenEndpoint: string; resource: string; scope?: string }) => Promise<string>;
  /** Scope to ask for when the server names none. */
  readonly scope?: string;
}

/**
 * The app's side of the authorization (an `OAuthClientProvider`): given to
 * `new StreamableHttpTransport(url, { auth })`.
 *
 * For the authorization code flow give `redirectUrl` and `authorize`; for a
 * machine client use `clientCredentials()` or `jwtBearer()` instead, which
 * fill `grant`. The client identity is, in this order (spec 2026-07-28,
 * basic/authorization/client-registration): `clientInformation`
 * (pre-registration), `clientMetadataUrl` when the authorization server
 * advertises `client_id_metadata_document_supported`, then dynamic client
 * registration with `clientMetadata`.
 */
export interface OAuthClientProvider {
  /** Where the authorization server sends the browser back, e.g. a {@link LoopbackRedirectReceiver}'s URL. */
  redirectUrl?: string | URL;
  /** Metadata for dynamic client registration (RFC 7591). */
  clientMetadata?: OAuthClientMetadata;
  /**
   * Sends the user to `authorizationUrl` (opens a browser, prints it, ...)
   * and resolves with the redirect the authorization server answered with:
   * the full redirect URL, or its query parameters (`code`, `state`, `iss`).
   * The transport checks `state` and `iss` itself. A rejection fails the
   * request with step `"authorization"`.
   */
  authorize?(authorizationUrl: URL, context: AuthorizeContext): Promise<string | URL | URLSearchParams>;
  /** Where tokens are kept. Default: an {@link InMemoryTokenStore}. */
  tokenStore?: TokenStore;
  /** Pre-registered client credentials, or a function choosing them by authorization server issuer. */
  clientInformation?: OAuthClientInformation | ((issuer: string) => OAuthClientInformation | undefined);
  /** An HTTPS URL of this client's Client ID Metadata Document, used as `client_id` where the server supports it. */
  clientMetadataUrl?: string;
  /** A grant without a user (see `clientCredentials()`, `jwtBearer()`). */
  grant?: MachineGrant;
  /**
   * Use DPoP (RFC 9449) when the authorization server advertises
   * `dpop_signing_alg_values_supported`: `true` makes an ES256 key pair for
   * this transport, or give your own. Default `false` (Bearer tokens).
   */
  dpop?: boolean | CryptoKeyPair;
  /**
   * Plain http for the OAuth requests and the authorization URL (spec
   * 2026-07-28, basic/authorization/security-considerations "Communication
   * Security": authorization server endpoints are https). Each URL is judged
   * by itself: the protected resource metadata, the authorization server
   * metadata, the authorization, registration and token endpoints. Default
   * (`undefined`): https, or http on a loopback host (`localhost`,
   * 127.0.0.0/8, `[::1]`) for local development; an https issuer does not
   * make an http endpoint acceptable. `true` allows http to any host (an
   * explicit opt-out, for test set-ups); `false` allows none, not even
   * loopback. A URL refused fails the request with -32097 naming the step
   * and the URL. The MCP endpoint itself is yours to choose and not judged.
   */
  allowInsecureRequests?: boolean;
  /**
   * Longest wait for each OAuth request (metadata, registration, token), from
   * sending it to the last byte of its answer, in milliseconds: a positive
   * integer of at most 2^31 - 1, default 10 000. A request that runs out fails
   * with -32097 naming its step, its URL and this limit.
   */
  requestTimeoutMs?: number;
  /**
   * How early a token is refreshed, in seconds: one that expires within this
   * margin is refreshed before it is sent (when there is a refresh token). A
   * non-negative integer, default 60; for a token that lives less than four
   * times as long, a quarter of its lifetime is used instead, so a
   * short-lived token is not refreshed before every request. Raise it when
   * clocks drift or requests are slow to arrive.
   */
  refreshMarginSeconds?: number;
}

/** Every member of {@link OAuthClientProvider}: a misspelt one is refused by name. */
export const PROVIDER_MEMBERS: readonly string[] = Object.keys({
  redirectUrl: true,
  clientMetadata: true,
  authorize: true,
  tokenStore: true,
  clientInformation: true,
  clientMetadataUrl: true,
  grant: true,
  dpop: true,
  allowInsecureRequests: true,
  requestTimeoutMs: true,
  refreshMarginSeconds: true,
} satisfies Record<keyof OAuthClientProvider, true>);
