import { expect, test } from "./fixtures/test";

test.describe("send a test message and follow it", () => {
  test("the delivery lands, is announced and highlighted; the channel is remembered", async ({
    page,
    sandbox,
    signInWithKey,
    webhookPage,
  }) => {
    const { application, channel, webhook } = await sandbox.isolatedSetup("follow", "error");
    await signInWithKey(application.apiKey);
    await webhookPage.goto(webhook.id);
    await expect(page.getByText("No deliveries recorded for this webhook yet")).toBeVisible();

    await webhookPage.reachSendForm();
    await webhookPage.field("Channel kind").fill("whatsapp");
    await webhookPage.field("From (channel ID)").fill(channel.id);
    await webhookPage.field("To").fill("5511999990001");
    await webhookPage.field("Text").fill("Hello from the e2e test");
    await webhookPage.sendButton.click();

    const status = webhookPage.sendStatus;
    await expect(status).toContainText("Sent.");
    const messageId = (await status.locator(".font-mono").first().textContent())!.trim();
    expect(messageId).toMatch(/^[0-9a-f-]{36}$/);
    await expect(status).toContainText("Its delivery has landed", { timeout: 20_000 });
    await expect(status).toContainText("HTTP 500 Internal Server Error");

    const row = webhookPage.row(messageId);
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute("data-highlighted", "true");
    await expect(row).toContainText("Failed");
    await expect(page.getByText("Errors", { exact: true }).locator("..")).toContainText("1");

    // The follow-up's Details opens the same delivery.
    await status.getByRole("button", { name: /^Details/ }).click();
    await expect(webhookPage.dialog.getByText(messageId)).toBeVisible();
    await page.keyboard.press("Escape");

    // The channel (never the key) is remembered for next time.
    await page.reload();
    await webhookPage.reachSendForm();
    await expect(webhookPage.field("Channel kind")).toHaveValue("whatsapp");
    await expect(webhookPage.field("From (channel ID)")).toHaveValue(channel.id);
    const stored = await page.evaluate(() => JSON.stringify({ ...window.localStorage }));
    expect(stored).not.toContain(application.apiKey);
  });
});
