import { expect, test } from "./fixtures/test";

test.describe("signing in and out", () => {
  test("the demo key signs in and lands on /webhooks", async ({ page, loginPage }) => {
    await loginPage.goto();
    await expect(page.getByRole("heading", { name: "Sign in to the Webhook Console" })).toBeVisible();
    await expect(loginPage.apiKey).toHaveAttribute("type", "password");
    await loginPage.signInWithDemoKey();
    await expect(page).toHaveURL(/\/webhooks$/);
    await expect(page.getByRole("heading", { name: "Webhooks", exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  });

  test("before the page's script runs, a typed key cannot be submitted, so it never reaches a URL", async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    const key = "mh_canary_prehydration_0123456789";
    await page.goto("/login");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeDisabled();
    await page.getByLabel("API key").fill(key);
    await page.getByLabel("API key").press("Enter");
    // Nothing to wait on when nothing should happen: a submission would have started well within this.
    await page.waitForTimeout(500);
    expect(page.url()).not.toContain(key);
    expect(requested.filter((url) => url.includes(key))).toEqual([]);
    await context.close();
  });

  test("a signed-out visit goes to /login and comes back to the same view after signing in", async ({
    page,
    sandbox,
    loginPage,
  }) => {
    const webhook = await sandbox.demoWebhook("500");
    await page.goto(`/webhooks/${webhook.id}?status=Failed&limit=10`);
    await expect(page).toHaveURL(/\/login\?next=/);
    await loginPage.signInWithDemoKey();
    // The page names its application (?app=, added for a link without one).
    await expect(page).toHaveURL(
      new RegExp(`/webhooks/${webhook.id}\\?app=[0-9a-f]{16}&status=Failed&limit=10$`),
    );
    await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("Failed");
  });

  test("a signed-out visit to / comes back to / after signing in, which leads to the Overview once something is watched", async ({
    page,
    sandbox,
    loginPage,
    demoSessionCookies,
  }) => {
    // Something of the demo application is watched (the demo's webhooks are, out of the box).
    await page.context().addCookies(demoSessionCookies);
    const webhook = await sandbox.demoWebhook("200");
    const watched = await page.request.post("/api/watches/bulk", { data: { text: webhook.id } });
    expect(watched.status(), await watched.text()).toBe(200);
    await page.context().clearCookies();

    await page.goto("/");
    await expect(page).toHaveURL(/\/login\?next=%2F$/);
    await loginPage.signInWithDemoKey();
    await expect(page).toHaveURL(/\/overview$/);
  });

  test("Sign out ends the session everywhere", async ({ page, loginPage, sandbox, webhookPage }) => {
    // A session of its own: signing out revokes it, and the worker's shared demo session must live on.
    await loginPage.goto();
    await loginPage.signInWithDemoKey();
    const webhook = await sandbox.demoWebhook("200");
    await page.goto(`/webhooks/${webhook.id}`);
    await webhookPage.signOut.click();
    await expect(page).toHaveURL(/\/login\?reason=signed_out$/);
    await expect(page.getByText("You have signed out")).toBeVisible();
    const cookies = await page.context().cookies();
    expect(cookies.filter((cookie) => cookie.name.includes("hub_console"))).toEqual([]);
    await page.goto(`/webhooks/${webhook.id}`);
    await expect(page).toHaveURL(/\/login\?next=/);
  });
});
