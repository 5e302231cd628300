/**
 * The generated validators of the answers Multi Round-Trip asks receive
 * (untrusted client input), imported by name so that a bundler keeps only
 * these. `asks.ts` loads this module on the first ask, not at import. What a
 * handler asks is checked by `@x/builders`' request builders instead.
 */
export { CreateMessageResult, ElicitResult, ListRootsResult } from "@x/mcp-v2607/validators";
