import type { Request } from "@playwright/test";
import { expect, test } from "./fixtures/test";

/** Auto-refresh's requests: the page's Server Action, posted to the page, whose render reads the hub as a poll. */
function isAutoRefresh(request: Request, webhookId: string): boolean {
  return (
    request.method() === "POST" &&
    new URL(request.url()).pathname === `/webhooks/${webhookId}` &&
    "next-action" in request.headers()
  );
}

test("Auto-refresh picks up a new delivery by itself", async ({
  page,
  sandbox,
  signInWithKey,
  webhookPage,
}) => {
  const { application, channel, webhook } = await sandbox.isolatedSetup("live", "ok");
  await signInWithKey(application.apiKey);
  await webhookPage.goto(webhook.id);
  await expect(page.getByText("No deliveries recorded for this webhook yet")).toBeVisible();
  await webhookPage.autoRefresh.check();
  await expect(webhookPage.autoRefresh).toBeChecked();

  // Another integration sends a message; nobody touches the page.
  const sent = await sandbox.sendMessage(application.apiKey, channel, "live update");
  const messageId = sent.messageId ?? sent.id!;
  const row = webhookPage.row(messageId);
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row).toContainText("Success");
  await expect(webhookPage.pageOf).toHaveText("Page 1 of 1");
});

/** What a browser tells the page when its tab is hidden or shown again. */
async function setTabVisibility(page: import("@playwright/test").Page, state: "hidden" | "visible") {
  await page.evaluate((value) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => value });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => value === "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
  }, state);
}

test("Auto-refresh pauses while the tab is hidden and resumes when it is shown", async ({
  page,
  sandbox,
  signInWithKey,
  webhookPage,
}) => {
  const { application, webhook } = await sandbox.isolatedSetup("hidden-tab", "ok");
  await signInWithKey(application.apiKey);
  // The page's clock is ours: the refresh intervals pass on it without being waited out.
  await page.clock.install();
  await webhookPage.goto(webhook.id);
  const logRequests: string[] = [];
  page.on("request", (request) => {
    if (isAutoRefresh(request, webhook.id)) logRequests.push(request.url());
  });
  await webhookPage.autoRefresh.check();
  await page.clock.runFor("00:06");
  await expect.poll(() => logRequests.length).toBeGreaterThan(0);

  await setTabVisibility(page, "hidden");
  // A refresh still on its way ends first: a tick meeting it asks nothing, hidden or not.
  await page.waitForTimeout(1000);
  const whenHidden = logRequests.length;
  await page.clock.runFor("00:11"); // more than two refresh intervals (5 s)
  await page.waitForTimeout(1000); // a request those ticks made would have left by now
  expect(logRequests.length, "no refresh while the tab is hidden").toBe(whenHidden);

  await setTabVisibility(page, "visible");
  await page.clock.runFor("00:06");
  await expect.poll(() => logRequests.length).toBeGreaterThan(whenHidden);
});

test("Auto-refresh asks through the page's Server Action (read as a poll), and a Refresh click does not", async ({
  page,
  sandbox,
  signInWithKey,
  webhookPage,
}) => {
  const { application, webhook } = await sandbox.isolatedSetup("poll-header", "ok");
  await signInWithKey(application.apiKey);
  await webhookPage.goto(webhook.id);
  await expect(page.getByText("No deliveries recorded for this webhook yet")).toBeVisible();
  // Delivery health's first reading of the history asks for the page again when done: let it end first.
  await expect(
    page.getByRole("region", { name: "Delivery health" }).getByText(/^No delivery attempts in this window/),
  ).toBeVisible({ timeout: 15_000 });
  await page.waitForLoadState("networkidle");
  // The page's clock is ours from here: Auto-refresh's interval passes without being waited out.
  await page.clock.install();
  const asked: Array<"poll" | "person"> = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname !== `/webhooks/${webhook.id}`) return;
    if (isAutoRefresh(request, webhook.id)) asked.push("poll");
    else if (request.headers()["rsc"]) asked.push("person");
  });

  await webhookPage.autoRefresh.check();
  await page.clock.runFor("00:06");
  await expect.poll(() => asked.length).toBeGreaterThan(0);
  await webhookPage.autoRefresh.uncheck();
  expect(asked, "every auto-refresh request is the Server Action").toEqual(asked.map(() => "poll"));

  const polls = asked.length;
  await page.getByRole("button", { name: "Refresh", exact: true }).click();
  await expect.poll(() => asked.length).toBeGreaterThan(polls);
  expect(asked.slice(polls), "a person's Refresh is a plain request of the page").toEqual(
    asked.slice(polls).map(() => "person"),
  );
});
