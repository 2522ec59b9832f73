import { expect, test } from "./fixtures/test";

test("Auto-refresh picks up a new delivery by itself", async ({ page, sandbox, signInWithKey, webhookPage }) => {
  const { application, channel, webhook } = await sandbox.isolatedSetup("live", "ok");
  await signInWithKey(application.apiKey);
  await webhookPage.goto(webhook.id);
  await expect(page.getByText("No deliveries recorded for this webhook yet")).toBeVisible();
  await webhookPage.autoRefresh.check();
  await expect(webhookPage.autoRefresh).toBeChecked();

  // Another integration sends a message; nobody touches the page.
  const sent = await sandbox.sendMessage(application.apiKey, channel, "live update");
  const messageId = sent.messageId ?? sent.id!;
  const row = webhookPage.row(messageId);
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row).toContainText("Success");
  await expect(webhookPage.pageOf).toHaveText("Page 1 of 1");
});
