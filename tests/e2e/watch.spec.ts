import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import type { Sandbox } from "./fixtures/sandbox";
import { OverviewPage, WatchControl, WatchPage } from "./fixtures/watch-pages";
import { webhookHeading } from "./fixtures/pages";

/**
 * Watching, against the real sandbox and the console's own watcher: from a webhook's page (with a
 * name), then in its settings view (rename, snooze, Stop watching, which asks first), many
 * at once on the Watch page (an ID of another application refused with the hub's reason, nothing
 * stored for it). Each test has its own sandbox application, so the
 * demo's watches are not disturbed.
 */

/** Its own sandbox application, one delivery sent, signed in with its key, its webhook watched as `name`. */
async function watchedWithOneDelivery(
  page: Page,
  sandbox: Sandbox,
  signInWithKey: (apiKey: string) => Promise<void>,
  setup: string,
  name: string,
) {
  const { application, channel, webhook } = await sandbox.isolatedSetup(setup);
  await sandbox.sendMessage(application.apiKey, channel, "one delivery");
  await signInWithKey(application.apiKey);
  const watched = await page.request.post("/api/watches", { data: { webhookId: webhook.id, name } });
  expect(watched.status(), await watched.text()).toBe(201);
  return { application, webhook };
}

test.describe("watching", () => {
  test("from a webhook's page, with a name; its settings one click away; opened from the Overview; stopped there", async ({
    page,
    sandbox,
    signInWithKey,
    webhookPage,
  }) => {
    const { application, webhook } = await sandbox.isolatedSetup("watch-one");
    await signInWithKey(application.apiKey);
    await webhookPage.goto(webhook.id);
    const control = new WatchControl(page);
    await expect(page.getByRole("link", { name: "Settings" })).toHaveCount(0);
    await control.name.fill("Acme Corp");
    await control.watch.click();
    // Watched, the page is named by the watch, and its settings are one click away.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Acme Corp");
    await expect(control.watch).toHaveCount(0);
    await page.getByRole("link", { name: "Settings" }).click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/${webhook.id}/settings\\?app=[0-9a-f]{16}$`));
    await expect(control.name).toHaveValue("Acme Corp");
    await expect(control.stop).toBeVisible();
    await expect(page.getByRole("heading", { name: "Alerts for this webhook" })).toBeVisible();

    await page.getByRole("banner").getByRole("link", { name: "Overview" }).click();
    const overview = new OverviewPage(page);
    await expect(overview.row("Acme Corp")).toContainText(webhook.endpoint);
    await overview.row("Acme Corp").getByRole("link", { name: "Acme Corp" }).click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/${webhook.id}\\?app=[0-9a-f]{16}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Acme Corp" })).toBeVisible();

    await page.getByRole("link", { name: "Settings" }).click();
    await control.stopWatching();
    await expect(control.status).toContainText("No longer watched");
    await expect(control.status).toBeFocused();
    await expect(control.watch).toBeVisible();
    await page.getByRole("link", { name: "Back to the webhook" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(webhook.endpoint);
    await expect(control.watch).toBeVisible();
    await overview.goto();
    await expect(overview.empty).toBeVisible();
  });

  test("the settings view: renamed, snoozed and asked first before Stop watching; stopped, the page's history is the copy's", async ({
    page,
    sandbox,
    signInWithKey,
    webhookPage,
  }) => {
    // It waits for the watcher's first read (WATCH_INTERVAL_SECONDS in playwright.config.ts).
    test.setTimeout(120_000);
    const { webhook } = await watchedWithOneDelivery(
      page,
      sandbox,
      signInWithKey,
      "watch-reread",
      "Reread Co",
    );
    const health = page.getByRole("region", { name: "Delivery health" });
    const fromWatch = /^From the watch, as of \d+ (s|min) ago/;
    const fromCopy = /^From the console's copy, as of \d+ (s|min) ago/;
    await expect(async () => {
      await webhookPage.goto(webhook.id);
      await expect(health.getByText(fromWatch)).toBeVisible({ timeout: 5000 });
    }).toPass({ timeout: 60_000 });

    // Renamed in its settings: the page is named by the new name.
    await page.getByRole("link", { name: "Settings" }).click();
    const control = new WatchControl(page);
    await control.name.fill("Reread Co (EU)");
    await control.rename.click();
    await expect(control.status).toContainText('Renamed: watched as "Reread Co (EU)"');
    // Snoozed: said, and kept.
    const alerts = page.getByRole("region", { name: "Alerts for this webhook" });
    await alerts.getByRole("button", { name: /^Snooze/ }).click();
    await expect(alerts).toContainText("Snoozed until");
    await page.reload();
    await expect(control.name).toHaveValue("Reread Co (EU)");
    await expect(alerts).toContainText("Snoozed until");

    // Asked first, with focus on the question's safe answer; Escape keeps the watch.
    await control.stop.click();
    await expect(control.stop).toHaveAttribute("aria-expanded", "true");
    await expect(control.confirmation).toContainText("deletes the delivery history");
    await expect(control.cancelStop).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(control.confirmation).toHaveCount(0);
    await expect(control.stop).toBeFocused();
    await control.stop.click();
    await control.cancelStop.click();
    await expect(control.confirmation).toHaveCount(0);

    // Stopped: the page's history is the console's own copy, read from the hub.
    await control.stopWatching();
    await expect(control.status).toContainText("No longer watched");
    await webhookPage.goto(webhook.id);
    await expect(health.getByText(fromCopy)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(fromWatch)).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(webhook.endpoint);
  });

  test("many at once on the Watch page: each checked with the hub, an ID of another application refused", async ({
    page,
    sandbox,
    signInWithKey,
  }) => {
    const { application, webhook } = await sandbox.isolatedSetup("watch-many");
    const second = await sandbox.createWebhook(application.id, sandbox.receiver("error"));
    const notOurs = (await sandbox.demoWebhook("200")).id;
    await signInWithKey(application.apiKey);
    await page.goto("/webhooks");
    await page.getByRole("banner").getByRole("link", { name: "Watch", exact: true }).click();
    const watch = new WatchPage(page);
    await watch.ids.fill(
      ["id,name", `${webhook.id},"Acme, Inc."`, notOurs, "not-an-id", `${second.id},Globex`].join("\n"),
    );
    await watch.submit.click();
    await expect(watch.results).toBeVisible();
    await expect(
      page.getByRole("heading", { name: "2 newly watched, 0 already watched, 2 refused" }),
    ).toBeVisible();
    await expect(watch.result(2)).toContainText("Watched");
    await expect(watch.result(3)).toContainText(`No webhook ${notOurs} was found for this API key`);
    await expect(watch.result(4)).toContainText("is not a webhook ID");
    await expect(watch.result(5)).toContainText('Watched as "Globex"');
    // The refused lines stay in the box, to correct.
    await expect(watch.ids).toHaveValue(`${notOurs}\nnot-an-id`);

    // Pasted again, with another name for one: counted apart from the new ones, and each line agrees.
    await watch.ids.fill([`${webhook.id},Acme`, second.id].join("\n"));
    await watch.submit.click();
    await expect(
      page.getByRole("heading", { name: "0 newly watched, 2 already watched (1 renamed), 0 refused" }),
    ).toBeVisible();
    await expect(watch.result(1)).toContainText("Already watched");
    await expect(watch.result(1)).toContainText('Renamed from "Acme, Inc." to "Acme".');
    await expect(watch.result(2)).toContainText('Its name stays "Globex".');

    await page.getByRole("link", { name: "Open the overview" }).click();
    const overview = new OverviewPage(page);
    await expect(overview.rows).toHaveCount(2);
    await expect(overview.row("Acme")).toBeVisible();
    await expect(overview.row("Globex")).toBeVisible();
    await expect(overview.table).not.toContainText(notOurs);
  });

  test("a rotated key is handed over on the Overview: listed first, then the watch, its name and history kept", async ({
    page,
    sandbox,
    signInWithKey,
  }) => {
    // It waits for the watcher to poll twice (WATCH_INTERVAL_SECONDS in playwright.config.ts).
    test.setTimeout(120_000);
    const { application, webhook } = await watchedWithOneDelivery(
      page,
      sandbox,
      signInWithKey,
      "hand-over",
      "Rotating Co",
    );
    // A second application keeps the session (and the Overview) open once the first key is rejected.
    const other = await sandbox.isolatedSetup("hand-over-other");
    const added = await page.request.post("/api/applications", {
      data: { name: "Other shop", apiKey: other.application.apiKey },
    });
    expect(added.status(), await added.text()).toBe(201);
    const overview = new OverviewPage(page);
    await overview.goto();
    await overview.allRead();
    await expect(overview.row("Rotating Co")).toContainText("100 %");

    const newKey = await sandbox.rotateKey(application.id);
    const handOver = page.getByLabel("New API key for Default");
    await expect(async () => {
      await page.reload();
      await expect(handOver).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 45_000 });
    await expect(overview.watcher).toContainText("Default");
    // The rejected key's watch is no longer shown.
    await expect(overview.row("Rotating Co")).toHaveCount(0);

    // A key of another application does not read this webhook: refused, nothing changes.
    const stranger = await sandbox.isolatedSetup("hand-over-stranger");
    await handOver.fill(stranger.application.apiKey);
    await page.getByRole("button", { name: "Hand over key" }).click();
    await expect(page.getByText(new RegExp(webhook.id))).toBeVisible();
    await expect(handOver).toBeVisible();

    await handOver.fill(newKey);
    await page.getByRole("button", { name: "Hand over key" }).click();
    // What would move is listed before anything does.
    await expect(page.getByText(/Watches: 1 webhook: "Rotating Co"/)).toBeVisible();
    await expect(page.getByRole("group", { name: "Alert destinations to keep" })).toBeVisible();
    await page.getByRole("button", { name: "Carry over and use the new key" }).click();
    await expect(page.getByRole("status").filter({ hasText: "The new key was handed over" })).toBeVisible();
    await expect(handOver).toHaveCount(0);
    // The same row, its history kept.
    await expect(overview.row("Rotating Co")).toContainText(webhook.endpoint);
    await expect(overview.row("Rotating Co")).toContainText("100 %");
    expect(await page.content()).not.toContain(newKey);
    // The webhook's page opens with the new key, which the session now holds.
    await overview.row("Rotating Co").getByRole("link", { name: "Rotating Co" }).click();
    await expect(webhookHeading(page)).toContainText(webhook.endpoint);
  });

  test("a key replaced on the Applications page is handed over to the application's watches", async ({
    page,
    sandbox,
    signInWithKey,
  }) => {
    test.setTimeout(60_000);
    const { application, webhook } = await sandbox.isolatedSetup("replace-key");
    await signInWithKey(application.apiKey);
    const watched = await page.request.post("/api/watches", {
      data: { webhookId: webhook.id, name: "Replaced Co" },
    });
    expect(watched.status(), await watched.text()).toBe(201);
    const newKey = await sandbox.rotateKey(application.id);

    await page.goto("/applications");
    await page.getByText("Replace key of Default").click();
    await page.getByLabel("New API key for Default").fill(newKey);
    await page.getByRole("button", { name: "Replace key" }).click();
    await expect(page.getByText(/Watches: 1 webhook: "Replaced Co"/)).toBeVisible();
    await page.getByRole("button", { name: "Carry over and replace the key" }).click();
    await expect(page.getByRole("status")).toContainText("The key was replaced");
    // The watch moved to the new key's application, which the session now holds: no hand-over left to do.
    await page.getByRole("banner").getByRole("link", { name: "Overview" }).click();
    const overview = new OverviewPage(page);
    await expect(overview.row("Replaced Co")).toContainText(webhook.endpoint);
    await expect(page.getByLabel("New API key for Default")).toHaveCount(0);
    expect(await page.content()).not.toContain(newKey);
  });
});
