import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { FULL_TIME } from "./fixtures/pages";

test.describe("a delivery's details", () => {
  test.beforeEach(async ({ signInWithDemoKey }) => {
    await signInWithDemoKey();
  });

  test("opens from a row, with the body, the meaning, the times and a disabled Retry; Esc returns to the row", async ({
    page,
    webhookPage,
    sandbox,
  }) => {
    const webhook = await sandbox.demoWebhook("401");
    await webhookPage.goto(webhook.id, "?status=Failed");
    const row = webhookPage.rowWithCode("401").first();
    const messageId = (await row.getByRole("cell").nth(3).textContent())!.trim();
    await webhookPage.openRow(row, row.getByRole("cell").nth(4));

    const dialog = webhookPage.dialog;
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/[?&]log=[0-9a-f-]{36}/);
    await expect(dialog.getByRole("region", { name: "Outcome" })).toContainText("HTTP 401 Unauthorized");
    await expect(dialog.getByText(/rejected the service's secret header/)).toBeVisible();
    await expect(dialog.getByText("Next step")).toBeVisible();
    await expect(dialog.getByText(messageId)).toBeVisible();
    await expect(dialog.getByText("JSON, pretty-printed")).toBeVisible();
    await expect(dialog.getByRole("region", { name: "Response body" }).locator("pre")).toContainText(
      '"error": "unauthorized"',
    );
    await expect(dialog.getByText(FULL_TIME).first()).toBeVisible();
    await expect(dialog.getByText(webhook.endpoint)).toBeVisible();
    const retry = dialog.getByRole("button", { name: "Retry" });
    await expect(retry).toBeDisabled();
    await expect(retry).toHaveAccessibleDescription(/does not offer retry yet/);

    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page).not.toHaveURL(/log=/);
    await expect(webhookPage.detailsButton(row)).toBeFocused();
  });

  test("Enter on a row's Details button opens it; failed rows have a disabled Retry", async ({
    page,
    webhookPage,
    sandbox,
  }) => {
    const webhook = await sandbox.demoWebhook("500");
    await webhookPage.goto(webhook.id, "?status=Failed");
    const row = webhookPage.rows.first();
    await expect(row.getByRole("button", { name: "Retry" })).toBeDisabled();
    // The reason is read out, not only shown on hover.
    await expect(row.getByRole("button", { name: "Retry" })).toHaveAccessibleDescription(
      "The Messaging Hub API does not offer retry yet.",
    );
    await webhookPage.detailsButton(row).focus();
    await page.keyboard.press("Enter");
    await expect(webhookPage.dialog).toBeVisible();
    await webhookPage.dialog.getByRole("button", { name: "Close" }).click();
    await expect(webhookPage.dialog).toBeHidden();
    await expect(webhookPage.detailsButton(row)).toBeFocused();
  });

  test("a copied link with ?log= reopens the dialog", async ({ page, webhookPage, sandbox }) => {
    const webhook = await sandbox.demoWebhook("404");
    await webhookPage.goto(webhook.id);
    await webhookPage.openRow(webhookPage.rows.nth(2));
    await expect(webhookPage.dialog).toBeVisible();
    const link = page.url();
    const logId = new URL(link).searchParams.get("log");
    expect(logId).toMatch(/^[0-9a-f-]{36}$/);

    const other = await page.context().newPage();
    await other.goto(link);
    const dialog = other.getByRole("dialog", { name: "Delivery details" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(`Log ${logId}`)).toBeVisible();
    await other.keyboard.press("Escape");
    await expect(
      other.locator(`[data-log-id="${logId}"]`).getByRole("link", { name: /^Details/ }),
    ).toBeFocused();
    await other.close();
  });

  test("HTML and script in a response body show as text and never run", async ({
    page,
    webhookPage,
    sandbox,
    browserDialogs,
  }) => {
    const webhook = await sandbox.demoWebhook("404");
    await webhookPage.goto(webhook.id, "?limit=50");
    const row = webhookPage.row("<script>alert(1)</script>").first();
    await expect(row).toBeVisible();
    await webhookPage.openRow(row);
    const body = webhookPage.dialog.getByRole("region", { name: "Response body" }).locator("pre");
    await expect(body).toContainText('<script>alert(1)</script><img src="x" onerror="alert(2)">');
    await expect(webhookPage.dialog.locator("script, img")).toHaveCount(0);
    await expect(
      webhookPage.dialog.getByRole("region", { name: "Outcome" }).getByText("HTTP 404 Not Found"),
    ).toBeVisible();
    await expect(
      webhookPage.dialog.getByText("The route does not exist on the customer server."),
    ).toBeVisible();
    await page.waitForTimeout(300);
    expect(browserDialogs).toEqual([]);
  });

  test("a ~200 KB body opens whole, with its size; Copy copies it", async ({
    page,
    webhookPage,
    sandbox,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const webhook = await sandbox.demoWebhook("500");
    await webhookPage.goto(webhook.id, "?limit=50");
    const row = webhookPage.row("Layer.handle").first();
    await webhookPage.openRow(row);
    const region = webhookPage.dialog.getByRole("region", { name: "Response body" });
    await expect(region.getByText(/\d+ KB · shown as sent/)).toBeVisible();
    const length = await region.locator("pre").evaluate((pre) => pre.textContent?.length ?? 0);
    expect(length).toBeGreaterThan(200_000);

    await region.getByRole("button", { name: "Copy" }).click();
    await expect(region.getByRole("status")).toHaveText(/copied|selected/);
    const copied = await page.evaluate(() => navigator.clipboard.readText().catch(() => ""));
    if (copied) expect(copied.length).toBe(length);
  });

  test("each status code of spec part 6 gets its likely cause", async ({ webhookPage, sandbox }) => {
    const cases = [
      {
        kind: "Timeout" as const,
        code: "No connection",
        cause: /No connection could be made or no timely answer/,
      },
      { kind: "404" as const, code: "404", cause: /route does not exist/ },
      { kind: "500" as const, code: "500", cause: /Internal error of the customer server/ },
    ];
    for (const { kind, code, cause } of cases) {
      const webhook = await sandbox.demoWebhook(kind);
      await webhookPage.goto(webhook.id, "?status=Failed&limit=50");
      await webhookPage.openRow(webhookPage.rowWithCode(code).first());
      await expect(webhookPage.dialog.getByText(cause)).toBeVisible();
      await webhookPage.page.keyboard.press("Escape");
    }
  });
});

test.describe("closing a delivery returns to the view it was opened from", () => {
  test.beforeEach(async ({ signInWithDemoKey }) => {
    await signInWithDemoKey();
  });

  const ways = {
    "a click on its row": async (row) => row.getByRole("cell").nth(4).click(),
    "Enter on its Details link": async (row) => {
      await row.getByRole("link", { name: /^Details/ }).focus();
      await row.page().keyboard.press("Enter");
    },
    "Find, by its message ID": async (row) => {
      const messageId = (await row.getByRole("cell").nth(3).textContent())!.trim();
      const find = row.page().getByRole("form", { name: "Find a delivery" });
      await find.getByLabel("Find a delivery").fill(messageId);
      await find.getByRole("button", { name: "Find" }).click();
    },
  } satisfies Record<string, (row: Locator) => Promise<void>>;

  for (const [way, open] of Object.entries(ways)) {
    test(`Status Failed, page 2, opened by ${way}: Close (and Esc) come back to Failed, page 2`, async ({
      page,
      sandbox,
      webhookPage,
    }) => {
      const webhook = await sandbox.demoWebhook("500");
      await webhookPage.goto(webhook.id);
      await webhookPage.chooseStatus("Failed");
      await expect(page).toHaveURL(/[?&]status=Failed/);
      await webhookPage.nextPage.click();
      await expect(webhookPage.pageOf).toHaveText(/^Page 2 of/);
      const view = new URL(page.url()).searchParams;
      expect([view.get("status"), view.get("page")]).toEqual(["Failed", "2"]);

      const row = webhookPage.rows.nth(3);
      const logId = await row.getAttribute("data-log-id");
      await open(row);
      await expect(webhookPage.dialog).toContainText(`Log ${logId}`);
      await webhookPage.dialog.getByRole("button", { name: "Close" }).click();
      await expect(webhookPage.dialog).toBeHidden();
      await expect(page).not.toHaveURL(/[?&](log|find)=/);
      const back = new URL(page.url()).searchParams;
      expect([back.get("status"), back.get("page")]).toEqual(["Failed", "2"]);
      await expect(webhookPage.pageOf).toHaveText(/^Page 2 of/);
      await expect(webhookPage.statusFilter).toHaveValue("Failed");
      await expect(webhookPage.rows.nth(3)).toHaveAttribute("data-log-id", logId!);

      // Opened again, Esc closes it the same way.
      await open(webhookPage.rows.nth(3));
      await expect(webhookPage.dialog).toContainText(`Log ${logId}`);
      await page.keyboard.press("Escape");
      await expect(webhookPage.dialog).toBeHidden();
      await expect(page).not.toHaveURL(/[?&]log=/);
      const again = new URL(page.url()).searchParams;
      expect([again.get("status"), again.get("page")]).toEqual(["Failed", "2"]);
    });
  }
});

test.describe("a delivery's details, when their code cannot be loaded", () => {
  test.describe.configure({ timeout: 60_000 });

  test("when the details' code cannot be loaded, the dialog says so, and reloading brings them", async ({
    page,
    webhookPage,
    sandbox,
    signInWithKey,
  }) => {
    // A webhook nobody watches: no failure issue card links to a delivery, so nothing has
    // prefetched the details' code before the test makes it fail.
    const { application, channel, webhook } = await sandbox.isolatedSetup("details-code", "error");
    await sandbox.sendMessage(application.apiKey, channel, "a delivery that fails");
    await expect.poll(async () => (await sandbox.allLogs(webhook.id, application.apiKey)).length).toBe(1);
    await signInWithKey(application.apiKey);
    await webhookPage.goto(webhook.id);
    // Any script asked for after the page loaded fails, as after a deploy removed the old chunks.
    await page.route("**/_next/static/chunks/**", (route) => route.abort("failed"));
    await webhookPage.rows.first().getByRole("cell").nth(4).click();
    const dialog = webhookPage.dialog;
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("alert")).toContainText("The details view could not be loaded");
    await expect(dialog.getByText("HTTP 500")).toHaveCount(0);

    await page.unroute("**/_next/static/chunks/**");
    await dialog.getByRole("button", { name: "Reload the page" }).click();
    await expect(webhookPage.dialog).toBeVisible();
    await expect(webhookPage.dialog.getByText(/HTTP 500/).first()).toBeVisible();
    await expect(webhookPage.dialog.getByRole("alert")).toHaveCount(0);
  });
});
