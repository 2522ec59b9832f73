import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests drive the real console (a production build) on top of the real sandbox,
 * both started by the launcher on loopback. Debian's chromium is used; Playwright never
 * downloads a browser. E2E_PORT / E2E_SANDBOX_PORT let two runs share a machine.
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const sandboxPort = Number(process.env.E2E_SANDBOX_PORT ?? 4100);

export const E2E_SESSION_SECRET = "e2e-only-session-secret-0123456789abcdef";

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  // Two cores run the console, its watcher and alert engine, the sandbox and two browsers at once.
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // The console writes times in the viewer's locale: the specs are one viewer (`26 Nov 2026, 00:18:51 UTC`).
    locale: "en-GB",
    // Recording every test's trace costs about a fifth of the run; CI records the retry of a failure.
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
    // A click or a navigation that cannot happen fails on its own, not after the whole test's time.
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    launchOptions: {
      executablePath: process.env.PLAYWRIGHT_CHROMIUM || "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    command: "node_modules/.bin/tsx lib/launch/main.ts start",
    url: `http://127.0.0.1:${port}/login`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      HOST: "127.0.0.1",
      PORT: String(port),
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_DB: ":memory:",
      SANDBOX_SEED: "demo",
      SANDBOX_DELIVERY_TIMEOUT_MS: "1500",
      SESSION_SECRET: E2E_SESSION_SECRET,
      // Specs sign in many times a minute from one address; the limiter itself is tested by its own spec.
      SIGN_IN_RATE_LIMIT_PER_MINUTE: process.env.SIGN_IN_RATE_LIMIT_PER_MINUTE ?? "60",
      // Each run starts with an empty watch store, and the watcher polls often enough for tests to wait on.
      WATCH_DB: ":memory:",
      WATCH_INTERVAL_SECONDS: "10",
      // Alert destinations may point at the sandbox's inbox on loopback.
      ALERTS_ALLOW_PRIVATE: "1",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
