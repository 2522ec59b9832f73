/**
 * Where the answers end and the rows begin: a console in front of a demo-seeded sandbox (its
 * webhooks watched out of the box), measured in the bench's browser once the watcher has read
 * every demo webhook (so the Overview lists their failure issues). The busy webhook's first log
 * row from the top of its page at 1400 × 900 and on a phone, the Overview's height at 1400 × 900,
 * and the Overview's first watched webhook on a phone.
 */
import type { Browser, Page } from "playwright-core";
import { BUSY_LABEL, DEMO_API_KEY, DEMO_WEBHOOKS } from "../../lib/sandbox/seed";
import { signIn } from "../support/hub";
import { signedInContext } from "../support/signed-in-context";
import type { LayoutMeasure } from "./figures";

const DESKTOP = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };
const BUSY = DEMO_WEBHOOKS.find((webhook) => webhook.label === BUSY_LABEL)!.id;
/** How long the watcher may take to read every demo webhook (its busy one's backfill included). */
const READ_WITHIN_MS = 180_000;

/** Waits until the watcher has read every watched webhook of the session (the overview's rows say when). */
async function everyWebhookRead(consoleUrl: string, cookie: string): Promise<void> {
  const until = Date.now() + READ_WITHIN_MS;
  for (;;) {
    const response = await fetch(`${consoleUrl}/api/watches`, { headers: { cookie } });
    const answer = (await response.json()) as { rows?: Array<{ asOf: string | null }> };
    const rows = answer.rows ?? [];
    if (rows.length >= DEMO_WEBHOOKS.length && rows.every((row) => row.asOf !== null)) return;
    if (Date.now() > until)
      throw new Error(`the watcher had not read every demo webhook in ${READ_WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** The page at `path`, loaded, and every part it streams or reads after load arrived. */
async function opened(page: Page, consoleUrl: string, path: string): Promise<void> {
  await page.goto(`${consoleUrl}${path}`, { waitUntil: "load" });
  await page.waitForLoadState("networkidle");
}

/** Top of the first element matching `selector`, from the top of the page (CSS px). */
function topOf(page: Page, selector: string): Promise<number> {
  return page.evaluate((css) => {
    const element = document.querySelector(css);
    if (!element) throw new Error(`nothing matches ${css} on ${location.href}`);
    return element.getBoundingClientRect().top + window.scrollY;
  }, selector);
}

export async function measureLayout(
  browser: Browser,
  consoleUrl: string,
  log: (line: string) => void,
): Promise<LayoutMeasure> {
  const cookie = await signIn(consoleUrl, DEMO_API_KEY);
  log("layout: waiting for the watcher to read every demo webhook");
  await everyWebhookRead(consoleUrl, cookie);
  const issues = (
    (await (await fetch(`${consoleUrl}/api/issues`, { headers: { cookie } })).json()) as {
      issues: Array<{ state: string }>;
    }
  ).issues.filter((issue) => issue.state === "open" || issue.state === "acknowledged").length;

  const at = async <T>(viewport: { width: number; height: number }, work: (page: Page) => Promise<T>) => {
    const context = await signedInContext(browser, consoleUrl, cookie);
    try {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      return await work(page);
    } finally {
      await context.close();
    }
  };
  const busyRow = (page: Page) =>
    opened(page, consoleUrl, `/webhooks/${BUSY}`).then(() => topOf(page, "tr[data-log-id]"));
  const firstRowDesktop = await at(DESKTOP, busyRow);
  const firstRowPhone = await at(PHONE, busyRow);
  const overviewDesktop = await at(DESKTOP, async (page) => {
    await opened(page, consoleUrl, "/overview");
    await page.locator("li[data-issue-id]").first().waitFor();
    return page.evaluate(() => document.documentElement.scrollHeight);
  });
  const overviewFirstRowPhone = await at(PHONE, async (page) => {
    await opened(page, consoleUrl, "/overview");
    return topOf(page, "tr[data-webhook-id]");
  });
  return { firstRowDesktop, firstRowPhone, overviewDesktop, overviewFirstRowPhone, issues };
}
