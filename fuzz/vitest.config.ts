import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The test spawns the built fixture (dist/) and talks to it; one file, one fork.
    testTimeout: 60_000,
    server: {
      deps: {
        external: [/packages\/mcp-v2607\/dist\//, /packages\/jsonrpc\/dist\//],
      },
    },
  },
});
