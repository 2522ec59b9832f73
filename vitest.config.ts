import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      // `server-only` throws outside a React Server bundle; unit tests run server code directly.
      "server-only": fileURLToPath(new URL("./tests/support/empty-module.ts", import.meta.url)),
    },
  },
  test: {
    environment: "node",
    include: ["lib/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "tests/**/*.test.ts"],
    exclude: ["node_modules/**", "tests/e2e/**", ".next/**", ".next-*/**"],
    // The tests wait on real servers and timers more than they compute: one file per core, not
    // vitest's default of one fewer.
    maxWorkers: "100%",
    // A test that opens the watch store without naming one gets its own, never the repo's `.data/`.
    env: { WATCH_DB: ":memory:" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
