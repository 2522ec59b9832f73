import { expect, test } from "./fixtures/test";
import { webhookHeading } from "./fixtures/pages";

test.describe("errors a person meets", () => {
  test("a webhook that does not exist for this key", async ({ page, signInWithDemoKey }) => {
    await signInWithDemoKey();
    const response = await page.goto("/webhooks/00000000-0000-4000-8000-00000000dead");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Webhook not found" })).toBeVisible();
    await page.getByRole("link", { name: "Open another webhook" }).click();
    await expect(page).toHaveURL(/\/webhooks$/);
  });

  test("an address whose webhook ID is no ID says so, and what one looks like, on the page and in the API", async ({
    page,
    signInWithDemoKey,
  }) => {
    await signInWithDemoKey();
    const words =
      "Webhook ID: not a valid webhook ID, which is a UUID such as 3f2b6c1e-8d4a-4f0b-9c2d-1a2b3c4d5e6f. " +
      "Check the link, or copy it again from the console.";
    for (const path of ["/webhooks/not-a-uuid", "/webhooks/12345/bundle"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { name: "Not a valid webhook ID" })).toBeVisible();
      await expect(page.getByText(words)).toBeVisible();
      await expect(page.getByRole("heading", { name: "Webhook not found" })).toHaveCount(0);
    }
    const answer = await page.request.get("/api/webhooks/not-a-uuid");
    expect(answer.status()).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { message: words, fields: { webhookId: [words] } } });
  });

  test("a rotated key ends the session on the next page load", async ({
    page,
    sandbox,
    signInWithKey,
    webhookPage,
  }) => {
    const { application, webhook } = await sandbox.isolatedSetup("rotate-page");
    await signInWithKey(application.apiKey);
    await webhookPage.goto(webhook.id);
    await expect(webhookHeading(page)).toContainText(webhook.endpoint);
    // The page's own reads after load (the health scan) are done first: one answering 401 after the
    // rotation would send the page to sign-in itself and abort the reload (a flake seen in CI).
    await expect(
      page
        .getByRole("region", { name: "Delivery health" })
        .getByText(/Success rate|No delivery attempts in this window/),
    ).toBeVisible({ timeout: 15_000 });
    await sandbox.rotateKey(application.id);
    await page.reload();
    await expect(page).toHaveURL(/\/login\?reason=key_rejected$/);
    await expect(
      page.getByRole("alert").filter({ hasText: "The Messaging Hub rejected your API key" }),
    ).toBeVisible();
  });

  test("a rotated key ends the session when the open page refreshes", async ({
    page,
    sandbox,
    signInWithKey,
    webhookPage,
  }) => {
    const { application, webhook } = await sandbox.isolatedSetup("rotate-client");
    await signInWithKey(application.apiKey);
    await webhookPage.goto(webhook.id);
    await expect(page.getByText("No deliveries recorded for this webhook yet")).toBeVisible();
    // The Delivery health region reads the hub once after load; rotated before that read, the key
    // would end the session there, before the Refresh this test is about.
    await expect(
      page.getByRole("region", { name: "Delivery health" }).getByText(/^No delivery attempts in this window/),
    ).toBeVisible({ timeout: 15_000 });
    await sandbox.rotateKey(application.id);
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(page).toHaveURL(/\/login\?reason=key_rejected$/);
  });
});
