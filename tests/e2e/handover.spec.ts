/**
 * The support bundle of a failing demo webhook (the 404 one, whose newest body is a script
 * injection attempt): opened from the webhook page, previewed in each format, downloaded from the
 * very texts previewed, with the masked list; the hostile body stays text everywhere.
 */
import { readFile } from "node:fs/promises";
import type { Download, Page } from "@playwright/test";
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
