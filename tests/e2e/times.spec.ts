/**
 * Times are written one way (lib/domain/format-time.ts): in the viewer's locale and zone, one
 * full form and one short form, the exact UTC in the full form on hover. A viewer in New York
 * with an American browser finds no 24-hour clock and no ISO time on the webhook page, in a
 * delivery's details, or on the Overview, once the page has mounted.
 */
import type { Locator, Page } from "@playwright/test";
import { healthAnswered, webhookHeading } from "./fixtures/pages";
import { expect, test } from "./fixtures/test";

test.use({ locale: "en-US", timezoneId: "America/New_York" });

/** What the viewer may read where a time is shown: a moment in one of the two forms, how long ago, or a copy's age. */
const SHAPES = [
  /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d:\d\d [AP]M E[SD]T$/,
  /^([A-Z][a-z]{2} \d{1,2}, (\d{4}, )?)?\d\d:\d\d [AP]M$/,
  /^(just now|\d+ min ago|\d+ h ago)$/,
  /^\d+ (s|min|h|days?) ago$/,
  /^From (the watch|the console's copy), as of \d+ (s|min|h|days?) ago; .+$/,
];
const EXACT_UTC = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d:\d\d(\.\d{3})? [AP]M UTC$/;
/** A label of the chart's time axis: the short clock, or the day. */
const AXIS_LABEL = /^(\d\d:\d\d [AP]M|[A-Z][a-z]{2} \d{1,2})$/;

/** Every `<time>` in `scope` is written in one of SHAPES, with the exact UTC as its title (retried until the page has mounted). */
async function expectOneShape(scope: Locator): Promise<void> {
  await expect(async () => {
    const times = await scope.locator("time").evaluateAll((elements) =>
      elements.map((element) => ({
        text: element.textContent?.trim() ?? "",
        title: element.getAttribute("title"),
      })),
    );
    expect(times.length).toBeGreaterThan(0);
    for (const { text, title } of times) {
      expect(
        SHAPES.some((shape) => shape.test(text)),
        `"${text}" is in one of the console's forms`,
      ).toBe(true);
      if (title !== null) expect(title).toMatch(EXACT_UTC);
    }
  }).toPass({ timeout: 20_000 });
}

const health = (page: Page) => page.getByRole("region", { name: "Delivery health" });

test.describe("times, for a viewer in New York with an American browser", () => {
  test.beforeEach(async ({ signInWithDemoKey }) => {
    await signInWithDemoKey();
  });

  test("the webhook page, its older rows, and a failed delivery's details", async ({
    page,
    sandbox,
    webhookPage,
  }) => {
    const busy = await sandbox.demoWebhook("Busy");
    await webhookPage.goto(busy.id);
    // "Failing since", in the heading's state line.
    await expect(page.getByText(/^Failing since/)).toBeVisible({ timeout: 30_000 });
    await expect(webhookHeading(page)).toContainText(
      /Failing since (before )?([A-Z][a-z]{2} \d{1,2}, )?\d\d:\d\d [AP]M — /,
    );
    await healthAnswered(page, 30_000);
    await expectOneShape(page.getByRole("main"));
    const labels = await health(page).locator("figure svg > text").allTextContents();
    expect(labels.length).toBeGreaterThan(0);
    for (const label of labels) expect(label).toMatch(AXIS_LABEL);

    await webhookPage.detailsButton(webhookPage.rows.filter({ hasText: "Failed" }).first()).click();
    await expect(webhookPage.dialog).toBeVisible();
    await expectOneShape(webhookPage.dialog);
    // Beside each local time, the exact UTC in the same form (New York is not UTC).
    await expect(webhookPage.dialog.getByText(EXACT_UTC).first()).toBeVisible();
    await page.keyboard.press("Escape");

    // The oldest rows are more than a day old: written in the full form.
    await webhookPage.lastPage.click();
    await expect(webhookPage.pageOf).toHaveText(/^Page (\d+) of \1$/);
    await expectOneShape(webhookPage.table);
  });

  test("the Overview", async ({ page }) => {
    await page.goto("/overview");
    const table = page.getByRole("table", { name: "Watched webhooks, worst first" });
    await expect(table.getByText(/^since /).first()).toBeVisible({ timeout: 30_000 });
    await expectOneShape(table);
  });
});
