import type { Page } from "@playwright/test";
import { seriousViolations } from "./fixtures/axe";
import { expect, test, webhooksWithOneOpened } from "./fixtures/test";

/**
 * Every page (and the open dialog) with no serious or critical axe violation, in light and dark.
 * The console's dark theme follows prefers-color-scheme (Tailwind's `media`), so one page state is
 * checked in both schemes, switched in place.
 */
async function expectAccessibleInBothSchemes(page: Page): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    // Buttons fade to the scheme's colours (transition-colors): axe reads them once they are there.
    // (Transitions only: a spinner's animation never finishes.)
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation instanceof CSSTransition)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
    );
    expect(await seriousViolations(page), colorScheme).toEqual([]);
  }
}

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
    await webhookPage.field("From (channel ID)").fill("not-a-uuid");
    await webhookPage.sendButton.click();
    await expectAccessibleInBothSchemes(page);
  });

  test("a delivery's dialog", async ({ page, signInWithDemoKey, sandbox, webhookPage }) => {
    await signInWithDemoKey();
    await webhookPage.goto((await sandbox.demoWebhook("401")).id);
    await webhookPage.rowWithCode("401").first().click();
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
