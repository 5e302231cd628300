import { defineConfig } from "vitest/config";
import { HANG_GUARD } from "../../test-support/vitest.js";

export default defineConfig({
  test: {
    ...HANG_GUARD,
    include: ["test/**/*.test.ts"],
  },
});
