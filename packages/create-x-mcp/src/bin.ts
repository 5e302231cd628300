#!/usr/bin/env node
// The `create-x-mcp` executable (what `npm create x-mcp` runs).
import { run } from "./scaffold.js";

process.exitCode = await run(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
});
