import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  answers,
  freePort,
  ROOT,
  spawnServer,
  waitUntilReady,
  type ServerProcess,
} from "../support/server-process";

/**
 * Alerts right after `npm start`: the launcher starts the sandbox and the console, with no
 * ALERTS_ALLOW_PRIVATE, and the Alerts page adds the sandbox's inbox in one click; Send test
 * alert arrives there, signed. A neighbouring port of the sandbox stays refused: only the inbox's
 * exact origin is allowed. Both on free ports.
 */

let launcher: ServerProcess;
let sandboxPort = 0;
let consoleUrl = "";
let sandboxUrl = "";

test.describe.configure({ mode: "serial", timeout: 90_000 });

test.beforeAll(async () => {
  test.setTimeout(150_000);
  const port = await freePort();
  sandboxPort = await freePort();
  consoleUrl = `http://127.0.0.1:${port}`;
  sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  launcher = spawnServer("npm start", ["--import", "tsx", path.join(ROOT, "lib/launch/main.ts"), "start"], {
    HOST: "127.0.0.1",
    PORT: String(port),
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_DB: ":memory:",
    SANDBOX_SEED: "demo",
    SESSION_SECRET: "sandbox-inbox-e2e-session-secret-0123456789",
    WATCH_DB: ":memory:",
    HUB_BASE_URL: "",
    ALERTS_ALLOW_PRIVATE: "0",
  });
  await waitUntilReady(launcher, answers(`${consoleUrl}/login`), 120_000);
});

test.afterAll(async () => {
  await launcher?.stop();
});

test("after npm start, the sandbox inbox is added in one click and a test alert arrives in it", async ({
  page,
  request,
}) => {
  await page.goto(`${consoleUrl}/login`);
  await page.getByRole("button", { name: "Use sandbox demo key" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  await page.goto(`${consoleUrl}/alerts`);
  const form = page.getByRole("form", { name: "Add destination" });

  // Only the inbox's exact origin is allowed: the sandbox's neighbouring port is not.
  await form.getByLabel("Kind").selectOption({ label: "Signed JSON webhook" });
  await form.getByLabel("Name", { exact: true }).fill("Next door");
  await form
    .getByLabel("Webhook URL", { exact: true })
    .fill(`http://127.0.0.1:${sandboxPort + 1}/_sandbox/inbox/webhook`);
  await form.getByRole("button", { name: "Add destination" }).click();
  await expect(form.getByText(/^Webhook URL: only https:\/\/ addresses are called/)).toBeVisible();

  await form.getByRole("button", { name: "Add the sandbox inbox" }).click();
  await expect(form.getByText('Added "Sandbox inbox"')).toBeVisible();
  const destinations = page.getByRole("region", { name: "Destinations" });
  const inboxDestination = destinations.getByRole("listitem", { name: "Sandbox inbox" });
  await expect(destinations.getByRole("listitem")).toHaveCount(1);

  await inboxDestination.getByRole("button", { name: "Send test alert" }).click();
  await expect(destinations.getByRole("status")).toHaveText(
    'Test alert to "Sandbox inbox": Delivered (answered 204) after 1 attempt.',
  );

  const arrived = await request.get(`${sandboxUrl}/_sandbox/inbox`);
  expect(arrived.ok()).toBe(true);
  const { items } = (await arrived.json()) as {
    items: Array<{ channel: string; verified: boolean | null; body: string }>;
  };
  // The demo's watched webhooks may fire real alerts into it too: the test alert is the one sent here.
  const tests = items.filter((item) => (JSON.parse(item.body) as { type: string }).type === "alert.test");
  expect(tests).toHaveLength(1);
  expect(tests[0]).toMatchObject({ channel: "webhook", verified: true });
});
