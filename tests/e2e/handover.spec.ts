/**
 * The support bundle of a failing demo webhook (the 404 one, whose newest body is a script
 * injection attempt): opened from the webhook page, previewed in each format, downloaded from the
 * very texts previewed, with the masked list; the hostile body stays text everywhere. From a
 * failure issue's card: the comparison of its newest failure, and its hand-over (the bundle of its
 * failures). `SCREENSHOTS=1` writes the README's picture of an HTML bundle.
 */
import { readFile } from "node:fs/promises";
import type { APIRequestContext, Download, Page } from "@playwright/test";
import type { FailureIssue } from "@/lib/domain/watch/failure-issue";
import { expect, test } from "./fixtures/test";

const DAY_MS = 86_400_000;

async function downloaded(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [download]: [Download, void] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: button }).click(),
  ]);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), "utf8") };
}

test.describe("support bundle", () => {
  test("previews and downloads each format of a failing webhook's bundle, with what was masked", async ({
    page,
    sandbox,
    signInWithDemoKey,
    browserDialogs,
  }) => {
    const webhook = await sandbox.demoWebhook("404");
    const { apiKey } = await sandbox.demo();
    const logs = await sandbox.allLogs(webhook.id, apiKey);
    await signInWithDemoKey();

    await page.goto(`/webhooks/${webhook.id}`);
    await page.getByRole("link", { name: "Support bundle" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Support bundle" })).toBeVisible();

    // The customer's zone, and a window wide enough for the whole demo history.
    const from = new Date(Date.now() - 30 * DAY_MS).toISOString();
    await page.getByLabel("From").fill(from);
    await page.getByLabel("Time zone").fill("Mars/Olympus");
    await page.getByRole("button", { name: "Prepare bundle" }).click();
    await expect(page.getByText("Time zone: enter an IANA time zone name")).toBeVisible();
    await expect(page.getByLabel("Time zone")).toHaveAttribute("aria-invalid", "true");

    await page.getByLabel("Time zone").fill("Asia/Tokyo");
    await page.getByRole("button", { name: "Prepare bundle" }).click();
    const failed = logs.filter(
      (log) => Date.parse(log.sendAt) >= Date.parse(from) && log.status === "Failed",
    );

    // Markdown, as text: counts from the sandbox's own logs, times in the zone picked.
    const markdown = page.getByRole("region", { name: "Markdown" }).locator("pre");
    await expect(markdown).toContainText(`**failed:** ${failed.length}`);
    await expect(markdown).toContainText("Asia/Tokyo");
    await expect(markdown).toContainText("## What to fix");
    await expect(markdown).toContainText("HTTP 404 Not Found");

    // HTML, in a sandboxed frame: the injection attempt shows as text and runs nothing.
    const frame = page.frameLocator('iframe[title="HTML bundle preview"]');
    await expect(page.locator('iframe[title="HTML bundle preview"]')).toHaveAttribute("sandbox", "");
    await expect(frame.getByRole("heading", { name: "Failing streak" })).toBeVisible();
    await expect(frame.getByText("<script>alert(1)</script>").first()).toBeVisible();
    await expect(frame.locator("script, img")).toHaveCount(0);

    // The masked list, as the preview shows it.
    const maskedRegion = page.getByRole("region", { name: "Masked before sharing" });
    await expect(maskedRegion).toBeVisible();
    const shownMasked = (await maskedRegion.getByRole("listitem").allTextContents()).map((text) =>
      text.trim(),
    );

    // Each download is the previewed text.
    const md = await downloaded(page, "Download Markdown");
    expect(md.name).toMatch(/^support-bundle-.*\.md$/);
    expect(md.text.trim()).toBe((await markdown.textContent())!.trim());
    const html = await downloaded(page, "Download HTML");
    expect(html.name).toMatch(/\.html$/);
    expect(html.text).toMatch(/^<!doctype html>/);
    expect(html.text).not.toMatch(/<script|<img/i);
    const json = await downloaded(page, "Download JSON");
    const bundle = JSON.parse(json.text) as {
      timeZone: string;
      counts: { failed: number };
      masked: Array<{ kind: string; count: number }>;
      messageIds: { total: number };
    };
    expect(bundle.timeZone).toBe("Asia/Tokyo");
    expect(bundle.counts.failed).toBe(failed.length);
    expect(bundle.messageIds.total).toBe(failed.filter((log) => log.messageId).length);
    expect(shownMasked).toEqual(bundle.masked.map((m) => `${m.kind}: ${m.count}`));
    // The session's key was never part of what is shared.
    for (const text of [md.text, html.text, json.text]) expect(text).not.toContain(apiKey);
    expect(browserDialogs).toEqual([]);
  });
});

/** The webhook's failure issues, once the watcher has stored its failures (it polls every 10 s in e2e). */
async function issuesOf(request: APIRequestContext, webhookId: string): Promise<FailureIssue[]> {
  let issues: FailureIssue[] = [];
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/issues?webhookId=${webhookId}`);
        issues = response.ok() ? ((await response.json()) as { issues: FailureIssue[] }).issues : [];
        return issues.length;
      },
      { timeout: 90_000 },
    )
    .toBeGreaterThan(0);
  return issues;
}

test.describe("a failure issue handed over", () => {
  test("its line compares its newest failure with the last success, and hands over the bundle of its failures", async ({
    page,
    sandbox,
    signInWithDemoKey,
    webhookPage,
  }) => {
    test.setTimeout(150_000);
    await signInWithDemoKey();
    const webhook = await sandbox.demoWebhook("500");
    // The page lists the open issues: one of those.
    const issue = (await issuesOf(page.request, webhook.id)).find((one) =>
      ["open", "acknowledged"].includes(one.state),
    );
    await webhookPage.goto(webhook.id);
    const card = page
      .getByRole("region", { name: /^Failure issues/ })
      .locator(`li[data-issue-id="${issue!.id}"]`);
    await card.locator("summary").first().click();

    await card.getByRole("link", { name: "Compare with last success" }).click();
    await expect(webhookPage.dialog).toContainText(`Log ${issue!.lastFailure.logId}`);
    await expect(
      webhookPage.dialog.getByRole("region", { name: "What changed since it last worked" }),
    ).toContainText(/Worked until|No success in the history/, { timeout: 30_000 });
    await webhookPage.dialog.getByRole("button", { name: "Close" }).click();

    await card.getByRole("link", { name: "Hand over" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Support bundle" })).toBeVisible();
    const markdown = page.getByRole("region", { name: "Markdown" }).locator("pre");
    await expect(markdown).toContainText("## Failure issue");
    await expect(markdown).toContainText(new RegExp(`${issue!.failures} failures? in all`));
    const frame = page.frameLocator('iframe[title="HTML bundle preview"]');
    await expect(frame.getByRole("heading", { name: "Failure issue" })).toBeVisible();
    const json = await downloaded(page, "Download JSON");
    const bundle = JSON.parse(json.text) as { issue: { id: string }; window: { from: string; to: string } };
    expect(bundle.issue.id).toBe(issue!.id);
    expect(bundle.window).toMatchObject({ from: issue!.firstFailure.at, to: issue!.lastFailure.at });

    // A link whose issue is not an ID: said on the page, and Prepare bundle goes on without it.
    await page.goto(`/webhooks/${webhook.id}/bundle?issue=abc`);
    await expect(page.getByText("Failure issue: enter a UUID")).toBeVisible();
    await expect(page.getByText("or prepare it without the issue")).toBeVisible();
    await page.getByRole("button", { name: "Prepare bundle" }).click();
    await expect(page.getByRole("region", { name: "Markdown" }).locator("pre")).toBeVisible();
    expect(new URL(page.url()).searchParams.has("issue")).toBe(false);

    if (process.env.SCREENSHOTS) {
      // The README's picture: the previewed HTML itself, as the customer's browser shows it.
      const html = await page.locator('iframe[title="HTML bundle preview"]').getAttribute("srcdoc");
      const shot = await page.context().newPage();
      await shot.setViewportSize({ width: 1000, height: 1400 });
      await shot.setContent(html!);
      await shot.screenshot({ path: "docs/screenshots/support-bundle.png" });
      await shot.close();
    }
  });
});
