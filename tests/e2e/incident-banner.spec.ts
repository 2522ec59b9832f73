import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { Page, Request } from "@playwright/test";
import { incidentRow, type IncidentInput, type IncidentRow } from "../support/alert-incidents";
import { violationsInBothSchemes } from "./fixtures/axe";
import { expect, test } from "./fixtures/test";
import { SANDBOX_URL, type Sandbox } from "./fixtures/sandbox";
import { startConsole, type ServerProcess } from "./security/support";

/**
 * The in-console alerts: a console this spec starts on a file store, whose incident rows the test
 * writes itself (the engine is not running), seen through the banner on every signed-in page (it
 * counts failing webhooks, one each whatever holds on them), the Alerts page's Incidents, the live
 * region and browser notifications. On a free port.
 */

type IncidentDb = Kysely<{ alert_incidents: IncidentRow }>;

let folder: string;
let server: ServerProcess;
let db: IncidentDb;

// Two axe passes and a fresh console's first pages take a while on a loaded machine.
test.describe.configure({ mode: "serial", timeout: 90_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  folder = mkdtempSync(path.join(tmpdir(), "incident-banner-"));
  const file = path.join(folder, "watch.sqlite");
  server = await startConsole({ HUB_BASE_URL: SANDBOX_URL, WATCH_DB: file, WATCH_IN_CONSOLE: "0" });
  const database = new Database(file);
  database.pragma("busy_timeout = 5000");
  db = new Kysely({ dialect: new SqliteDialect({ database }) });
});

test.afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** Every `new Notification(…)` the page makes, recorded (and still made). */
function recordNotifications(page: Page) {
  return page.addInitScript(() => {
    const Real = window.Notification;
    const shown: Array<{ title: string; body: string; tag: string }> = [];
    function Recorded(title: string, options: NotificationOptions = {}) {
      shown.push({ title, body: options.body ?? "", tag: options.tag ?? "" });
      return new Real(title, options);
    }
    Recorded.prototype = Real.prototype;
    Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
    Object.defineProperty(Recorded, "requestPermission", { value: () => Real.requestPermission() });
    Object.assign(window, { Notification: Recorded, __notifications: shown });
  });
}

interface Shown {
  title: string;
  body: string;
  tag: string;
}

const notifications = (page: Page) =>
  page.evaluate(() => (window as unknown as { __notifications: Shown[] }).__notifications);

/**
 * A fresh application with two webhooks, watched as "Acme orders" and "Globex refunds" by a
 * session of this page's browser (through the API: no page has read the incidents yet),
 * notifications allowed and recorded, and the page's clock ours to move. `fire` writes a firing
 * incident of one of them (Acme orders unless `webhookId` says).
 */
async function signedInWatching(page: Page, sandbox: Sandbox) {
  const { application, webhook } = await sandbox.isolatedSetup("banner");
  const other = await sandbox.createWebhook(application.id, sandbox.receiver("ok"));
  await page.context().grantPermissions(["notifications"], { origin: server.url });
  await recordNotifications(page);
  await page.clock.install();
  const signedIn = await page.request.post(`${server.url}/api/session`, {
    data: { apiKey: application.apiKey },
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  let appId = "";
  for (const [id, name] of [
    [webhook.id, "Acme orders"],
    [other.id, "Globex refunds"],
  ]) {
    const watched = await page.request.post(`${server.url}/api/watches`, { data: { webhookId: id, name } });
    expect(watched.status(), await watched.text()).toBe(201);
    appId = ((await watched.json()) as { watch: { appId: string } }).watch.appId;
  }
  const fire = async (input: Omit<IncidentInput, "appId">) => {
    const row = incidentRow({ appId, ...input });
    await db.insertInto("alert_incidents").values(row).execute();
    return row;
  };
  return { appId, webhook, other, fire };
}

/**
 * Lets the page's incidents query refresh (its interval is 15 s) and waits for the answer of a
 * read it starts. The previous answer may have reached the browser while the page still handles
 * it: the query is still fetching then, so a tick joins that read and asks nothing (and restarts
 * its interval when the read settles). Time moves on until a tick sends a request of its own.
 */
async function nextRefresh(page: Page) {
  let sent: Request | undefined;
  await expect(async () => {
    const asked = page.waitForRequest(
      (request) => new URL(request.url()).pathname === "/api/alerts/incidents",
      {
        timeout: 2000,
      },
    );
    await page.clock.fastForward("00:16");
    sent = await asked;
  }).toPass({ timeout: 15_000 });
  expect((await sent!.response())?.ok()).toBe(true);
}

test("the banner counts failing webhooks and the Incidents list each with what holds on it, axe-clean in light and dark, covering nothing on a phone", async ({
  page,
  sandbox,
}) => {
  const { appId, webhook, fire } = await signedInWatching(page, sandbox);
  const T = Date.now();
  await fire({
    webhookId: webhook.id,
    openedAt: T - 60_000,
    conditions: [
      { rule: "streak", headline: "5 failures in a row" },
      { rule: "rate", headline: "60 % of 10 attempts failed" },
    ],
  });
  // Another application's incident: never counted or named here.
  await db
    .insertInto("alert_incidents")
    .values(
      incidentRow({ appId: "ffffffffffffffff", webhookId: webhook.id, openedAt: T, headline: "not yours" }),
    )
    .execute();

  await page.goto(`${server.url}/alerts`);
  const banner = page.getByRole("region", { name: "Alerts firing" });
  await expect(banner).toContainText(
    "1 webhook failing. Newest: Acme orders: 5 failures in a row; 60 % of 10 attempts failed",
  );
  await expect(banner.getByRole("link", { name: "Acme orders" })).toHaveAttribute(
    "href",
    `/webhooks/${webhook.id}?app=${appId}`,
  );
  await expect(banner.getByRole("link", { name: "See all on the Alerts page" })).toHaveAttribute(
    "href",
    "/alerts#incidents",
  );
  const incidents = page.getByRole("region", { name: "Incidents" });
  await expect(incidents.getByRole("heading", { name: "Failing now: 1 webhook failing" })).toBeVisible();
  const firing = incidents.getByRole("table", { name: "Firing incidents" });
  await expect(firing.getByRole("row")).toHaveCount(2);
  await expect(firing).toContainText("Failing streak: 5 failures in a row");
  await expect(firing).toContainText("Failure rate: 60 % of 10 attempts failed");
  await expect(incidents.getByRole("status")).toHaveText(/Notifications are on in this browser/);
  await expect(page.getByText("not yours")).toHaveCount(0);
  // What fired before this browser first read the incidents is in the banner, not notified.
  expect(await notifications(page)).toEqual([]);

  expect(
    await violationsInBothSchemes(page, [
      "header",
      "section[aria-label='Alerts firing']",
      "section#incidents",
    ]),
  ).toEqual({ light: [], dark: [] });

  // At phone width the banner sits between the header and the page, covering neither.
  await page.setViewportSize({ width: 360, height: 740 });
  const [header, box, main] = await Promise.all(
    [page.locator("header").first(), banner, page.locator("main")].map((locator) => locator.boundingBox()),
  );
  expect(box!.y).toBeGreaterThanOrEqual(header!.y + header!.height - 0.5);
  expect(main!.y).toBeGreaterThanOrEqual(box!.y + box!.height - 0.5);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});

test("a webhook starting to fail is announced and notified once; dismissed, the banner returns for it; resolved, it clears", async ({
  page,
  sandbox,
}) => {
  const { webhook, other, fire } = await signedInWatching(page, sandbox);
  const streak = await fire({ webhookId: webhook.id, openedAt: Date.now() - 60_000 });
  await page.goto(`${server.url}/overview`);
  const banner = page.getByRole("region", { name: "Alerts firing" });
  await expect(banner).toContainText("1 webhook failing. Newest: Acme orders: 5 failures in a row");

  // Dismissed for this set: it comes back, announced and notified, when another webhook fails.
  await banner.getByRole("button", { name: "Dismiss" }).click();
  await expect(banner).toHaveCount(0);
  const inactive = await fire({
    webhookId: other.id,
    openedAt: Date.now(),
    conditions: [{ rule: "inactive", headline: "The webhook turned inactive" }],
  });
  await nextRefresh(page);
  await expect(banner).toContainText(
    "2 webhooks failing. Newest: Globex refunds: The webhook turned inactive",
  );
  await expect(page.locator("[aria-live=polite]").filter({ hasText: "Now failing" })).toHaveText(
    "Now failing: Globex refunds: The webhook turned inactive",
  );
  await expect
    .poll(() => notifications(page))
    .toEqual([
      {
        title: "Failing: Globex refunds",
        body: "The webhook turned inactive (Default)",
        tag: inactive.id,
      },
    ]);

  // Neither a reload nor the next refresh notifies it again.
  await page.reload();
  await expect(banner).toContainText("2 webhooks failing");
  await nextRefresh(page);
  expect(await notifications(page)).toEqual([]);

  // Resolved: the banner clears and each recovery is notified, once.
  await db
    .updateTable("alert_incidents")
    .set({ state: "resolved", resolved_at: Date.now(), updated_at: Date.now() })
    .where("id", "in", [streak.id, inactive.id])
    .execute();
  await nextRefresh(page);
  await expect(banner).toHaveCount(0);
  await expect
    .poll(async () => (await notifications(page)).map(({ title, tag }) => [title, tag]).sort())
    .toEqual(
      [
        ["Recovered: Acme orders", streak.id],
        ["Recovered: Globex refunds", inactive.id],
      ].sort(),
    );
});
