import type { APIRequestContext, Locator } from "@playwright/test";
import type { FailureIssue } from "@/lib/domain/watch/failure-issue";
import { seriousViolations } from "./fixtures/axe";
import { expect, test } from "./fixtures/test";

/**
 * Failure issues over the sandbox's demo application, whose webhooks are watched out of the box:
 * the overview lists each watched webhook's failures grouped by cause with the diagnosis of its
 * code; a person acknowledges one with a note and their name, then resolves it; clicking one
 * filters the webhook's log table to that issue's deliveries (not every failure of its code), named
 * by its title; a link to an unknown issue is said to be ignored; the webhook page's panel has no
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

/** The card of an issue, by its title (code, then webhook name) and, on the overview, its webhook's endpoint. */
function issueCard(scope: Locator, title: string, endpoint: string): Locator {
  return scope.getByRole("article", { name: new RegExp(`^${title}`) }).filter({ hasText: endpoint });
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
    const card = issueCard(section, "No connection", refused.endpoint);
    await expect(card).toHaveCount(1);
    await expect(card).toContainText(/\d+ failures?, first .+, last /);
    await expect(card).toContainText("connection refused by");
    // The diagnosis of its code, and how it resolves by itself.
    await expect(card).toContainText("Likely cause: No connection could be made or no timely answer");
    await expect(card).toContainText("What the customer must fix:");
    await expect(card).toContainText("Resolves by itself after 3 successful deliveries in a row");
    await expect(card.getByText("Open", { exact: true })).toBeVisible();

    // Acknowledging needs a note and a name: each error names its field, and nothing changes.
    await card.getByText("Acknowledge, resolve or ignore").click();
    await card.getByRole("button", { name: "Acknowledge" }).click();
    await expect(card.getByText("Your name: type your name")).toBeVisible();
    await expect(card.getByText("Note: say what is being done about it")).toBeVisible();
    await expect(card.getByRole("textbox", { name: "Your name" })).toHaveAttribute("aria-invalid", "true");
    await expect(card.getByText("Open", { exact: true })).toBeVisible();

    await card.getByRole("textbox", { name: "Your name" }).fill("Ada Lovelace");
    await card.getByRole("textbox", { name: "Note" }).fill("Customer is moving their server; back by noon");
    await card.getByRole("button", { name: "Acknowledge" }).click();
    await expect(card.getByText("Acknowledged", { exact: true })).toBeVisible();
    await expect(card).toContainText("Acknowledged by Ada Lovelace");
    await expect(card).toContainText("“Customer is moving their server; back by noon”");
    // The store kept it: a fresh page shows the same.
    await page.reload();
    await expect(issueCard(section, "No connection", refused.endpoint)).toContainText(
      "Acknowledged by Ada Lovelace",
    );

    // Resolved by a person: it moves under "Resolved and ignored", saying who.
    const acknowledged = issueCard(section, "No connection", refused.endpoint);
    await acknowledged.getByText("Update, resolve or ignore").click();
    await acknowledged.getByRole("textbox", { name: "Your name" }).fill("Grace Hopper");
    await acknowledged.getByRole("button", { name: "Resolve" }).click();
    await section.getByText(/^Resolved and ignored \(\d+\)$/).click();
    const resolved = issueCard(section, "No connection", refused.endpoint);
    await expect(resolved).toContainText("Resolved by Grace Hopper");
    await expect(resolved.getByText("Resolved", { exact: true })).toBeVisible();

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

  test("on the webhook's page: a panel whose issue filters the log table to its deliveries, with no serious axe violation", async ({
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
    const panel = page.getByRole("region", { name: "Failure issues" });
    const card = panel.getByRole("article").filter({ hasText: main.signatureText });
    await expect(card).toHaveCount(1);
    await expect(card).toContainText("HTTP 404 Not Found");
    await expect(card).toContainText("Likely cause: The route does not exist on the customer server.");
    await card.getByText(/^Samples \(\d\)$/).click();
    await expect(card.getByRole("link", { name: main.lastFailure.logId })).toBeVisible();

    const show = card.getByRole("button", { name: "Show its deliveries" });
    await expect(show).toHaveAttribute("aria-pressed", "false");
    await show.click();
    await expect(page).toHaveURL(new RegExp(`[?&]status=Failed&issue=${main.id}(&|$)`));
    await expect(show).toHaveAttribute("aria-pressed", "true");
    // Only its own button is pressed: another issue of the same webhook is another cause.
    for (const other of issues.filter((issue) => issue.id !== main.id)) {
      await expect(
        panel.locator(`[data-issue-id="${other.id}"]`).getByRole("button", { name: "Show its deliveries" }),
      ).toHaveAttribute("aria-pressed", "false");
    }
    await expect(page.getByText(`Issue: 404 · ${main.signatureText}`)).toBeVisible();
    await expect
      .poll(async () => [...new Set(await webhookPage.column("HTTP status"))], { timeout: 30_000 })
      .toEqual(["404"]);
    await page.getByRole("button", { name: "Clear issue filter" }).click();
    await expect(page).not.toHaveURL(/[?&]issue=/);
    await expect(show).toHaveAttribute("aria-pressed", "false");

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

    await card.getByText("Acknowledge, resolve or ignore").click();
    await expect(card.getByRole("textbox", { name: "Note" })).toBeVisible();
    expect(await seriousViolations(page, [`[data-issue-id="${main.id}"]`])).toEqual([]);
  });
});
