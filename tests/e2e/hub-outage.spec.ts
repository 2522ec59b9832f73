/**
 * The hub stops answering while a webhook is watched: its page still shows the webhook as the
 * watch last read it, says that the hub is not answering and since when the copy dates, and
 * Delivery health answers from the watch. A webhook nobody watches gets the hub's error alone.
 */
import { expect, test } from "@playwright/test";
import { DEMO_WEBHOOKS } from "../../lib/sandbox/seed";
import { LoginPage } from "./fixtures/pages";
import { startFaultStack, type FaultStack } from "./security/fault-stack";

/** The demo's webhook answering 200, watched out of the box with a short history. */
const WATCHED = DEMO_WEBHOOKS[0]!;

test.describe.configure({ mode: "serial", timeout: 120_000 });
// The console of this spec's own stack, on the free port it took in beforeAll (the hook itself
// runs before there is one).
test.use({ baseURL: async ({}, provide) => provide(stack?.console.url) });

let stack: FaultStack;

test.beforeAll(async () => {
  stack = await startFaultStack({
    hubTimeoutMs: 2000,
    env: { WATCH_IN_CONSOLE: "1", WATCH_INTERVAL_SECONDS: "5" },
  });
});

test.afterAll(async () => {
  await stack?.stop();
});

test("a watched webhook's page shows the watch's copy and says the hub is not answering", async ({
  page,
}) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signInWithDemoKey();
  // The watcher's first read of the webhook.
  await expect
    .poll(
      async () => {
        const answer = (await (await page.request.get("/api/watches?q=")).json()) as {
          rows: Array<{ webhookId: string; asOf: string | null }>;
        };
        return answer.rows.find((row) => row.webhookId === WATCHED.id)?.asOf ?? null;
      },
      { timeout: 60_000 },
    )
    .not.toBeNull();

  await stack.setFaults({ errorRate: 1 });
  await page.goto(`/webhooks/${WATCHED.id}`);
  const notice = page.getByText("The Messaging Hub is not answering", { exact: true });
  await expect(notice).toBeVisible();
  await expect(
    page.getByText(
      /Shown instead: this webhook as the watch last read it, at \d{1,2} \w{3,4} \d{4}, \d\d:\d\d:\d\d/,
    ),
  ).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: WATCHED.label })).toBeVisible();
  await expect(
    page.getByRole("region", { name: "Delivery health" }).getByText(/^From the watch, as of/),
  ).toBeVisible({ timeout: 20_000 });

  // A webhook nobody watches: the hub's error alone.
  await page.goto("/webhooks/00000000-0000-4000-8000-000000000000");
  await expect(page.getByText(/HTTP 50[03]/).first()).toBeVisible();
  await expect(notice).toHaveCount(0);

  // The hub back: the page is live again.
  await stack.faultsOff();
  await page.goto(`/webhooks/${WATCHED.id}`);
  await expect(page.getByRole("heading", { level: 1, name: WATCHED.label })).toBeVisible();
  await expect(notice).toHaveCount(0);
});
