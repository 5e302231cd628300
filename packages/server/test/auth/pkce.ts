// PKCE (RFC 7636) for the test's authorization-code flow: a verifier and its S256 challenge.
import { createHash, randomBytes } from "node:crypto";

export function randomPKCECodeVerifier(): string {
  return randomBytes(32).toString("base64url");
}

export async function calculatePKCECodeChallenge(verifier: string): Promise<string> {
  return createHash("sha256").update(verifier).digest("base64url");
}
