/**
 * The UI shows each fault and recovers when the upstream does: a person on the
 * webhook page of the built console, in front of its own sandbox whose fault injection is
 * switched on and off at run time (`PUT/DELETE /_sandbox/faults`). For each fault the page says
 * what happened in place of the rows, and once the sandbox is healthy again the rows come back: by
 * "Try again", by Auto-refresh on its own, and for a page first loaded during the fault.
 */
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import type { FaultSettingsInput } from "../../../lib/sandbox/faults";
import { LoginPage, WebhookPage } from "../fixtures/pages";
import { DEMO_WEBHOOK as WEBHOOK, startFaultStack, type FaultStack } from "./fault-stack";

const HUB_TIMEOUT_MS = 1500;
/** The heading of the demo webhook answering 200: its endpoint on this spec's sandbox. */
const endpoint = () => new RegExp(`^${stack.sandbox.url.replaceAll(".", "\\.")}/_sandbox/receivers/ok$`);
/** Faults on this webhook's logs only: the page's other calls (the webhook, the send form) stay healthy. */
const LOGS_PATH = `/v1/organization/webhook/${WEBHOOK}/webhook-log`;
/** The page waits for its answers up to HUB_TIMEOUT_MS, and a reading of the copy a little longer. */
const AFTER_RETRIES = { timeout: 25_000 };

test.describe.configure({ mode: "serial", timeout: 90_000 });
// The console of this spec's own stack, on the free port it took in beforeAll (the hook itself
// runs before there is one).
test.use({ baseURL: async ({}, provide) => provide(stack?.console.url) });

let stack: FaultStack;
let session: Awaited<ReturnType<BrowserContext["cookies"]>>;

const setFaults: FaultStack["setFaults"] = (settings) => stack.setFaults(settings);
const faultsOff = () => stack.faultsOff();
const faultState = () => stack.faultState();

test.beforeAll(async ({ browser }) => {
  stack = await startFaultStack({
    hubTimeoutMs: HUB_TIMEOUT_MS,
  });
  // One sign-in through the login page's demo button; every test reuses its cookie.
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
  await faultsOff();
});

/** The demo webhook's page, healthy, with its first page of rows. */
async function openWebhook(page: Page): Promise<WebhookPage> {
  await page.context().addCookies(session);
  const webhookPage = new WebhookPage(page);
  await webhookPage.goto(WEBHOOK);
  await expect(page.getByRole("heading", { level: 1, name: endpoint() })).toBeVisible();
  await expect(webhookPage.rows).toHaveCount(20);
  // Delivery health reads the same log pages (into the console's copy), and the next page is
  // prefetched: let both finish before a test turns faults on.
  await expect(
    page.getByRole("region", { name: "Delivery health" }).getByText(/^(Success rate|No delivery attempts)/),
  ).toBeVisible({ timeout: 15_000 });
  await page.waitForLoadState("networkidle");
  return webhookPage;
}

/**
 * An error answer, and a 429 with its wait: the other faults (not JSON, slower than
 * HUB_TIMEOUT_MS) take the same way to the same panel; their statuses and messages are the
 * routes' tests' (webhook-route.test.ts), their headings ErrorPanel's (error-panel.test.tsx).
 */
const faults: Array<{
  name: string;
  settings: FaultSettingsInput;
  title: string;
  message: RegExp;
  extra?: string;
}> = [
  {
    name: "an error answer (500/503)",
    settings: { errorRate: 1 },
    title: "The Messaging Hub is not answering properly",
    message: /The Messaging Hub failed with HTTP 50[03]\./,
  },
  {
    name: "a 429",
    settings: { rateLimitRate: 1, retryAfterSeconds: 4 },
    title: "Too many requests right now",
    message: /The Messaging Hub is limiting requests\. Wait 4 s and try again\./,
    extra: "You can try again in about 4 seconds.",
  },
];

for (const fault of faults) {
  test(`${fault.name} while filtering: the page says so, and "Try again" brings the rows back once the hub recovers`, async ({
    page,
  }) => {
    const webhookPage = await openWebhook(page);
    await setFaults({ ...fault.settings, pathPrefix: LOGS_PATH });

    await webhookPage.chooseStatus("Failed");
    // In place of the rows (Delivery health, which reads the same pages, may say so too).
    const title = webhookPage.table.getByText(fault.title, { exact: true });
    await expect(title).toBeVisible(AFTER_RETRIES);
    await expect(webhookPage.table.getByText(fault.message)).toBeVisible();
    if (fault.extra) await expect(webhookPage.table.getByText(fault.extra)).toBeVisible();
    await expect(webhookPage.rows).toHaveCount(0);
    // The rest of the page still works: the header is there, the person can go elsewhere.
    await expect(page.getByRole("heading", { level: 1, name: endpoint() })).toBeVisible();
    await expect(page.getByRole("banner").getByRole("link", { name: "Webhooks" })).toBeVisible();
    expect((await faultState()).injected.requests).toBeGreaterThan(0);

    await faultsOff();
    await webhookPage.table.getByRole("button", { name: "Try again" }).click();
    await expect(webhookPage.rows.first()).toBeVisible();
    await expect(title).toBeHidden();
    const statuses = await webhookPage.column("Status");
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect(status).toContain("Failed");
  });
}

test("a failed Refresh says so in place of the rows; Try again brings them back once the hub recovers", async ({
  page,
}) => {
  const webhookPage = await openWebhook(page);
  await setFaults({ errorRate: 1, pathPrefix: LOGS_PATH });

  await page.getByRole("button", { name: "Refresh", exact: true }).click();
  const alert = webhookPage.table.getByRole("alert");
  await expect(alert).toBeVisible(AFTER_RETRIES);
  await expect(alert).toContainText("The Messaging Hub is not answering properly");
  await expect(webhookPage.rows).toHaveCount(0);

  await faultsOff();
  await alert.getByRole("button", { name: "Try again" }).click();
  await expect(alert).toBeHidden();
  await expect(webhookPage.rows).toHaveCount(20);
});

test("with Auto-refresh on, the page shows the fault and recovers by itself when the hub does", async ({
  page,
}) => {
  const webhookPage = await openWebhook(page);
  await setFaults({ errorRate: 1, pathPrefix: LOGS_PATH });
  await webhookPage.autoRefresh.check();

  const alert = webhookPage.table.getByRole("alert");
  await expect(alert).toBeVisible({ timeout: 30_000 });
  await expect(alert).toContainText("The Messaging Hub is not answering properly");

  await faultsOff();
  // No click: the next automatic refresh succeeds and the rows come back.
  await expect(alert).toBeHidden({ timeout: 20_000 });
  await expect(webhookPage.rows).toHaveCount(20);
});

test("a page first loaded while the hub fails shows the error; Try again renders it once the hub recovers", async ({
  page,
}) => {
  await page.context().addCookies(session);
  await setFaults({ errorRate: 1 });
  const webhookPage = new WebhookPage(page);
  await webhookPage.goto(WEBHOOK);
  await expect(page.getByRole("heading", { level: 1, name: `Webhook ${WEBHOOK}` })).toBeVisible();
  await expect(page.getByText("The Messaging Hub is not answering properly", { exact: true })).toBeVisible();
  await expect(page.getByText(/The Messaging Hub failed with HTTP 50[03]\./)).toBeVisible();

  await faultsOff();
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 1, name: endpoint() })).toBeVisible({ timeout: 15_000 });
  await expect(webhookPage.rows).toHaveCount(20);
});
