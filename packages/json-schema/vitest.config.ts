import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { HANG_GUARD } from "../../test-support/vitest.js";

export default defineConfig({
  // The sources' default validator (package.json "imports" point at dist/ for programs).
  resolve: { alias: { "#default-validator": fileURLToPath(new URL("./src/ajv.ts", import.meta.url)) } },
  test: {
    ...HANG_GUARD,
    include: ["test/**/*.test.ts"],
  },
});
