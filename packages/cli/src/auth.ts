/**
 * OAuth for `x-mcp`: the loopback browser flow of `@x/client`, tokens kept
 * in the user's config folder (`$XDG_CONFIG_HOME/x-mcp/tokens.json`, else
 * `~/.config/x-mcp/tokens.json`, mode 0600 by `FileTokenStore`).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { FileTokenStore, LoopbackRedirectReceiver, type OAuthClientProvider } from "@x/client";
import type { Io } from "./io.js";

/** The file `x-mcp` keeps its OAuth clients and tokens in. */
export function tokenFile(env: Io["env"]): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || env.USERPROFILE || ".", ".config");
  return join(base, "x-mcp", "tokens.json");
}

/** Opens `url` in a browser if one can be started; any failure is silent (the URL is printed anyway). */
function openBrowser(url: string): void {
  const command = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  try {
    const child = spawn(command, [url], { stdio: "ignore", detached: true });
    child.on("error", () => {});
    child.unref();
  } catch {
    // No browser: the user opens the printed URL.
  }
}

/** A provider for the HTTP transport, and the loopback receiver to close when done. */
export async function oauthFor(io: Io): Promise<{ auth: OAuthClientProvider; close: () => Promise<void> }> {
  const receiver = await LoopbackRedirectReceiver.start();
  const auth: OAuthClientProvider = {
    redirectUrl: receiver.redirectUrl,
    clientMetadata: { client_name: "x-mcp" },
    authorize: receiver.authorizeWith((url) => {
      io.stderr.write(`Sign in: open ${url.href}\n`);
      // Only a person at a terminal has a browser to open; X_MCP_NO_BROWSER turns it off.
      if (io.stderr.isTTY && !io.env.X_MCP_NO_BROWSER) openBrowser(url.href);
    }),
    tokenStore: new FileTokenStore(tokenFile(io.env)),
  };
  return { auth, close: () => receiver.close() };
}
