import { defineConfig } from "vitest/config";
import { HANG_GUARD } from "../../test-support/vitest.js";

export default defineConfig({
  test: {
    ...HANG_GUARD,
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
