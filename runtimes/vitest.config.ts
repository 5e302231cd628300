import { defineConfig } from "vitest/config";
import { HANG_GUARD } from "../test-support/vitest.js";

// Each test starts a Bun, Deno, Node 22 or workerd process (about a second each on a loaded
// machine); the waits inside the tests are bounded on their own.
export default defineConfig({
  test: {
    ...HANG_GUARD,
  },
});
