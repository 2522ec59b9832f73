/**
 * The whole history of a webhook, against the sandbox's busy demo webhook (thousands of
 * deliveries over several days, failing now): the Delivery health region checked against the
 * sandbox's own data, filters over every delivery, Find, `?log=` links whose page has moved,
 * and exports opened and parsed.
 */
import type { Page } from "@playwright/test";
import { healthAnswered, UTC_TITLE } from "./fixtures/pages";
import { expect, test } from "./fixtures/test";
import type { SandboxLog } from "./fixtures/sandbox";

const DAY_MS = 86_400_000;

/** What the region should say for the last 24 h, computed from the sandbox's own logs. */
function expectedHealth(logs: SandboxLog[], now: number) {
  const inWindow = logs.filter((log) => Date.parse(log.sendAt) >= now - DAY_MS);
  const failed = inWindow.filter((log) => log.status === "Failed");
  const byCode = new Map<number, number>();
  for (const log of failed) byCode.set(log.statusCode, (byCode.get(log.statusCode) ?? 0) + 1);
  let streak = 0;
  while (streak < inWindow.length && inWindow[streak]!.status === "Failed") streak++;
  const rate = Math.round(((inWindow.length - failed.length) / inWindow.length) * 1000) / 10;
  return {
    attempts: inWindow.length,
    failed: failed.length,
    rate,
    streak,
    byCode,
    lastFailure: failed[0]?.sendAt,
  };
}

let busyId = "";
let busyName = "";

async function openBusy(page: Page, query = "") {
  await page.goto(`/webhooks/${busyId}${query}`);
}

/** RFC 4180 records (quoted fields may hold commas, quotes and newlines). */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  const pattern = /("((?:[^"]|"")*)"|[^",\r\n]*)(,|\r?\n|$)/g;
  let record: string[] = [];
  for (const match of text.matchAll(pattern)) {
    if (match.index === text.length) break;
    record.push(match[2] !== undefined ? match[2].replaceAll('""', '"') : match[1]!);
    if (match[3] !== ",") {
      records.push(record);
      record = [];
    }
  }
  return records;
}

test.describe("whole history", () => {
  test.beforeEach(async ({ sandbox, signInWithDemoKey }) => {
    ({ id: busyId, label: busyName } = await sandbox.demoWebhook("Busy"));
    await signInWithDemoKey();
  });

  test("Delivery health matches the sandbox's own data, and the state line says since when it fails", async ({
    page,
    sandbox,
  }) => {
    // The watcher's first read of the busy webhook (its backfill) may still be under way.
    test.setTimeout(150_000);
    const { apiKey } = await sandbox.demo();
    const health = page.getByRole("region", { name: "Delivery health" });
    const heading = page.getByRole("region", { name: busyName });
    // Other specs may cause deliveries meanwhile: compare a fresh read of both until they agree.
    await expect(async () => {
      await openBusy(page);
      await healthAnswered(page);
      const expected = expectedHealth(await sandbox.allLogs(busyId, apiKey), Date.now());
      const text = await health.innerText();
      expect(text).toContain(`${expected.rate}%`);
      expect(text).toContain(
        `${expected.attempts.toLocaleString("en")} (${expected.failed.toLocaleString("en")} failed)`,
      );
      expect(expected.streak).toBeGreaterThan(0);
      // The day is named when the streak began before today: "Failing since 27 Nov, 23:39".
      await expect(heading).toContainText(
        new RegExp(
          `Failing since (\\d{1,2} \\w{3,4}( \\d{4})?, )?\\d\\d:\\d\\d — ${expected.streak} attempts in a row`,
        ),
      );
      // How long ago, with the exact UTC time on hover, as the table's times.
      const lastFailure = health.locator("div:has(> dt:text-is('Last failure')) > dd time");
      await expect(lastFailure).toHaveAttribute("datetime", expected.lastFailure!);
      await expect(lastFailure).toHaveAttribute("title", UTC_TITLE);
      const [topCode, topCount] = [...expected.byCode].sort((a, b) => b[1] - a[1])[0]!;
      await expect(
        health.getByRole("link", {
          name: `Show the ${topCount} failures with ${topCode || "No connection"} in this window`,
        }),
      ).toBeVisible();
    }).toPass({ timeout: 120_000 });

    // The chart, read as one sentence.
    await expect(health.getByText(/^Attempts over time, \d+ bars: /)).toBeAttached();
    await expect(health.locator("figure > svg")).toBeVisible();
    await health.getByText("Attempts per bar, as a table").click();
    await expect(health.getByRole("table")).toBeVisible();
  });

  test("a failure code in the health region filters the table over the whole history", async ({
    page,
    webhookPage,
  }) => {
    await openBusy(page);
    const health = page.getByRole("region", { name: "Delivery health" });
    await health.getByRole("link", { name: /^Show the \d+ failures with 500 in this window$/ }).click();
    await expect(page).toHaveURL(/status=Failed&code=500&since=/);
    const coverage = page.getByText(/^[\d,]+ match(es)? in [\d,]+ deliver(y|ies) read/);
    await expect(coverage).toBeVisible({ timeout: 20_000 });
    const codes = await webhookPage.column("HTTP status");
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes)).toEqual(new Set(["500"]));
  });

  test("filters in the URL: bad input is refused in the form, good input scans the history", async ({
    page,
    webhookPage,
  }) => {
    await openBusy(page);
    // The filters render when their section is first opened, not after load inside the closed
    // section (a locator, not a role: a closed section's content has none). The health region
    // shows once the page has loaded and idled, which is when the filters' chunk is fetched.
    const filters = page.locator('form[aria-label="Filter the whole history"]');
    await healthAnswered(page);
    await expect(filters).toHaveCount(0);
    const section = page.getByText("Filter the whole history");
    await section.click();
    await expect(filters).toBeVisible();
    await page.getByLabel("HTTP status").fill("9xx");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page.getByText(/HTTP status: enter a code from 0 to 599/)).toBeVisible();
    // Closed and opened again, the section keeps what was typed and what was wrong with it.
    await section.click();
    await expect(filters).toBeHidden();
    await section.click();
    await expect(page.getByLabel("HTTP status")).toHaveValue("9xx");
    await expect(page.getByText(/HTTP status: enter a code from 0 to 599/)).toBeVisible();
    expect(new URL(page.url()).searchParams.has("code")).toBe(false);

    // A date typed without its time: the browser calls the field empty, the form says what is missing.
    await page.getByLabel("HTTP status").fill("500");
    await page.getByLabel("Since").click();
    await page.keyboard.type("12");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page.getByText("Since: finish the date and time, or clear the field.")).toBeVisible();
    expect(new URL(page.url()).searchParams.has("code")).toBe(false);
    await page.getByLabel("Since").fill("");

    await page.getByLabel("HTTP status").fill("0");
    await page.getByLabel("Response contains").fill("CERT");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/code=0&contains=CERT/);
    await expect(page.getByText(/match(es)? in [\d,]+ deliveries read/)).toBeVisible({
      timeout: 20_000,
    });
    const codes = await webhookPage.column("HTTP status");
    for (const code of codes) expect(code).toBe("No connection");
    for (const body of await webhookPage.column("Response")) expect(body.toLowerCase()).toContain("cert");
  });

  test("a ?log= link opens its delivery after newer ones pushed it off the first page", async ({
    page,
    sandbox,
    webhookPage,
  }) => {
    const { apiKey } = await sandbox.demo();
    const logs = await sandbox.allLogs(busyId, apiKey);
    const deep = logs[700]!;
    await openBusy(page, `?log=${deep.id}`);
    await expect(webhookPage.dialog).toBeVisible();
    await expect(webhookPage.dialog.getByText(`Log ${deep.id}`)).toBeVisible();
    await expect(
      webhookPage.dialog.getByText(String(deep.statusCode === 0 ? "No connection" : deep.statusCode)).first(),
    ).toBeVisible({
      timeout: 20_000,
    });
  });

  test("Find a delivery by its message ID, and a clear answer for one that does not exist", async ({
    page,
    sandbox,
    webhookPage,
  }) => {
    const { apiKey } = await sandbox.demo();
    const logs = await sandbox.allLogs(busyId, apiKey);
    const target = logs.find((log, index) => index > 1000 && log.messageId)!;
    await openBusy(page);
    const find = page.getByRole("form", { name: "Find a delivery" });
    await find.getByLabel("Find a delivery").fill(target.messageId!);
    await find.getByRole("button", { name: "Find" }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]log=${target.messageId}$`));
    await expect(webhookPage.dialog).toBeVisible();
    await expect(webhookPage.dialog.getByText(`Log ${target.id}`)).toBeVisible({ timeout: 20_000 });
    await webhookPage.dialog.getByRole("button", { name: "Close" }).click();

    await find.getByLabel("Find a delivery").fill("00000000-0000-4000-8000-000000000000");
    await find.getByRole("button", { name: "Find" }).click();
    await expect(webhookPage.dialog).toContainText("No delivery with log or message ID", { timeout: 20_000 });
    await webhookPage.dialog.getByRole("button", { name: "Close" }).click();

    await find.getByLabel("Find a delivery").fill("not an id");
    await find.getByRole("button", { name: "Find" }).click();
    await expect(find.getByRole("alert")).toHaveText(
      "Find a delivery: this is not an ID or a console link: paste a message ID, a log ID or a console link to a delivery.",
    );
  });

  test("Export CSV and JSON download every matched row, formula-safe", async ({ page, sandbox }) => {
    const { apiKey } = await sandbox.demo();
    await openBusy(page, "?status=Failed&code=500");
    await expect(page.getByText(/match(es)? in [\d,]+ deliveries read/)).toBeVisible({
      timeout: 20_000,
    });
    // The filters panel is open while filters are set.

    const [csvDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(csvDownload.suggestedFilename()).toMatch(new RegExp(`${busyId}.*\\.csv$`));
    // The page says what it saved, and which part of the console answered.
    await expect(page.getByRole("status").filter({ hasText: /^Saved / })).toHaveText(
      /^Saved \S+\.csv \((From the watch|From the console's copy), as of \d+ (s|min) ago; .+\)\.$/,
    );
    const csvText = Buffer.concat(await (await csvDownload.createReadStream()).toArray()).toString("utf8");
    expect(csvText.startsWith("\ufeff"), "a UTF-8 byte order mark, for Excel").toBe(true);
    const csv = csvRecords(csvText.slice(1));
    const [header, ...rows] = csv;
    expect(header).toEqual([
      "id",
      "webhookId",
      "statusCode",
      "responseBody",
      "status",
      "sendAt",
      "createdDate",
      "messageId",
      "webhook.id",
      "webhook.endpoint",
      "webhook.eventType",
    ]);
    for (const row of rows) expect([row[2], row[4]]).toEqual(["500", "Failed"]);

    const [jsonDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export JSON" }).click(),
    ]);
    const json = JSON.parse(
      Buffer.concat(await (await jsonDownload.createReadStream()).toArray()).toString("utf8"),
    ) as SandboxLog[];
    const expected = (await sandbox.allLogs(busyId, apiKey)).filter(
      (log) => log.status === "Failed" && log.statusCode === 500,
    );
    // Deliveries may land between the export and the read: the export holds at least those older than it.
    expect(json.length).toBeGreaterThan(0);
    expect(Math.abs(json.length - expected.length)).toBeLessThanOrEqual(5);
    for (const log of json) expect([log.status, log.statusCode]).toEqual(["Failed", 500]);
    expect(Math.abs(rows.length - json.length)).toBeLessThanOrEqual(5);

    // For a customer: the same rows, redacted, in a file that says so.
    await page.getByRole("checkbox", { name: "For a customer (redacted)" }).check();
    const [customerDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export JSON" }).click(),
    ]);
    expect(customerDownload.suggestedFilename()).toMatch(/-redacted\.json$/);
    await expect(page.getByRole("status").filter({ hasText: /^Saved / })).toContainText(
      "redacted for a customer",
    );
    const redacted = JSON.parse(
      Buffer.concat(await (await customerDownload.createReadStream()).toArray()).toString("utf8"),
    ) as SandboxLog[];
    expect(Math.abs(redacted.length - json.length)).toBeLessThanOrEqual(5);
    expect(JSON.stringify(redacted)).not.toContain(apiKey);
  });
});
