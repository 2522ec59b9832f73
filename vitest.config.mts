import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const EXCLUDE = ["node_modules/**", "tests/e2e/**", ".next/**", ".next-*/**"];
// Pure units: no servers, stores, environment variables or module mocks, so their files can share a
// worker's modules (project "unit").
const UNIT_TESTS = [
  "lib/domain/**/*.test.ts",
  "lib/browser/**/*.test.ts",
  "lib/launch/**/*.test.ts",
  "tests/bench/**/*.test.ts",
];

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      // `server-only` throws outside a React Server bundle; unit tests run server code directly.
      "server-only": fileURLToPath(new URL("./tests/support/empty-module.ts", import.meta.url)),
    },
  },
  test: {
    // The tests wait on real servers and timers more than they compute: one file per core, not
    // vitest's default of one fewer.
    maxWorkers: "100%",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          environment: "node",
          include: ["lib/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "tests/**/*.test.ts"],
          exclude: [...EXCLUDE, ...UNIT_TESTS],
          // A test that opens the watch store without naming one gets its own, never the repo's `.data/`.
          env: { WATCH_DB: ":memory:" },
          // One PostgreSQL cluster for the run; each test that needs one gets a fresh database on it.
          globalSetup: ["tests/support/postgres-global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "unit",
          environment: "node",
          include: UNIT_TESTS,
          exclude: EXCLUDE,
          // One import of each module per worker rather than per file: these files hold no state.
          isolate: false,
        },
      },
      {
        // Components as a person uses them (Testing Library), in a simulated DOM: forms, dialogs, tables and their states.
        extends: true,
        test: {
          name: "dom",
          environment: "happy-dom",
          // Each file in a fresh VM context of a reused process: happy-dom, React and Testing Library
          // are not loaded again per file. Node's require(esm) would load @swc/helpers' ESM build
          // (next/link) as CommonJS there.
          pool: "vmForks",
          execArgv: ["--no-experimental-require-module"],
          include: ["components/**/*.test.tsx", "lib/browser/**/*.test.tsx"],
          exclude: EXCLUDE,
          setupFiles: ["tests/support/dom-setup.ts"],
          // A test's stand-in for `fetch` (tests/support/component-api.tsx) ends with the test.
          unstubGlobals: true,
        },
      },
    ],
  },
});
