/**
 * "Failing since", in the webhook's state line, is a fact about the webhook, not about Delivery
 * health's window: read past the window to the streak's start, dated whenever it is not today in
 * the viewer's zone; health lists the codes that make up the streak. Checked against the
 * sandbox's own logs. And a reading left for another window is no error in the browser, and a
 * slow hub does not hold the page: it answers from the copy as it is.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { healthAnswered } from "./fixtures/pages";
import { SANDBOX_URL, type DemoWebhookKind, type Sandbox, type SandboxLog } from "./fixtures/sandbox";

/** Far from UTC, so a date in UTC and in the viewer's zone often differ. */
const ZONE = "Pacific/Kiritimati";
test.use({ timezoneId: ZONE });
test.describe.configure({ timeout: 90_000 });

const dayIn = (time: number) =>
  new Intl.DateTimeFormat("en-CA", {
    timeZone: ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(time);

/** How the region should word a moment in ZONE (en-GB): `04:17` today, `24 Nov, 04:17` another day, with the year if not this one. */
function moment(iso: string, now: number): string {
  const time = Date.parse(iso);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: ZONE,
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
    })
      .formatToParts(time)
      .map((part) => [part.type, part.value]),
  );
  const clock = `${parts.hour}:${parts.minute}`;
  if (dayIn(time) === dayIn(now)) return clock;
  const year = dayIn(time).slice(0, 4) === dayIn(now).slice(0, 4) ? "" : ` ${parts.year}`;
  return `${parts.day} ${parts.month}${year}, ${clock}`;
}

/** The webhook's current failing streak, from its whole history (newest first), as the region words it. */
function expectedStreak(logs: SandboxLog[], now: number) {
  let length = 0;
  while (length < logs.length && logs[length]!.status === "Failed") length++;
  const streak = logs.slice(0, length);
  const codes = new Map<number, number>();
  for (const log of streak) codes.set(log.statusCode, (codes.get(log.statusCode) ?? 0) + 1);
  const codesText = [...codes]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([code, count]) => `${code === 0 ? "No connection" : code} × ${count.toLocaleString("en")}`)
    .join(", ");
  return {
    length,
    line: `Failing since ${moment(streak.at(-1)!.sendAt, now)} — ${length.toLocaleString("en")} attempts in a row`,
    codes: `In the current streak: ${codesText}`,
  };
}

const health = (page: Page) => page.getByRole("region", { name: "Delivery health" });
const windowLink = (page: Page, name: string) =>
  health(page).getByRole("navigation", { name: "Health window" }).getByRole("link", { name, exact: true });

/** Picks a window ("1 h", "24 h", "7 d") and waits for its whole answer. */
async function pickWindow(page: Page, name: string): Promise<void> {
  await windowLink(page, name).click();
  await expect(windowLink(page, name)).toHaveAttribute("aria-current", "true", { timeout: 20_000 });
  // The answer is in when the region says nothing is being read.
  await expect(health(page).getByRole("status")).toHaveCount(0, { timeout: 20_000 });
}

/**
 * Opens a demo webhook and checks, in each window, the streak its whole history gives (at least
 * `atLeast` attempts long). Other specs may deliver to it meanwhile: an answer from the watch is
 * compared with the logs written before its "as of" time, a scan's with the logs read after it, and
 * the whole is tried again until they agree (an attempt in flight at that moment may be missing).
 */
async function expectStreakShown(
  page: Page,
  sandbox: Sandbox,
  kind: DemoWebhookKind,
  windows: string[],
  atLeast = 1,
) {
  const { id, label } = await sandbox.demoWebhook(kind);
  const { apiKey } = await sandbox.demo();
  await expect(async () => {
    await page.goto(`/webhooks/${id}`);
    for (const name of windows) {
      await pickWindow(page, name);
      // Read at once: the source line re-renders as its age counts up.
      const asOf = await health(page).evaluate((region) => {
        const line = [...region.querySelectorAll("time[datetime]")].find((time) =>
          time.textContent?.startsWith("From the watch"),
        );
        return line ? Date.parse(line.getAttribute("datetime")!) : Infinity;
      });
      const logs = (await sandbox.allLogs(id, apiKey)).filter((log) => Date.parse(log.createdDate) <= asOf);
      const expected = expectedStreak(logs, Date.now());
      expect(expected.length).toBeGreaterThanOrEqual(atLeast);
      await expect(page.getByRole("region", { name: label }), `window ${name}`).toContainText(expected.line, {
        timeout: 2_000,
      });
      await expect(health(page), `window ${name}`).toContainText(expected.codes, { timeout: 2_000 });
    }
  }).toPass({ timeout: 90_000 });
}

test.describe("Failing since", () => {
  test.beforeEach(async ({ signInWithDemoKey }) => {
    await signInWithDemoKey();
  });

  test("is where the streak really began, the same in every window, dated when not today", async ({
    page,
    sandbox,
  }) => {
    await expectStreakShown(page, sandbox, "Timeout", ["1 h", "7 d", "24 h"]);
  });

  test("on the busy webhook, 1 h shows the whole streak of the last 90 minutes", async ({
    page,
    sandbox,
  }) => {
    await expectStreakShown(page, sandbox, "Busy", ["1 h"], 37);
  });
});

test.describe("A reading left behind", () => {
  /** The sandbox answers this webhook's log pages slowly while a test runs (its fault injection). */
  let slowPath = "";
  /** A webhook nobody watches (the demo's are watched, and their health then needs no scan). */
  let webhookId = "";

  test.beforeEach(async ({ sandbox, signInWithKey }) => {
    const { application, channel, webhook } = await sandbox.isolatedSetup("cancelled-scan", "error");
    await sandbox.sendMessage(application.apiKey, channel, "a delivery to read");
    webhookId = webhook.id;
    slowPath = `/v1/organization/webhook/${webhook.id}/webhook-log`;
    await signInWithKey(application.apiKey);
  });

  test.afterEach(async ({ request }) => {
    await request.delete(`${SANDBOX_URL}/_sandbox/faults`, {
      headers: { "content-type": "application/json" },
    });
  });

  test("is no error: nothing in the console, no error answer, and a slow hub still gets an answer at once", async ({
    page,
    request,
  }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    page.on("response", (response) => {
      if (response.url().includes("/api/") && response.status() >= 400)
        problems.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`/webhooks/${webhookId}`);
    await healthAnswered(page);

    const slow = await request.put(`${SANDBOX_URL}/_sandbox/faults`, {
      data: { latencyMs: 5000, pathPrefix: slowPath },
    });
    expect(slow.ok()).toBe(true);
    // Left for another window while the first one's reading is on the wire.
    await windowLink(page, "1 h").click();
    await windowLink(page, "24 h").click();
    await expect(windowLink(page, "24 h")).toHaveAttribute("aria-current", "true", { timeout: 20_000 });
    await healthAnswered(page, 30_000);
    // Past the 5 s in which a copy just read answers without the hub, a window reads the hub's newest
    // page first; the hub is slow, so the page answers from the copy as it is, and says as of when.
    await page.waitForTimeout(6_000);
    await windowLink(page, "7 d").click();
    await expect(windowLink(page, "7 d")).toHaveAttribute("aria-current", "true", { timeout: 20_000 });
    await healthAnswered(page);
    await expect(health(page).getByText(/^From the console's copy, as of \d+ s ago/)).toBeVisible();
    await expect(health(page).getByRole("alert")).toHaveCount(0);
    expect(problems).toEqual([]);
  });
});
