/**
 * `@x/cli`: the `x-mcp` command line (see the README, "Command line"), and
 * its entry for programs that run it in-process.
 *
 * @module @x/cli
 */
export type { Command, Io } from "./io.js";
export { ExitCode, main } from "./main.js";
