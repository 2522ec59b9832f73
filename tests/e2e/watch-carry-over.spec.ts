import { expect, test } from "./fixtures/test";
import { SANDBOX_URL } from "./fixtures/sandbox";
import { OverviewPage } from "./fixtures/watch-pages";

/**
 * A rotated key, in a session that holds only the old one: once the watcher meets the hub's 401,
 * the old cookie no longer shows what the console keeps (it is signed out, as the hub's 401 signs
 * it out), and signing in with the new key lists what it would take over before anything moves.
 * A destination the person does not recognise is dropped; the rest comes over.
 */
test("signing in with a rotated key lists what it takes over, and carries the watches and kept destinations", async ({
  page,
  sandbox,
  signInWithKey,
  loginPage,
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
  for (const label of ["Team Slack", "Planted Slack"]) {
    const added = await page.request.post("/api/alerts/destinations", {
      data: { kind: "slack", label, url: `${SANDBOX_URL}/_sandbox/inbox/slack?${label.split(" ")[0]}` },
    });
    expect(added.status(), await added.text()).toBe(201);
  }
  const overview = new OverviewPage(page);
  await overview.goto();
  await overview.allRead();
  await expect(overview.row("Carried Co")).toContainText("100 %");

  const newKey = await sandbox.rotateKey(application.id);
  // The watcher met the old key's 401: the old cookie is signed out, and told why.
  await expect(async () => {
    await page.reload();
    await expect(page).toHaveURL(/\/login\?reason=key_rejected/, { timeout: 1000 });
  }).toPass({ timeout: 45_000 });

  await loginPage.signInWith(newKey);
  await expect(page.getByText(/Watches: 1 webhook: "Carried Co"/)).toBeVisible();
  await expect(page.getByText(/Snoozes: none\./)).toBeVisible();
  await page.getByRole("checkbox", { name: /Planted Slack/ }).uncheck();
  await expect(page.getByRole("checkbox", { name: /Team Slack/ })).toBeChecked();
  await page.getByRole("button", { name: "Carry over to this key" }).click();
  await expect(page).toHaveURL(/\/webhooks$/);

  await overview.goto();
  await expect(overview.row("Carried Co")).toContainText(webhook.endpoint);
  await expect(overview.row("Carried Co")).toContainText("100 %");
  await expect(page.getByLabel(/^New API key for/)).toHaveCount(0);
  await expect(overview.row("Carried Co")).not.toContainText("Key rejected");
  const destinations = await page.request.get("/api/alerts/destinations");
  expect(((await destinations.json()) as { destinations: Array<{ label: string }> }).destinations).toEqual([
    expect.objectContaining({ label: "Team Slack" }),
  ]);
  expect(await page.content()).not.toContain(newKey);
});
