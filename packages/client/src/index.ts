/**
 * `@x/client`: an MCP client for protocol revision 2026-07-28 (work in progress).
 */
export {};
