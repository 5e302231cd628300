import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // A guard against a hang, not a measure of speed: on a loaded 2-core machine a
    // test that starts servers and child processes may take several seconds.
    testTimeout: 20_000,
    server: {
      deps: {
        // Workspace packages are loaded by Node as built (dist/), not transformed
        // by vite: the generated validators module is large, and the client loads
        // it on the first answer, inside a test.
        external: [
          /packages\/mcp-v2607\/dist\//,
          /packages\/mcp-v2511\/dist\//,
          /packages\/builders\/dist\//,
          /packages\/jsonrpc\/dist\//,
          /packages\/json-schema\/dist\//,
        ],
      },
    },
  },
});
