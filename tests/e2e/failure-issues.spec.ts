import type { APIRequestContext, Locator } from "@playwright/test";
import type { FailureIssue } from "@/lib/domain/watch/failure-issue";
import { seriousViolations } from "./fixtures/axe";
import { expect, test } from "./fixtures/test";

/**
 * Failure issues over the sandbox's demo application, whose webhooks are watched out of the box:
 * the overview lists each watched webhook's failures grouped by cause, one line each under their
 * webhook, each opening in place to the diagnosis of its code; a person acknowledges one with a
 * note and their name, then resolves it, staying where they are; its deliveries link filters the
 * webhook's log table to that issue's deliveries (not every failure of its code), named by its
 * title; a link to an unknown issue is said to be ignored; the webhook page's lines have no
 * serious axe violation.
 */

/** The issues of one webhook, once the watcher has stored its failures (it polls every 10 s in e2e). */
async function issuesOf(request: APIRequestContext, webhookId: string): Promise<FailureIssue[]> {
  let issues: FailureIssue[] = [];
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/issues?webhookId=${webhookId}`);
        issues = response.ok() ? ((await response.json()) as { issues: FailureIssue[] }).issues : [];
        return issues.length;
      },
      { timeout: 90_000, message: `failure issues of webhook ${webhookId}` },
    )
    .toBeGreaterThan(0);
  return issues;
}

/** Puts an issue back to open (a rerun of this spec finds it as the last one left it). */
async function reopen(request: APIRequestContext, issue: FailureIssue) {
  const response = await request.post(`/api/issues/${issue.id}`, { data: { action: "reopen", name: "e2e" } });
  expect(response.status(), await response.text()).toBe(200);
}

/** The line of an issue, by its ID. */
function issueLine(scope: Locator, issue: FailureIssue): Locator {
  return scope.locator(`li[data-issue-id="${issue.id}"]`);
}

/** Opens an issue's line in place (its summary is the line itself). */
async function openLine(line: Locator): Promise<void> {
  if ((await line.locator("details").first().getAttribute("open")) === null)
    await line.locator("summary").first().click();
}

test.describe("failure issues", () => {
  test.describe.configure({ timeout: 150_000 });

  test("on the overview: grouped by cause with its diagnosis, acknowledged with a note, resolved, and one click to its deliveries", async ({
    page,
    sandbox,
    signInWithDemoKey,
    webhookPage,
  }) => {
    await signInWithDemoKey();
    const refused = await sandbox.demoWebhook("Connection refused");
    const [issue] = await issuesOf(page.request, refused.id);
    expect(issue).toMatchObject({ statusCode: 0, webhookId: refused.id });
    await reopen(page.request, issue!);

    await page.goto("/overview");
    const section = page.getByRole("region", { name: "Failure issues" });
    // Grouped under its webhook: the line is the issue's state, cause, count and since when.
    const group = section.getByRole("region", { name: `Failure issues of ${refused.label}` });
    await expect(group).toContainText(refused.endpoint);
    const line = issueLine(group, issue!);
    await expect(line).toHaveCount(1);
    await expect(line.locator("summary").first()).toContainText(/^OpenNo connection.*\d+ failures? since /);
    await openLine(line);
    await expect(line).toContainText(/\d+ failures?, first .+, last /);
    await expect(line).toContainText("connection refused by");
    // The diagnosis of its code, and how it resolves by itself.
    await expect(line).toContainText("Likely cause: No connection could be made or no timely answer");
    await expect(line).toContainText("What the customer must fix:");
    await expect(line).toContainText("Resolves by itself after 3 successful deliveries in a row");

    // Acknowledging needs a note and a name: each error names its field, and nothing changes.
    await line.getByText("Acknowledge, resolve or ignore").click();
    await line.getByRole("button", { name: "Acknowledge" }).click();
    await expect(line.getByText("Your name: type your name")).toBeVisible();
    await expect(line.getByText("Note: say what is being done about it")).toBeVisible();
    await expect(line.getByRole("textbox", { name: "Your name" })).toHaveAttribute("aria-invalid", "true");
    await expect(line.getByText("Open", { exact: true })).toBeVisible();

    await line.getByRole("textbox", { name: "Your name" }).fill("Ada Lovelace");
    await line.getByRole("textbox", { name: "Note" }).fill("Customer is moving their server; back by noon");
    const before = await line.boundingBox();
    await line.getByRole("button", { name: "Acknowledge" }).click();
    // Said where the person is looking, with the focus; the line has not moved.
    await expect(line.getByRole("status").filter({ hasText: "Acknowledged." })).toBeFocused();
    await expect(line.getByText("Acknowledged", { exact: true })).toBeVisible();
    await expect(line).toContainText("Acknowledged by Ada Lovelace");
    await expect(line).toContainText("“Customer is moving their server; back by noon”");
    expect((await line.boundingBox())!.y).toBeCloseTo(before!.y, 0);
    // The store kept it: a fresh page shows the same.
    await page.reload();
    await openLine(issueLine(group, issue!));
    await expect(issueLine(group, issue!)).toContainText("Acknowledged by Ada Lovelace");

    // Resolved by a person: it stays in view, saying who; on a fresh page it is under "Resolved and ignored".
    const acknowledged = issueLine(group, issue!);
    await acknowledged.getByText("Update, resolve or ignore").click();
    await acknowledged.getByRole("textbox", { name: "Your name" }).fill("Grace Hopper");
    await acknowledged.getByRole("button", { name: "Resolve" }).click();
    await expect(acknowledged.getByRole("status").filter({ hasText: "Resolved." })).toBeFocused();
    await expect(acknowledged).toContainText("Resolved by Grace Hopper");
    await expect(acknowledged.getByText("Resolved", { exact: true })).toBeVisible();
    await page.reload();
    await group.getByText(/^Resolved and ignored \(\d+\)$/).click();
    const resolved = issueLine(group, issue!);
    await openLine(resolved);
    await expect(resolved).toContainText("Resolved by Grace Hopper");

    // One click shows its deliveries: the table filtered to this issue, named by its title.
    await resolved.getByRole("link", { name: "Show its deliveries" }).click();
    await expect(page).toHaveURL(
      new RegExp(`/webhooks/${refused.id}\\?app=[^&]+&status=Failed&issue=${issue!.id}(&|$)`),
    );
    await expect(page.getByText(`Issue: No connection · ${issue!.signatureText}`)).toBeVisible();
    await expect(webhookPage.rows.first()).toBeVisible({ timeout: 30_000 });
    expect(new Set(await webhookPage.column("HTTP status"))).toEqual(new Set(["No connection"]));
    expect(new Set((await webhookPage.column("Status")).map((status) => status.replace(/^\W+/, "")))).toEqual(
      new Set(["Failed"]),
    );
  });

  test("on the webhook's page: open issues one line each, whose link filters the log table to its deliveries, with no serious axe violation", async ({
    page,
    sandbox,
    signInWithDemoKey,
    webhookPage,
  }) => {
    await signInWithDemoKey();
    const notFound = await sandbox.demoWebhook("404");
    const issues = await issuesOf(page.request, notFound.id);
    const main = issues
      .filter((issue) => issue.statusCode === 404)
      .sort((a, b) => b.failures - a.failures)[0]!;
    await reopen(page.request, main);

    await webhookPage.goto(notFound.id);
    const panel = page.getByRole("region", { name: /^Failure issues/ });
    const line = issueLine(panel, main);
    await expect(line).toHaveCount(1);
    await expect(line.locator("summary").first()).toContainText("HTTP 404 Not Found");
    await openLine(line);
    await expect(line).toContainText("Likely cause: The route does not exist on the customer server.");
    await line.getByText(/^Samples \(\d\)$/).click();
    await expect(line.getByRole("link", { name: main.lastFailure.logId })).toBeVisible();

    const show = line.getByRole("link", { name: "Show its deliveries" });
    await expect(show).not.toHaveAttribute("aria-current");
    await show.click();
    await expect(page).toHaveURL(new RegExp(`[?&]status=Failed&issue=${main.id}(&|$)`));
    await openLine(issueLine(panel, main));
    await expect(show).toHaveAttribute("aria-current", "true");
    // Only its own link is current: another issue of the same webhook is another cause.
    const listed = issues.filter(
      (issue) => issue.id !== main.id && ["open", "acknowledged"].includes(issue.state),
    );
    // (A line's links are loaded when it is first opened.)
    for (const other of listed) {
      await openLine(issueLine(panel, other));
      await expect(
        issueLine(panel, other).getByRole("link", { name: "Show its deliveries" }),
      ).not.toHaveAttribute("aria-current");
    }
    await expect(page.getByText(`Issue: 404 · ${main.signatureText}`)).toBeVisible();
    await expect
      .poll(async () => [...new Set(await webhookPage.column("HTTP status"))], { timeout: 30_000 })
      .toEqual(["404"]);
    await page.getByRole("link", { name: "Clear issue filter" }).click();
    await expect(page).not.toHaveURL(/[?&]issue=/);
    await openLine(issueLine(panel, main));
    await expect(show).not.toHaveAttribute("aria-current");

    // A link to an issue this webhook does not have: said so, and the table is not filtered by it.
    await webhookPage.goto(notFound.id, `?issue=${main.id.replace(/^.{8}/, "00000000")}`);
    const notice = page.getByText("Part of this link was ignored").locator("..");
    await expect(notice.getByRole("listitem")).toContainText(
      /^issue=.*: this webhook has no failure issue with this ID/,
      {
        timeout: 30_000,
      },
    );
    await expect(webhookPage.rows.first()).toBeVisible({ timeout: 30_000 });

    await openLine(line);
    await line.getByText("Acknowledge, resolve or ignore").click();
    await expect(line.getByRole("textbox", { name: "Note" })).toBeVisible();
    expect(await seriousViolations(page, [`[data-issue-id="${main.id}"]`])).toEqual([]);
  });
});
