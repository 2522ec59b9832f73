import { defineConfig } from "@playwright/test";
import base from "../../../playwright.config";

/**
 * The security specs start their own console and sandbox (support.ts), so they can run without
 * the shared web server: `npx playwright test -c tests/e2e/security/playwright.config.ts`.
 * Under the main config they run too; the shared server is then simply not used by them.
 */
export default defineConfig({
  ...base,
  testDir: ".",
  webServer: undefined,
  workers: 2,
});
