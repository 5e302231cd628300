import { defineConfig } from "vitest/config";
import { HANG_GUARD } from "../../test-support/vitest.js";

export default defineConfig({
  test: {
    ...HANG_GUARD,
    include: ["test/**/*.test.ts"],
    // Type-level tests (expectTypeOf in *.test-d.ts) are checked by tsc as part of the run.
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
