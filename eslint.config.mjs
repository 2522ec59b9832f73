import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import pluginQuery from "@tanstack/eslint-plugin-query";

/** Import paths of one part of `lib/`, in both spellings (the `@/` alias and relative). */
const part = (name) => [
  `@/lib/${name}`,
  `@/lib/${name}/**`,
  `**/lib/${name}`,
  `**/lib/${name}/**`,
  `../${name}/**`,
  `../../${name}/**`,
];

const rule = (message, ...names) => ({ group: names.flatMap(part), message });

const serverOnly = rule("lib/server is server-only: browser and domain code never import it.", "server");
const browserOnly = rule("lib/browser is browser code: domain code never imports it.", "browser");
const consoleCode = {
  group: [...["server", "browser"].flatMap(part), "@/components/**", "@/app/**", "**/components/**"],
  message:
    "The sandbox and the launcher are their own programs: they import only lib/domain (the spec's schemas and pure rules).",
};

/**
 * Where code runs decides what it may import (README, "How it is built"):
 * lib/domain imports neither lib/server nor lib/browser; browser code (lib/browser, client
 * components) never imports lib/server; the sandbox and the launcher import no console code.
 */
const boundaries = [
  {
    files: ["lib/domain/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            serverOnly,
            browserOnly,
            {
              group: ["server-only", "next/*", "react", "react-dom"],
              message: "lib/domain is pure: no framework, no I/O.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/browser/**", "components/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [serverOnly] }] },
  },
  {
    files: ["lib/sandbox/**", "lib/launch/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [consoleCode] }] },
  },
  {
    files: ["lib/server/store/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            rule(
              "lib/server/store is the bottom layer: the modules that query it import it, never the other way.",
              ...["watch", "history", "alerts", "bundle", "metrics", "maintenance"].map(
                (name) => `server/${name}`,
              ),
            ),
          ],
        },
      ],
    },
  },
  {
    files: ["lib/server/store/migrations/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/**", "./**", "../**", "server-only"],
              message:
                "A migration is frozen: it imports nothing but Kysely, so it never changes when code does.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["lib/server/alerts/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            rule(
              "The watcher calls the alert engine; alerts read the store, not the watch's or the history's modules.",
              ...["watch", "history", "bundle", "metrics"].map((name) => `server/${name}`),
            ),
          ],
        },
      ],
    },
  },
];

/** Prettier wraps code at 110; text it cannot wrap (strings, comments) stops at 160. Tailwind class lists may run on. */
const lineLength = {
  rules: { "max-len": ["error", { code: 160, ignoreUrls: true, ignorePattern: 'className="' }] },
};

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  ...pluginQuery.configs["flat/recommended"],
  ...boundaries,
  lineLength,
  globalIgnores([
    ".next/**",
    ".next-*/**",
    "out/**",
    "next-env.d.ts",
    "test-results/**",
    "test-results-*/**",
    "playwright-report/**",
    "bench-results/**",
    ".data/**",
    "tests/bench/bare-next/.next/**",
    "tests/bench/bare-next/next-env.d.ts",
  ]),
]);
