/**
 * A history scan meeting a slow, rate-limiting or failing hub: the built console in front of its
 * own sandbox, whose fault injection is scoped to the busy demo webhook's log pages. Cancel stops
 * the upstream calls at once; a failure mid-scan says how far it got, what failed, and a way to
 * try again (a 429 mid-scan only slows the copy down: copy-routes.test.ts). And a view
 * waiting for a slow hub: the earlier rows held until the new ones come, unless the person left.
 * An export the hub fails is said on the page, and saves nothing.
 */
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { BUSY_LABEL, DEMO_WEBHOOKS } from "../../lib/sandbox/seed";
import { healthAnswered, LoginPage, WebhookPage } from "./fixtures/pages";
import { startFaultStack, type FaultStack } from "./security/fault-stack";

const BUSY = DEMO_WEBHOOKS.find((webhook) => webhook.label === BUSY_LABEL)!.id;
const LOGS_PATH = `/v1/organization/webhook/${BUSY}/webhook-log`;
/** No response body in the demo holds this: the scan reads the whole history. */
const NOWHERE = "text-that-no-response-holds";

test.describe.configure({ mode: "serial", timeout: 90_000 });
// The console of this spec's own stack, on the free port it took in beforeAll (the hook itself
// runs before there is one).
test.use({ baseURL: async ({}, provide) => provide(stack?.console.url) });

let stack: FaultStack;
let session: Awaited<ReturnType<BrowserContext["cookies"]>>;

test.beforeAll(async ({ browser }) => {
  // The console's copy of the busy webhook lasts the whole run: each test below asks for more of
  // its history than the one before (`cap`), so each meets the hub for pages not copied yet.
  stack = await startFaultStack({
    hubTimeoutMs: 2000,
    env: { HISTORY_SCAN_CAP: "500" },
  });
  const context = await browser.newContext({ baseURL: stack.console.url });
  const login = new LoginPage(await context.newPage());
  await login.goto();
  await login.signInWithDemoKey();
  session = await context.cookies();
  await context.close();
});

test.afterAll(async () => {
  await stack?.stop();
});

test.afterEach(async () => {
  await stack.faultsOff();
});

/** The busy webhook's page once its health region has finished reading (its calls are over). */
async function openBusy(page: Page): Promise<void> {
  await page.context().addCookies(session);
  await page.goto(`/webhooks/${BUSY}`);
  await healthAnswered(page, 20_000);
}

/** Asks the `cap` newest deliveries a question no log answers (as Scan further does). */
async function scanEverything(page: Page, cap: number): Promise<void> {
  const url = new URL(page.url());
  url.searchParams.set("contains", NOWHERE);
  url.searchParams.set("cap", String(cap));
  await page.goto(url.toString());
}

/** Said when the copy's reading stopped on a failure of the hub. */
const stoppedOnFailure = (page: Page) => page.getByText(/^The copy stopped after/);

const coverage = (page: Page) => page.getByText(/^0 matches in [\d,]+ deliveries read/);

// First, before any complete scan of the busy webhook is cached: the export must meet the hub.
test("an export the hub fails is said by its button's name, and nothing is saved", async ({ page }) => {
  await openBusy(page);
  await page.getByText("Filter the whole history").click();
  let downloads = 0;
  page.on("download", () => downloads++);
  await stack.setFaults({ errorRate: 1, pathPrefix: LOGS_PATH });
  // A copy read within the last 5 s answers without the hub: the export must meet it.
  await page.waitForTimeout(6_000);
  await page.getByRole("button", { name: "Export CSV" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Export CSV: / })).toContainText(
    /(hub|stopped before its end)/i,
    { timeout: 30_000 },
  );
  expect(downloads).toBe(0);

  await stack.faultsOff();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export CSV" }).click(),
  ]);
  await expect(page.getByRole("status").filter({ hasText: /^Saved / })).toHaveText(
    new RegExp(`^Saved ${download.suggestedFilename()} \\(From the console's copy, as of .+\\)\\.$`),
  );
  expect(downloads).toBe(1);
});

test("Cancel stops the scan: no upstream call is made after it", async ({ page }) => {
  await openBusy(page);
  // Slow enough that the page's own wait for the copy runs out and the browser carries on reading.
  await stack.setFaults({ latencyMs: 1500, pathPrefix: LOGS_PATH });
  await scanEverything(page, 1500);
  await expect(page.getByText(/^Reading [\d,]+ of [\d,]+ deliveries…/)).toBeVisible({ timeout: 15_000 });
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByText(/^Cancelled: what was read so far is kept/)).toBeVisible();

  // Calls already on their way when Cancel was pressed may still land; none may start after.
  await page.waitForTimeout(700);
  const settled = (await stack.faultState()).injected.requests;
  await page.waitForTimeout(2500);
  expect((await stack.faultState()).injected.requests).toBe(settled);
  // It stopped midway: 1,000 more logs are 20 pages, more than were read.
  expect(settled).toBeLessThan(20);
});

test("a failure mid-scan shows how far it got, what failed, and Try again", async ({ page }) => {
  await openBusy(page);
  await stack.setFaults({ latencyMs: 1500, pathPrefix: LOGS_PATH });
  await scanEverything(page, 2000);
  await expect(page.getByText(/^Reading [\d,]+ of [\d,]+ deliveries…/)).toBeVisible({ timeout: 15_000 });
  await stack.setFaults({ errorRate: 1, pathPrefix: LOGS_PATH });
  const partial = page.getByText("Partial result").locator("..");
  await expect(partial).toBeVisible({ timeout: 30_000 });
  await expect(partial).toContainText(/The copy stopped after [\d,]+ deliveries: .*HTTP 50[03]/);
  await stack.faultsOff();
  await partial.getByRole("button", { name: "Try again" }).click();
  await expect(coverage(page)).toBeVisible({ timeout: 30_000 });
  await expect(stoppedOnFailure(page)).toHaveCount(0);
});

test.describe("a new status while the hub is slow", () => {
  test("the page says it is updating, the earlier rows shown meanwhile, until the new ones come", async ({
    page,
  }) => {
    const webhookPage = new WebhookPage(page);
    await openBusy(page);
    await stack.setFaults({ latencyMs: 1500, pathPrefix: LOGS_PATH });
    await webhookPage.chooseStatus("Failed");
    await expect(page.getByRole("status").filter({ hasText: "Updating…" })).toBeVisible();
    expect(await webhookPage.rows.count()).toBeGreaterThan(0);
    await expect(page).toHaveURL(/[?&]status=Failed/, { timeout: 10_000 });
    await expect
      .poll(async () => new Set(await webhookPage.column("Status")), { timeout: 10_000 })
      .toEqual(new Set(["✕Failed"]));
    await expect(page.getByRole("status").filter({ hasText: "Updating…" })).toHaveCount(0);
  });

  test("leaving the page before the rows come keeps the person where they went", async ({ page }) => {
    await openBusy(page);
    await stack.setFaults({ latencyMs: 1500, pathPrefix: LOGS_PATH });
    await new WebhookPage(page).chooseStatus("Failed");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page).toHaveURL(/\/webhooks(\?|$)/);
    // Long after the Failed rows came back: the webhook's URL was not written over the Webhooks page.
    await page.waitForTimeout(3000);
    await expect(page).toHaveURL(/\/webhooks(\?|$)/);
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  });
});
