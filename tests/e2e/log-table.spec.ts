import { UTC_TITLE, WebhookPage } from "./fixtures/pages";
import { expect, test } from "./fixtures/test";

test.describe("the log table", () => {
  // A zone that is not UTC, so local times differ from the UTC the server renders.
  test.use({ timezoneId: "America/Sao_Paulo" });

  test.beforeEach(async ({ signInWithDemoKey }) => {
    await signInWithDemoKey();
  });

  test("shows the webhook and its deliveries", async ({ page, webhookPage, sandbox }) => {
    const webhook = await sandbox.demoWebhook("500");
    await webhookPage.goto(webhook.id);
    // Named as it is watched (the demo's watches carry their labels), its endpoint beneath.
    await expect(page.getByRole("heading", { level: 1, name: webhook.label })).toBeVisible();
    await expect(page.getByRole("region", { name: webhook.label })).toContainText(
      `Endpoint: ${webhook.endpoint}`,
    );
    await expect(page.getByText("Active", { exact: true })).toBeVisible();
    await expect(page.getByText("Errors", { exact: true })).toBeVisible();
    for (const name of ["Status", "HTTP status", "Sent at", "Message ID", "Response"]) {
      await expect(webhookPage.table.getByRole("columnheader", { name, exact: true })).toBeVisible();
    }
    await expect(webhookPage.rows).toHaveCount(20);
    expect(await webhookPage.pageNumbers()).toMatchObject({ page: 1 });

    // "All fields": everything the API returned, including fields the spec does not show.
    await page.getByText("All fields").click();
    await expect(
      page.getByRole("definition").filter({ hasText: "Demo: a customer server that fails" }),
    ).toBeVisible();
  });

  test("statusCode 0 reads No connection; times are local with exact UTC on hover", async ({
    webhookPage,
    sandbox,
  }) => {
    const webhook = await sandbox.demoWebhook("Connection refused");
    await webhookPage.goto(webhook.id);
    const codes = await webhookPage.column("HTTP status");
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes)).toEqual(new Set(["No connection"]));
    const time = webhookPage.rows.first().locator("time");
    await expect(time).toHaveAttribute("title", UTC_TITLE);
    await expect(time).toHaveAttribute("datetime", /Z$|[+-]\d\d:\d\d$/);
    await expect(time).not.toHaveText(/UTC$/);
  });

  test("filters by status, in the URL", async ({ page, webhookPage, sandbox }) => {
    const webhook = await sandbox.demoWebhook("200");
    await webhookPage.goto(webhook.id);
    // A choice made before hydration is not seen by React (it does not replay change events).
    await webhookPage.remembered(webhook.id);
    await webhookPage.chooseStatus("Failed");
    await expect(page).toHaveURL(/[?&]status=Failed/);
    await expect(webhookPage.rows.first()).toBeVisible();
    await expect.poll(async () => new Set(await webhookPage.column("Status"))).toEqual(new Set(["✕Failed"]));

    await webhookPage.chooseStatus("Success");
    await expect(page).toHaveURL(/[?&]status=Success/);
    await expect.poll(async () => new Set(await webhookPage.column("Status"))).toEqual(new Set(["✓Success"]));

    await webhookPage.chooseStatus("All");
    await expect(page).not.toHaveURL(/status=/);
  });

  test("Refresh asks the server for the same view again (a person's read, not a poll)", async ({
    page,
    webhookPage,
    sandbox,
  }) => {
    const webhook = await sandbox.demoWebhook("200");
    await webhookPage.goto(webhook.id, "?status=Failed");
    await webhookPage.remembered(webhook.id);
    const asked: Array<{ method: string; action: boolean }> = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === `/webhooks/${webhook.id}` && url.searchParams.get("status") === "Failed")
        asked.push({ method: request.method(), action: "next-action" in request.headers() });
    });
    await page.getByRole("button", { name: "Refresh", exact: true }).click();
    await expect.poll(() => asked.length).toBeGreaterThan(0);
    expect(asked[0]).toEqual({ method: "GET", action: false });
    await expect(page).toHaveURL(/[?&]status=Failed/);
    expect(new Set(await webhookPage.column("Status"))).toEqual(new Set(["✕Failed"]));
  });

  test("pages forward and back, first and last, in the URL", async ({ page, webhookPage, sandbox }) => {
    const webhook = await sandbox.demoWebhook("200");
    await webhookPage.goto(webhook.id);
    const { of } = await webhookPage.pageNumbers();
    expect(of).toBeGreaterThanOrEqual(3);
    const firstIds = await webhookPage.column("Message ID");
    await expect(webhookPage.previousPage).toBeDisabled();
    await expect(webhookPage.firstPage).toBeDisabled();

    await webhookPage.nextPage.click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(webhookPage.pageOf).toHaveText(`Page 2 of ${of}`);
    await expect.poll(async () => (await webhookPage.column("Message ID"))[0]).not.toBe(firstIds[0]);

    await webhookPage.previousPage.click();
    await expect(webhookPage.pageOf).toHaveText(`Page 1 of ${of}`);
    await expect(page).not.toHaveURL(/page=/);

    await webhookPage.lastPage.click();
    await expect(webhookPage.pageOf).toHaveText(`Page ${of} of ${of}`);
    await expect(webhookPage.nextPage).toBeDisabled();
    await expect(webhookPage.lastPage).toBeDisabled();

    await webhookPage.firstPage.click();
    await expect(webhookPage.pageOf).toHaveText(`Page 1 of ${of}`);

    // The browser's Back button walks the same history.
    await page.goBack();
    await expect(webhookPage.pageOf).toHaveText(`Page ${of} of ${of}`);
  });

  test("rows per page, and a copied link reopens the same view", async ({ page, webhookPage, sandbox }) => {
    const webhook = await sandbox.demoWebhook("200");
    await webhookPage.goto(webhook.id);
    await webhookPage.remembered(webhook.id); // hydrated: the selects have their handlers
    await webhookPage.rowsPerPage.selectOption("10");
    await expect(page).toHaveURL(/[?&]limit=10/);
    await expect(webhookPage.rows).toHaveCount(10);
    await webhookPage.chooseStatus("Success");
    await expect(page).toHaveURL(/status=Success&limit=10$/);
    await webhookPage.nextPage.click();
    await expect(page).toHaveURL(/status=Success&page=2&limit=10$/);
    await expect(webhookPage.pageOf).toHaveText(/^Page 2 of/);
    const ids = await webhookPage.column("Message ID");

    // The same link in another tab of the same browser shows the same view.
    const other = await page.context().newPage();
    await other.goto(page.url());
    const again = new WebhookPage(other);
    await expect(again.statusFilter).toHaveValue("Success");
    await expect(again.rowsPerPage).toHaveValue("10");
    await expect(again.pageOf).toHaveText(/^Page 2 of/);
    expect(await again.column("Message ID")).toEqual(ids);
    await other.close();
  });

  test("a page past the end says so and offers the last page", async ({ page, webhookPage, sandbox }) => {
    const webhook = await sandbox.demoWebhook("500");
    await webhookPage.goto(webhook.id, "?page=999");
    await expect(page.getByText("There is no page 999")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Log pages" })).toContainText("Past the last page");
    await page.getByRole("link", { name: "Go to the last page" }).click();
    await expect(webhookPage.rows.first()).toBeVisible();
  });
});
