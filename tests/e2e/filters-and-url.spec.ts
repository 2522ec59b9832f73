/**
 * The webhook page's filters and its URL: quick picks change the time range only, a refused
 * filter leaves no stale rows presented as its answer, a bad parameter in a link is ignored with a
 * notice (never a blank table), and each webhook's tab is titled by its name or endpoint.
 */
import type { Page } from "@playwright/test";
import { BAD_VIEW_PARAMS } from "../support/bad-view-params";
import { expect, test } from "./fixtures/test";

/** The "Filter the whole history" form, opened. */
async function openFilters(page: Page) {
  const form = page.locator('form[aria-label="Filter the whole history"]');
  if (!(await form.isVisible())) await page.getByText("Filter the whole history").click();
  await expect(form).toBeVisible();
  return form;
}

test.describe("filters and the URL", () => {
  test.beforeEach(async ({ signInWithDemoKey }) => {
    await signInWithDemoKey();
  });

  test("a quick pick changes the time range only: the HTTP status and response text typed stay", async ({
    page,
    sandbox,
    webhookPage,
  }) => {
    test.slow();
    const webhook = await sandbox.demoWebhook("500");
    await webhookPage.goto(webhook.id);
    await webhookPage.remembered(webhook.id);
    const form = await openFilters(page);
    await form.getByLabel("HTTP status").fill("500");
    await form.getByLabel("Response contains").fill("error");
    const before = Date.now();
    await form.getByRole("button", { name: "Last 24 h" }).click();

    await expect(page).toHaveURL(/[?&]code=500&since=[^&]+&contains=error/);
    const since = Date.parse(new URL(page.url()).searchParams.get("since")!);
    expect(Math.abs(since - (before - 86_400_000))).toBeLessThan(120_000);
    const filters = await openFilters(page);
    await expect(filters.getByLabel("HTTP status")).toHaveValue("500");
    await expect(filters.getByLabel("Response contains")).toHaveValue("error");
    await expect(webhookPage.coverage).toBeVisible({
      timeout: 20_000,
    });
    for (const code of await webhookPage.column("HTTP status")) expect(code).toBe("500");
  });

  test("a refused filter shows its error, and the rows of the previous filter are not shown as its answer", async ({
    page,
    sandbox,
    webhookPage,
  }) => {
    test.slow();
    const webhook = await sandbox.demoWebhook("500");
    await webhookPage.goto(webhook.id, "?code=500");
    await webhookPage.remembered(webhook.id);
    await expect(webhookPage.coverage).toBeVisible({
      timeout: 20_000,
    });
    await expect(webhookPage.rows.first()).toBeVisible();

    const form = await openFilters(page);
    await form.getByLabel("HTTP status").fill("-1");
    await form.getByRole("button", { name: "Apply filters" }).click();
    await expect(form.getByText(/^HTTP status: enter a code from 0 to 599/)).toBeVisible();
    await expect(webhookPage.rows).toHaveCount(0);
    await expect(webhookPage.table).toContainText("No results shown: the filters above were not applied.");
    await expect(webhookPage.table).toContainText("Fix HTTP status");
    await expect(webhookPage.pageOf).toHaveCount(0);
    await expect(webhookPage.coverage).toHaveCount(0);
    expect(new URL(page.url()).searchParams.get("code")).toBe("500");

    // The same refusal from a quick pick.
    await form.getByRole("button", { name: "Last hour" }).click();
    await expect(webhookPage.rows).toHaveCount(0);

    await form.getByLabel("HTTP status").fill("5xx");
    await form.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/[?&]code=5xx/);
    await expect(webhookPage.rows.first()).toBeVisible({ timeout: 20_000 });
    await expect(form.getByText(/^HTTP status: enter/)).toHaveCount(0);
  });

  // One bad value of each parameter the view reads, in one link.
  const badParams = BAD_VIEW_PARAMS.filter(
    ([name], index) => BAD_VIEW_PARAMS.findIndex(([other]) => other === name) === index,
  );

  test("bad parameters in a link never blank the table: the page says which it ignored and why", async ({
    page,
    sandbox,
    webhookPage,
  }) => {
    const webhook = await sandbox.demoWebhook("500");
    const notice = page.getByText("Part of this link was ignored").locator("..");
    await webhookPage.goto(
      webhook.id,
      `?${new URLSearchParams(badParams.map(([name, value]) => [name, value]))}`,
    );
    await expect(webhookPage.rows.first()).toBeVisible({ timeout: 20_000 });
    await expect(webhookPage.table).not.toContainText("not valid");
    await expect(notice).toBeVisible();
    const lines = notice.getByRole("listitem");
    await expect(lines).toHaveCount(badParams.length);
    for (const [name, value] of badParams) {
      // Why, in words a person can act on.
      await expect(lines.filter({ hasText: `${name}=${value}` })).toContainText(/must be|may be at most/);
    }
  });

  test("Since after Until is ignored with a notice, and the notice can remove what it ignored", async ({
    page,
    sandbox,
    webhookPage,
  }) => {
    test.slow();
    const webhook = await sandbox.demoWebhook("500");
    const until = new Date(Date.now() - 86_400_000).toISOString();
    const since = new Date().toISOString();
    await webhookPage.goto(webhook.id, `?status=Bogus&${new URLSearchParams({ since, until })}`);
    const notice = page.getByText("Part of this link was ignored").locator("..");
    await expect(notice.getByRole("listitem")).toHaveText([
      /^status=Bogus: Status must be Success or Failed/,
      /^since=.*: Since is after Until/,
    ]);
    await expect(webhookPage.rows.first()).toBeVisible({ timeout: 20_000 });

    await webhookPage.remembered(webhook.id);
    await notice.getByRole("link", { name: "Remove from the link" }).click();
    await expect(notice).toHaveCount(0);
    const search = new URL(page.url()).searchParams;
    expect([search.has("status"), search.has("since"), search.get("until")]).toEqual([false, false, until]);
  });

  test("each webhook's tab is titled as its heading: the watch's name, else its endpoint", async ({
    page,
    sandbox,
    signInWithKey,
    webhookPage,
  }) => {
    test.slow();
    const [first, second] = [await sandbox.demoWebhook("404"), await sandbox.demoWebhook("500")];
    await webhookPage.goto(first.id);
    await expect(page).toHaveTitle(first.label);
    await webhookPage.goto(second.id, "?status=Failed");
    await expect(page).toHaveTitle(second.label);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(second.label);

    // A webhook nobody watches (and the sandbox names none): its endpoint.
    const { application, webhook } = await sandbox.isolatedSetup("tab-title");
    await page.context().clearCookies();
    await signInWithKey(application.apiKey);
    await webhookPage.goto(webhook.id);
    await expect(page).toHaveTitle(webhook.endpoint);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(webhook.endpoint);
  });
});
