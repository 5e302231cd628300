#!/usr/bin/env node
// `pnpm start [-- --stdio | --port N]`: builds the example server and its
// packages (turbo, output sent to stderr so that stdout stays clean for the
// stdio transport), then runs it in this process's place.
import { spawn, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const turbo = join(root, "node_modules", ".bin", "turbo");
const build = spawnSync(turbo, ["run", "build", "--filter=@x/examples...", "--output-logs=errors-only"], {
  cwd: root,
  stdio: ["ignore", 2, 2],
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
});
if (build.status !== 0) {
  process.stderr.write("start: the build failed\n");
  process.exit(build.status ?? 1);
}
const args = process.argv.slice(2).filter((a) => a !== "--");
const child = spawn(process.execPath, [join(root, "examples", "dist", "server.js"), ...args], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
