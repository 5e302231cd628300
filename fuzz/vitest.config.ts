import { defineConfig } from "vitest/config";
import { HANG_GUARD } from "../test-support/vitest.js";

export default defineConfig({
  test: {
    ...HANG_GUARD,
    server: {
      deps: {
        external: [/packages\/mcp-v2607\/dist\//, /packages\/jsonrpc\/dist\//],
      },
    },
  },
});
