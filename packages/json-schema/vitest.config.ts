import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The sources' default validator (package.json "imports" point at dist/ for programs).
  resolve: { alias: { "#default-validator": fileURLToPath(new URL("./src/ajv.ts", import.meta.url)) } },
  test: {
    include: ["test/**/*.test.ts"],
    // Some tests bundle a program with esbuild and run it in a child process: seconds on a loaded 2-core machine.
    testTimeout: 30_000,
  },
});
