import { expectAccessibleInBothSchemes } from "./fixtures/axe";
import { expect, test, webhooksWithOneOpened } from "./fixtures/test";

/**
 * Every page (and the open dialog) with no serious or critical axe violation, in light and dark.
 */
test.describe("accessibility (light and dark)", () => {
  // Sign-in, a page or two, then axe twice over a whole page: slow on a busy machine.
  test.describe.configure({ timeout: 60_000 });

  test("/login", async ({ page, loginPage }) => {
    await loginPage.goto("?reason=key_rejected");
    await expect(loginPage.demoKey).toBeVisible();
    await expectAccessibleInBothSchemes(page);
  });

  test("/webhooks", async ({ signInWithDemoKey, webhooksPage, webhookPage, sandbox, page }) => {
    await webhooksWithOneOpened({ signInWithDemoKey, sandbox, webhookPage, webhooksPage });
    await webhooksPage.openById("nope");
    await expectAccessibleInBothSchemes(page);
  });

  test("a webhook, its fields, its send form", async ({ page, signInWithDemoKey, sandbox, webhookPage }) => {
    // axe twice over the whole webhook page, its fields open: most of a minute on a loaded machine.
    test.setTimeout(90_000);
    await signInWithDemoKey();
    await webhookPage.goto((await sandbox.demoWebhook("401")).id);
    await expect(webhookPage.rows.first()).toBeVisible();
    await page.getByText("All fields").click();
    await webhookPage.reachSendForm();
    await webhookPage.field("From (channel ID)").fill("not-a-uuid");
    await webhookPage.sendButton.click();
    await expectAccessibleInBothSchemes(page);
  });

  test("a delivery's dialog", async ({ page, signInWithDemoKey, sandbox, webhookPage }) => {
    await signInWithDemoKey();
    await webhookPage.goto((await sandbox.demoWebhook("401")).id);
    await webhookPage.openRow(webhookPage.rowWithCode("401").first());
    await expect(webhookPage.dialog).toBeVisible();
    await expectAccessibleInBothSchemes(page);
  });

  test("not found", async ({ page, signInWithDemoKey }) => {
    await signInWithDemoKey();
    await page.goto("/webhooks/00000000-0000-4000-8000-00000000dead");
    await expect(page.getByRole("heading", { name: "Webhook not found" })).toBeVisible();
    await expectAccessibleInBothSchemes(page);
  });
});
