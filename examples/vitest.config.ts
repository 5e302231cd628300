import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Every test drives a real server (a framework, Next.js, a child process) over HTTP or stdio: seconds on a loaded 2-core machine.
    testTimeout: 30_000,
  },
});
