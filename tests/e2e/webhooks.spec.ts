import { expect, test } from "./fixtures/test";
import { webhookHeading } from "./fixtures/pages";

test.describe("/webhooks", () => {
  test.beforeEach(async ({ signInWithDemoKey, webhooksPage }) => {
    await signInWithDemoKey();
    await webhooksPage.goto();
  });

  test("the Webhook ID must look like a UUID", async ({ page, webhooksPage }) => {
    await webhooksPage.openById("not-a-webhook");
    await expect(page.getByRole("alert").filter({ hasText: "Webhook ID: enter a UUID" })).toBeVisible();
    await expect(webhooksPage.webhookId).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/webhooks$/);
  });

  test("opens a webhook by ID and remembers it, without the key", async ({
    page,
    webhooksPage,
    webhookPage,
    sandbox,
  }) => {
    const demo = await sandbox.demo();
    const webhook = await sandbox.demoWebhook("404");
    await webhooksPage.openById(`  ${webhook.id} `);
    await expect(page).toHaveURL(new RegExp(`/webhooks/${webhook.id}\\?app=[0-9a-f]{16}$`));
    await expect(webhookHeading(page)).toContainText(webhook.endpoint);
    await expect(webhookPage.rows.first()).toBeVisible();
    await webhookPage.remembered(webhook.id);

    await webhooksPage.goto();
    await expect(webhooksPage.recent.getByRole("link", { name: webhook.endpoint })).toBeVisible();
    const stored = await page.evaluate(() => JSON.stringify({ ...window.localStorage }));
    expect(stored).toContain(webhook.id);
    expect(stored).not.toContain(demo.apiKey);

    await webhooksPage.recent.getByRole("link", { name: webhook.endpoint }).click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/${webhook.id}\\?app=[0-9a-f]{16}$`));
  });

  test("links to the sandbox's demo webhooks", async ({ page, webhooksPage, sandbox }) => {
    const demo = await sandbox.demo();
    for (const webhook of demo.webhooks) {
      await expect(webhooksPage.demo.getByRole("link", { name: webhook.label, exact: true })).toBeVisible();
    }
    const first = demo.webhooks[0]!;
    await webhooksPage.demo.getByRole("link", { name: first.label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/${first.id}\\?app=[0-9a-f]{16}$`));
    await expect(webhookHeading(page)).toContainText(first.endpoint);
  });
});
