/**
 * A watched webhook's page answers its history questions from the watch's store: the sandbox's
 * demo webhooks are watched out of the box (the console's watcher polls every
 * WATCH_INTERVAL_SECONDS, see playwright.config.ts), so once the busy one is caught up, Delivery
 * health, the filtered table, Find and exports say "From the watch, as of … ago", while the
 * pages of the log table still come live from the API. A webhook nobody watches is answered from
 * the console's own copy of its history, and says so.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { healthAnswered } from "./fixtures/pages";

test.describe.configure({ timeout: 180_000 });

const FROM_WATCH = /^From the watch, as of \d+ (s|min) ago; /;
const health = (page: Page) => page.getByRole("region", { name: "Delivery health" });

test.describe("a watched webhook's page", () => {
  test("answers health, filters, Find and exports from the watch, and the table's first page live", async ({
    page,
    sandbox,
    signInWithDemoKey,
    webhookPage,
  }) => {
    const busy = await sandbox.demoWebhook("Busy");
    await signInWithDemoKey();
    // The demo is watched at start; its busy webhook's history is read first (the backfill).
    await expect(async () => {
      await page.goto(`/webhooks/${busy.id}`);
      await expect(health(page).getByText(FROM_WATCH)).toBeVisible({ timeout: 10_000 });
    }).toPass({ timeout: 150_000 });
    await healthAnswered(page);
    const appId = new URL(page.url()).searchParams.get("app")!;

    // The table is the hub's own pages, live: the next page is the hub's second page.
    await expect(webhookPage.rows.first()).toBeVisible();
    await webhookPage.nextPage.click();
    await expect(webhookPage.pageOf).toContainText("Page 2 of");
    const { apiKey: key } = await sandbox.demo();
    const second = (await sandbox.allLogs(busy.id, key)).slice(20, 40).map((log) => log.id);
    const shown = await webhookPage.rows.evaluateAll((rows) =>
      rows.map((row) => row.getAttribute("data-log-id")),
    );
    // Deliveries may land meanwhile and push the page on by one or two.
    expect(shown.filter((id) => second.includes(id!)).length).toBeGreaterThan(15);

    // The filtered table: from the store, and it says so.
    const since = new Date(Date.now() - 86_400_000).toISOString();
    await page.goto(`/webhooks/${busy.id}?app=${appId}&status=Failed&code=500&since=${since}`);
    await expect(page.getByText(/^[\d,]+ match(es)? in [\d,]+ deliveries read/)).toBeVisible({
      timeout: 20_000,
    });
    await expect(page.getByText(FROM_WATCH).last()).toBeVisible();
    expect(new Set(await webhookPage.column("HTTP status"))).toEqual(new Set(["500"]));

    // Find (and so a ?log= link) and an export, from the store too.
    const { apiKey } = await sandbox.demo();
    const logs = await sandbox.allLogs(busy.id, apiKey);
    const target = logs[200]!;
    const found = await page.request.get(`/api/webhooks/${busy.id}/history/find?app=${appId}&q=${target.id}`);
    expect(found.ok()).toBe(true);
    expect(await found.json()).toMatchObject({ log: { id: target.id }, source: { watched: true } });
    const exported = await page.request.get(
      `/api/webhooks/${busy.id}/history/export?app=${appId}&format=csv&status=Failed&since=${since}`,
    );
    expect(exported.ok()).toBe(true);
    expect(JSON.parse(exported.headers()["x-history-source"]!)).toMatchObject({ watched: true });
    await page.goto(`/webhooks/${busy.id}?app=${appId}&log=${target.id}`);
    await expect(webhookPage.dialog.getByText(`Log ${target.id}`)).toBeVisible({ timeout: 20_000 });
  });

  test("a webhook nobody watches is answered from the console's own copy, and says so", async ({
    page,
    sandbox,
    signInWithKey,
  }) => {
    const { application, webhook } = await sandbox.isolatedSetup("unwatched-page");
    await signInWithKey(application.apiKey);
    await page.goto(`/webhooks/${webhook.id}`);
    await expect(health(page).getByText(/^From the console's copy, as of /)).toBeVisible({ timeout: 20_000 });
    await expect(health(page).getByText(FROM_WATCH)).toHaveCount(0);
  });
});
