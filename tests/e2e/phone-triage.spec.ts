/**
 * Triage on a phone: a way straight to the rows past the header, health and filters; the response
 * body first in a delivery's details; and a details heading that names only what is known of a
 * delivery Find could not find.
 */
import { expect, test } from "./fixtures/test";

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test.beforeEach(async ({ signInWithDemoKey }) => {
    await signInWithDemoKey();
  });

  test('"Skip to deliveries" near the top brings the first row into view', async ({
    page,
    sandbox,
    webhookPage,
  }) => {
    const webhook = await sandbox.demoWebhook("500");
    await webhookPage.goto(webhook.id);
    await webhookPage.remembered(webhook.id);
    const first = webhookPage.rows.first();
    await expect(first).not.toBeInViewport();
    const skip = page.getByRole("link", { name: "Skip to deliveries" });
    await expect(skip).toBeInViewport();
    await skip.click();
    await expect(first).toBeInViewport();
  });

  test("a delivery's details show the response body first", async ({ page, sandbox, webhookPage }) => {
    const webhook = await sandbox.demoWebhook("401");
    await webhookPage.goto(webhook.id, "?status=Failed");
    await webhookPage.remembered(webhook.id);
    await webhookPage.rows.first().getByRole("cell").nth(4).click();
    const body = webhookPage.dialog.getByRole("region", { name: "Response body" });
    const outcome = webhookPage.dialog.getByRole("region", { name: "Outcome" });
    await expect(body.locator("pre")).toBeVisible();
    await expect(body.locator("pre")).toBeInViewport();
    const [bodyBox, outcomeBox] = [await body.boundingBox(), await outcome.boundingBox()];
    expect(bodyBox!.y).toBeLessThan(outcomeBox!.y);
    await page.keyboard.press("Escape");
  });

  test("Find opens a delivery by its message ID; one it cannot find is named only as it was asked for", async ({
    page,
    sandbox,
    webhookPage,
  }) => {
    test.slow();
    const webhook = await sandbox.demoWebhook("200");
    const { apiKey } = await sandbox.demo();
    const target = (await sandbox.allLogs(webhook.id, apiKey)).find(
      (log, index) => index > 3 && log.messageId,
    )!;
    await webhookPage.goto(webhook.id);
    const find = page.getByRole("form", { name: "Find a delivery" });
    await find.getByLabel("Find a delivery").fill(target.messageId!);
    await find.getByRole("button", { name: "Find" }).click();
    await expect(webhookPage.dialog.getByText(`Log ${target.id}`, { exact: true })).toBeVisible({
      timeout: 30_000,
    });
    await expect(webhookPage.dialog.getByText(target.messageId!, { exact: true })).toBeVisible();
    await webhookPage.dialog.getByRole("button", { name: "Close" }).click();

    const unknown = "00000000-0000-4000-8000-00000000abcd";
    await find.getByLabel("Find a delivery").fill(unknown);
    await find.getByRole("button", { name: "Find" }).click();
    await expect(webhookPage.dialog.getByText(`Log or message ID ${unknown}`, { exact: true })).toBeVisible({
      timeout: 30_000,
    });
    await expect(webhookPage.dialog).toContainText(`No delivery with log or message ID ${unknown}`);
  });
});
