import { seriousViolations } from "./fixtures/axe";
import { expect, test } from "./fixtures/test";

/** Every page (and the open dialog) with no serious or critical axe violation, in light and dark. */

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`accessibility (${colorScheme})`, () => {
    test.use({ colorScheme });
    // Sign-in, a page or two, then axe over a whole page: slow on a busy machine.
    test.describe.configure({ timeout: 60_000 });

    test("/login", async ({ page, loginPage }) => {
      await loginPage.goto("?reason=key_rejected");
      await expect(loginPage.demoKey).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("/webhooks", async ({ signInWithDemoKey, webhooksPage, webhookPage, sandbox, page }) => {
      await signInWithDemoKey();
      // Something in "Opened recently" too.
      const opened = (await sandbox.demoWebhook("200")).id;
      await webhookPage.goto(opened);
      await webhookPage.remembered(opened);
      await webhooksPage.goto();
      await expect(webhooksPage.demo).toBeVisible();
      await expect(webhooksPage.recent).toBeVisible();
      await webhooksPage.openById("nope");
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("a webhook, its fields, its send form", async ({
      page,
      signInWithDemoKey,
      sandbox,
      webhookPage,
    }) => {
      // axe over the whole webhook page, its fields open, takes most of 30 s on a loaded machine.
      test.setTimeout(60_000);
      await signInWithDemoKey();
      await webhookPage.goto((await sandbox.demoWebhook("401")).id);
      await expect(webhookPage.rows.first()).toBeVisible();
      await page.getByText("All fields").click();
      await webhookPage.field("From (channel ID)").fill("not-a-uuid");
      await webhookPage.sendButton.click();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("a delivery's dialog", async ({ page, signInWithDemoKey, sandbox, webhookPage }) => {
      await signInWithDemoKey();
      await webhookPage.goto((await sandbox.demoWebhook("401")).id);
      await webhookPage.rowWithCode("401").first().click();
      await expect(webhookPage.dialog).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("not found", async ({ page, signInWithDemoKey }) => {
      await signInWithDemoKey();
      await page.goto("/webhooks/00000000-0000-4000-8000-00000000dead");
      await expect(page.getByRole("heading", { name: "Webhook not found" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
