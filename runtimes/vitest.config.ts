import { defineConfig } from "vitest/config";

// Each test starts a Bun, Deno, Node 22 or workerd process (about a second each on a loaded
// machine); the waits inside the tests are bounded on their own.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
