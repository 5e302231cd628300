/**
 * The five generated validators the Multi Round-Trip asks use, imported by
 * name so that a bundler keeps only these. `mrtr.ts` loads this module on
 * the first ask, not at import.
 */
export { CreateMessageRequestParams, CreateMessageResult, ElicitRequestFormParams, ElicitResult, ListRootsResult } from "@x/mcp-v2607/validators";
