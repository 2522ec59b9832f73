import type { Page } from "@playwright/test";
import type { Sandbox } from "./fixtures/sandbox";
import { expectAccessibleInBothSchemes } from "./fixtures/axe";
import { expect, test } from "./fixtures/test";
import { OverviewPage } from "./fixtures/watch-pages";

/**
 * The Overview over the sandbox's demo application, whose webhooks are watched (the demo's own,
 * and watched again here, which changes nothing): the failing ones first, filters that live in
 * the URL, one click to a webhook, a phone's width, and no serious axe violation.
 */

/** Makes sure every demo webhook is watched (idempotent), then opens the Overview once all are read. */
async function demoOverview(page: Page, sandbox: Sandbox) {
  const demo = await sandbox.demo();
  const ids = demo.webhooks.map((webhook) => webhook.id);
  const response = await page.request.post("/api/watches/bulk", { data: { text: ids.join("\n") } });
  expect(response.status(), await response.text()).toBe(200);
  const overview = new OverviewPage(page);
  await overview.goto();
  await overview.allRead();
  return { demo, overview };
}

test.describe("the overview", () => {
  // Waiting for the watcher's first read of every demo webhook, then axe over every row, takes a while on a busy machine.
  test.describe.configure({ timeout: 150_000 });

  test("lands a signed-in person there, and puts the demo's failing webhooks first", async ({
    page,
    sandbox,
    signInWithDemoKey,
  }) => {
    await signInWithDemoKey();
    const { demo, overview } = await demoOverview(page, sandbox);
    await page.goto("/");
    await expect(page).toHaveURL(/\/overview$/);

    const endpoint = (label: string) =>
      demo.webhooks.find((webhook) => webhook.label.startsWith(label))!.endpoint;
    // Rows are named by the demo's labels; the seed's newest attempts fail on these four, succeed on "200 OK".
    const name = (label: string) => demo.webhooks.find((webhook) => webhook.label.startsWith(label))!.label;
    const failing = ["404", "500", "Timeout", "Connection refused"].map(name);
    await expect
      .poll(async () => {
        const cells = await overview.column("Webhook");
        const since = await overview.column("Failing since");
        const firstHealthy = since.findIndex((text) => text.startsWith("Not failing"));
        return {
          failingBeforeHealthy: since.slice(firstHealthy).every((text) => text.startsWith("Not failing")),
          failingListedFirst: failing.every((label) => {
            const at = cells.findIndex((cell) => cell.startsWith(label));
            return at >= 0 && at < firstHealthy;
          }),
          okAfter: cells.findIndex((cell) => cell.startsWith(name("200"))) >= firstHealthy,
        };
      })
      .toEqual({ failingBeforeHealthy: true, failingListedFirst: true, okAfter: true });

    // A failing row says since when, and the last failure's code and likely cause.
    const notFound = overview.rows.filter({ hasText: endpoint("404") });
    await expect(notFound).toContainText(/since/);
    await expect(notFound).toContainText("HTTP 404 Not Found");
    await expect(notFound).toContainText("The route does not exist on the customer server.");
    await expect(notFound.getByRole("img", { name: /Last 24 h by hour/ })).toBeVisible();
    await expect(overview.watcher).toContainText("Watcher lag");
    await expect(overview.watcher).toContainText("Polls failing");

    // One click opens the webhook.
    await notFound.getByRole("rowheader").getByRole("link").click();
    const label = demo.webhooks.find((webhook) => webhook.label.startsWith("404"))!.label;
    await expect(page.getByRole("heading", { level: 1, name: label })).toBeVisible();
    await expect(page.getByRole("region", { name: label })).toContainText(endpoint("404"));
  });

  test("keeps its filters in the URL: failing only, one application, text", async ({
    page,
    sandbox,
    signInWithDemoKey,
  }) => {
    await signInWithDemoKey();
    const { demo, overview } = await demoOverview(page, sandbox);
    const all = await overview.rows.count();

    await overview.failingOnly.check();
    await expect(page).toHaveURL(/[?&]failing=true/);
    await expect(overview.rows).not.toHaveCount(all);
    for (const text of await overview.column("Failing since")) expect(text).toMatch(/^since/);

    const notFound = demo.webhooks.find((webhook) => webhook.label.startsWith("404"))!;
    await overview.search.fill("not-found");
    await expect(page).toHaveURL(/[?&]q=not-found/);
    await expect(overview.rows).toHaveCount(1);
    await expect(overview.rows).toContainText(notFound.endpoint);

    // The same view after a reload, and from a copied link.
    await page.reload();
    await expect(overview.failingOnly).toBeChecked();
    await expect(overview.search).toHaveValue("not-found");
    await expect(overview.rows).toHaveCount(1);

    await overview.search.fill("");
    await overview.failingOnly.uncheck();
    await expect(page).toHaveURL(/\/overview$/);
    await expect(overview.rows).toHaveCount(all);
  });

  test("filters one application of several", async ({ page, sandbox, signInWithDemoKey }) => {
    const demo = await sandbox.demo();
    const staging = demo.applications.find((app) => app.name === "Staging")!;
    await signInWithDemoKey();
    const added = await page.request.post("/api/applications", {
      data: { name: "Staging", apiKey: staging.apiKey },
    });
    expect(added.status()).toBe(201);
    const stagingId = ((await added.json()) as { application: { id: string } }).application.id;
    const watched = await page.request.post(`/api/watches/bulk?app=${stagingId}`, {
      data: { text: staging.webhooks.map((webhook) => webhook.id).join("\n") },
    });
    expect(watched.status()).toBe(200);
    const { overview } = await demoOverview(page, sandbox);
    await expect(overview.rows).toHaveCount(demo.webhooks.length + staging.webhooks.length);

    await overview.application.selectOption({ label: "Staging" });
    await expect(page).toHaveURL(new RegExp(`[?&]app=${stagingId}`));
    await expect(overview.rows).toHaveCount(staging.webhooks.length);
    for (const text of await overview.column("Webhook")) expect(text).toContain("Staging");
  });

  test("pages many watched webhooks 50 at a time, each page in the URL and the browser's history", async ({
    page,
    sandbox,
    signInWithKey,
  }) => {
    const application = await sandbox.createApplication(`e2e overview pages ${Date.now()}`);
    const webhooks = [];
    for (let i = 0; i < 55; i++)
      webhooks.push(await sandbox.createWebhook(application.id, sandbox.receiver("ok")));
    await signInWithKey(application.apiKey);
    const text = webhooks
      .map((webhook, i) => `${webhook.id},Shop ${String(i + 1).padStart(2, "0")}`)
      .join("\n");
    const watched = await page.request.post("/api/watches/bulk", { data: { text } });
    expect(watched.status(), await watched.text()).toBe(200);

    const overview = new OverviewPage(page);
    await overview.goto();
    const pager = page.getByRole("navigation", { name: "Overview pages" });
    await expect(
      page.getByRole("status").filter({ hasText: "55 watched webhooks, worst first." }),
    ).toBeVisible();
    await expect(overview.rows).toHaveCount(50);
    await expect(pager).toContainText("Showing 1–50 of 55");
    await expect(pager).toContainText("Page 1 of 2");
    const first = await overview.column("Webhook");

    await pager.getByRole("link", { name: "Next page" }).click();
    await expect(page).toHaveURL(/[?&]page=2/);
    await expect(overview.rows).toHaveCount(5);
    await expect(pager).toContainText("Showing 51–55 of 55");
    const shown = [...first, ...(await overview.column("Webhook"))].map(
      (cell) => cell.match(/Shop \d\d/)?.[0],
    );
    expect(new Set(shown).size).toBe(55);

    await page.goBack();
    await expect(overview.rows).toHaveCount(50);
    await page.goForward();
    await expect(overview.rows).toHaveCount(5);

    // A filter starts again from the first page.
    await overview.search.fill("Shop 07");
    await expect(overview.rows).toHaveCount(1);
    await expect(page).not.toHaveURL(/[?&]page=/);
    await expect(pager).toHaveCount(0);

    // The watcher is shared by every spec of the run: it stops polling these.
    for (const webhook of webhooks) {
      const stopped = await page.request.delete(`/api/watches/${webhook.id}`);
      expect(stopped.status(), await stopped.text()).toBe(200);
    }
  });

  test("works at a phone's width", async ({ page, sandbox, signInWithDemoKey }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signInWithDemoKey();
    const { overview } = await demoOverview(page, sandbox);
    await expect(overview.rows.first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // Each cell says what it is, since the column headers are not shown.
    // Alerts may fire for the demo, and their banner pushes the rows down: the link is reached by scrolling, never sideways.
    // A banner arriving while it scrolls moves the rows again: scroll until the link stays in view.
    const link = overview.rows.first().getByRole("rowheader").getByRole("link");
    await expect(async () => {
      await link.scrollIntoViewIfNeeded();
      await expect(link).toBeInViewport({ timeout: 1000 });
    }).toPass({ timeout: 15_000 });
  });

  test("has no serious accessibility violation (light and dark)", async ({
    page,
    sandbox,
    signInWithDemoKey,
  }) => {
    await signInWithDemoKey();
    await demoOverview(page, sandbox);
    await expectAccessibleInBothSchemes(page);
  });
});
