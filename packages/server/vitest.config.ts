import { defineConfig } from "vitest/config";
import { HANG_GUARD } from "../../test-support/vitest.js";

export default defineConfig({
  test: {
    ...HANG_GUARD,
    // Type-level tests (expectTypeOf, @ts-expect-error in *.test-d.ts) are checked by tsc as part of the run.
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    server: {
      deps: {
        // Workspace packages are loaded by Node as built (dist/), not transformed
        // by vite: the generated validators module is large, and the server loads
        // it on the first ask, inside a test.
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
