import { expect, test } from "./fixtures/test";
import { OverviewPage } from "./fixtures/watch-pages";

/**
 * A rotated key, when nobody holds the old one any more (the sessions that did have ended): the
 * first person to sign in with the new key finds the application's watches, names and history on
 * the Overview, with nothing to hand over.
 */
test("signing in with a rotated key carries the watches over, without the old key", async ({
  page,
  sandbox,
  signInWithKey,
}) => {
  // It waits for the watcher to meet the rotated key (WATCH_INTERVAL_SECONDS in playwright.config.ts).
  test.setTimeout(120_000);
  const { application, channel, webhook } = await sandbox.isolatedSetup("carry-over");
  await sandbox.sendMessage(application.apiKey, channel, "before the rotation");
  await signInWithKey(application.apiKey);
  const watched = await page.request.post("/api/watches", {
    data: { webhookId: webhook.id, name: "Carried Co" },
  });
  expect(watched.status(), await watched.text()).toBe(201);
  const overview = new OverviewPage(page);
  await overview.goto();
  await overview.allRead();
  await expect(overview.row("Carried Co")).toContainText("100 %");

  const newKey = await sandbox.rotateKey(application.id);
  // The watcher met the old key's 401: the Overview offers the hand-over.
  await expect(async () => {
    await page.reload();
    await expect(page.getByLabel("New API key for Default")).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 45_000 });

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await signInWithKey(newKey);
  await overview.goto();
  await expect(overview.row("Carried Co")).toContainText(webhook.endpoint);
  await expect(overview.row("Carried Co")).toContainText("100 %");
  await expect(page.getByLabel(/^New API key for/)).toHaveCount(0);
  await expect(overview.row("Carried Co")).not.toContainText("Key rejected");
});
