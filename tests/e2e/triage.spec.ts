import type { Page } from "@playwright/test";
import type { DemoApplication, SandboxLog } from "./fixtures/sandbox";
import { expectAccessibleInBothSchemes } from "./fixtures/axe";
import { expect, test } from "./fixtures/test";
import { OverviewPage } from "./fixtures/watch-pages";

/**
 * Handing a failure over, on the keyboard: Find in watched webhooks (the header) across two
 * applications of one session, every triage key on a webhook's page and on the overview (with
 * nothing firing while typing or with a modifier), the last success beside a failure in the
 * delivery's dialog, and no serious axe violation in light and dark.
 */

async function staging(sandbox: { demo(): Promise<{ applications: DemoApplication[] }> }) {
  const found = (await sandbox.demo()).applications.find((app) => app.name === "Staging");
  if (!found) throw new Error("the sandbox has no Staging demo application");
  return found;
}

function headerFind(page: Page) {
  const form = page.getByRole("banner").getByRole("search", { name: "Find in watched webhooks" });
  return {
    box: form.getByRole("searchbox", { name: "Find in watched webhooks" }),
    async find(text: string) {
      await form.getByRole("searchbox").fill(text);
      await form.getByRole("searchbox").press("Enter");
    },
    error: form.getByRole("alert"),
  };
}

/**
 * Waits until the page's keys answer (the rows are in the server's HTML before the page's script
 * runs): `?` opens the list of keys, and Esc closes it.
 */
async function keysReady(page: Page) {
  const keys = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(async () => {
    await page.keyboard.press("?");
    await expect(keys).toBeVisible({ timeout: 1000 });
  }).toPass();
  await page.keyboard.press("Escape");
  await expect(keys).toBeHidden();
}

/** The newest failure with a success somewhere older, and that success. */
function failureAfterSuccess(logs: SandboxLog[]): { failed: SandboxLog; success: SandboxLog } {
  for (let i = 0; i < logs.length; i++) {
    if (logs[i]!.status !== "Failed") continue;
    const success = logs.slice(i + 1).find((log) => log.status === "Success");
    if (success) return { failed: logs[i]!, success };
  }
  throw new Error("no failure with an older success");
}

test.describe("Find in watched webhooks", () => {
  test("finds a delivery of another application's watched webhook by message ID, log ID or link, and opens it there", async ({
    page,
    sandbox,
    signInWithDemoKey,
    webhookPage,
  }) => {
    // The watcher reads the Staging webhook first (every 10 s here, on a loaded machine).
    test.setTimeout(180_000);
    const stage = await staging(sandbox);
    const webhook = stage.webhooks.find((w) => w.label.startsWith("Staging: 404"))!;
    await signInWithDemoKey();
    const added = await page.request.post("/api/applications", {
      data: { name: "Staging", apiKey: stage.apiKey },
    });
    expect(added.status(), await added.text()).toBe(201);
    const appId = ((await added.json()) as { application: { id: string } }).application.id;
    const watched = await page.request.post(`/api/watches?app=${appId}`, { data: { webhookId: webhook.id } });
    expect(watched.status(), await watched.text()).toBe(201);

    const [target, other] = (await sandbox.allLogs(webhook.id, stage.apiKey)).filter((log) => log.messageId);
    await expect
      .poll(async () => (await page.request.get(`/api/watches/find?q=${target!.id}`)).status(), {
        timeout: 150_000,
        message: "the watcher has stored the Staging webhook's newest deliveries",
      })
      .toBe(200);

    // From the overview of the first application, a Staging delivery by its message ID.
    const overview = new OverviewPage(page);
    await overview.goto();
    const find = headerFind(page);
    await find.find(` ${target!.messageId!.toUpperCase()} `);
    await expect(page).toHaveURL(new RegExp(`/webhooks/${webhook.id}\\?app=${appId}&log=${target!.id}$`));
    await expect(webhookPage.dialog).toContainText(`Log ${target!.id}`);
    await expect(page.getByRole("banner").locator("details summary")).toContainText("Staging");

    // A log ID, and a console link pasted as copied.
    await webhookPage.dialog.getByRole("button", { name: "Close" }).click();
    await find.find(other!.id);
    await expect(page).toHaveURL(new RegExp(`log=${other!.id}$`));
    await expect(webhookPage.dialog).toContainText(`Log ${other!.id}`);
    await webhookPage.dialog.getByRole("button", { name: "Close" }).click();
    await find.find(`http://localhost/webhooks/${webhook.id}?log=${target!.id}`);
    await expect(page).toHaveURL(new RegExp(`log=${target!.id}$`));
    await webhookPage.dialog.getByRole("button", { name: "Close" }).click();

    // What it cannot find, and what it cannot read, named by the field; the page stays where it was.
    await expect(page).not.toHaveURL(/log=/);
    const where = page.url();
    await find.find("00000000-0000-4000-8000-000000000000");
    await expect(find.error).toHaveText(
      /^Find in watched webhooks: no watched webhook has a delivery with that ID\. Find looks at watched webhooks only/,
    );
    await expect(find.box).toHaveAttribute("aria-invalid", "true");
    await find.find("not an id");
    await expect(find.error).toHaveText(/^Find in watched webhooks: this is not an ID or a console link/);
    expect(page.url()).toBe(where);
  });
});

test.describe("keyboard triage", () => {
  test("on a webhook's page: j/k move through the rows, Enter opens, Esc closes, / finds, f filters, ? lists the keys", async ({
    page,
    sandbox,
    signInWithDemoKey,
    webhookPage,
  }) => {
    await signInWithDemoKey();
    await webhookPage.goto((await sandbox.demoWebhook("401")).id);
    await expect(webhookPage.rows.first()).toBeVisible();
    const moved = page.getByRole("status").filter({ hasText: /^Delivery \d+ of \d+/ });
    const details = (row: number) => webhookPage.rows.nth(row).getByRole("link", { name: /^Details/ });

    // ? lists the keys; Esc closes the list.
    await keysReady(page);
    await page.keyboard.press("?");
    const keys = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(keys).toBeVisible();
    await expect(keys).toContainText("Move to the next or previous delivery in the table");
    await page.keyboard.press("j");
    await expect(moved).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(keys).toBeHidden();

    await page.keyboard.press("j");
    await expect(details(0)).toBeFocused();
    // Said: which row of how many, then its status, code and when it was sent.
    await expect(moved).toHaveText(
      /^Delivery 1 of 20: (Failed|Success), (\d+|No connection), .+\. Enter opens it\.$/,
    );
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await expect(details(2)).toBeFocused();
    await page.keyboard.press("k");
    await expect(details(1)).toBeFocused();
    await expect(moved).toHaveText(/^Delivery 2 of 20: /);
    // With a modifier nothing moves.
    await page.keyboard.press("Alt+j");
    await page.keyboard.press("Control+j");
    await expect(details(1)).toBeFocused();

    // Enter opens the delivery moved to; Esc closes it and the focus returns to its row.
    const logId = await webhookPage.rows.nth(1).getAttribute("data-log-id");
    await page.keyboard.press("Enter");
    await expect(webhookPage.dialog).toContainText(`Log ${logId}`);
    await expect(page).toHaveURL(new RegExp(`log=${logId}`));
    // Keys do not act behind an open dialog.
    await page.keyboard.press("j");
    await expect(webhookPage.dialog).toBeVisible();
    await expect(moved).toHaveText(/^Delivery 2 of 20: /);
    await page.keyboard.press("Escape");
    await expect(webhookPage.dialog).toBeHidden();
    await expect(details(1)).toBeFocused();

    // / focuses Find; typing there types, and no key fires.
    await page.keyboard.press("/");
    const findBox = page.getByRole("form", { name: "Find a delivery" }).getByLabel("Find a delivery");
    await expect(findBox).toBeFocused();
    await expect(findBox).toHaveValue("");
    await page.keyboard.type("jkf?/");
    await expect(findBox).toHaveValue("jkf?/");
    await expect(findBox).toBeFocused();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(moved).toHaveText(/^Delivery 2 of 20: /);

    // f opens the filters over the whole history.
    await findBox.blur();
    const filters = page.locator("summary", { hasText: "Filter the whole history" });
    await expect(filters.locator("xpath=..")).not.toHaveAttribute("open");
    await page.keyboard.press("f");
    await expect(filters).toBeFocused();
    await expect(filters.locator("xpath=..")).toHaveAttribute("open");
    await expect(page.getByLabel("Response contains")).toBeVisible();
    // The keys are announced where they act.
    await expect(filters).toHaveAttribute("aria-keyshortcuts", "f");
    await expect(findBox).toHaveAttribute("aria-keyshortcuts", "/");
    await expect(page.getByRole("button", { name: "Keyboard shortcuts" })).toHaveAttribute(
      "aria-keyshortcuts",
      "?",
    );
  });

  test("on the overview: j/k move through the watched webhooks, Enter opens one, / focuses Find, f the search", async ({
    page,
    sandbox,
    signInWithKey,
  }) => {
    // An application of its own: the demo webhooks change order ("worst first") while other specs
    // send to them, and a refresh would put another webhook at the index the test expects focused.
    const { application, webhook } = await sandbox.isolatedSetup("overview keys");
    const others = await Promise.all(
      (["error", "not-found", "unauthorized"] as const).map((receiver) =>
        sandbox.createWebhook(application.id, sandbox.receiver(receiver)),
      ),
    );
    await signInWithKey(application.apiKey);
    const response = await page.request.post("/api/watches/bulk", {
      data: { text: [webhook, ...others].map((each) => each.id).join("\n") },
    });
    expect(response.status(), await response.text()).toBe(200);
    const overview = new OverviewPage(page);
    await overview.goto();
    await expect(overview.rows.first()).toBeVisible();
    await keysReady(page);
    const count = await overview.rows.count();
    const link = (row: number) => overview.rows.nth(row).getByRole("rowheader").getByRole("link");
    const moved = page.getByRole("status").filter({ hasText: /^Watched webhook \d+ of \d+/ });

    await page.keyboard.press("k");
    await expect(link(count - 1)).toBeFocused();
    await expect(moved).toHaveText(new RegExp(`^Watched webhook ${count} of ${count}: `));
    await page.keyboard.press("j");
    await expect(link(count - 1)).toBeFocused();
    await expect(moved).toHaveText(new RegExp(`^Watched webhook ${count} of ${count} \\(the last\\): `));
    for (let i = 0; i < count; i++) await page.keyboard.press("k");
    await expect(link(0)).toBeFocused();
    await page.keyboard.press("j");
    await expect(link(1)).toBeFocused();

    await page.keyboard.press("f");
    await expect(overview.search).toBeFocused();
    await page.keyboard.type("j");
    await expect(overview.search).toHaveValue("j");
    await overview.search.fill("");
    // Typed in a field, `/` is text; out of it, it goes to Find.
    await page.keyboard.press("/");
    await expect(overview.search).toHaveValue("/");
    await overview.search.fill("");
    await overview.search.blur();
    await page.keyboard.press("/");
    await expect(headerFind(page).box).toBeFocused();
    await page.keyboard.type("k");
    await expect(headerFind(page).box).toHaveValue("k");
    await headerFind(page).box.blur();

    await page.keyboard.press("?");
    const keys = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(keys).toContainText("Move to the next or previous watched webhook");
    await page.keyboard.press("Escape");
    await expect(keys).toBeHidden();

    await page.keyboard.press("j");
    await expect(link(0)).toBeFocused();
    const href = await link(0).getAttribute("href");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`${href!.replace(/[?]/g, "\\?")}$`));
  });
});

test.describe("the last success beside a failure", () => {
  test("the dialog of a failure shows when it last worked, both codes and the bodies compared", async ({
    sandbox,
    signInWithDemoKey,
    webhookPage,
  }) => {
    await signInWithDemoKey();
    const demo = await sandbox.demo();
    const webhook = await sandbox.demoWebhook("500");
    const { failed, success } = failureAfterSuccess(await sandbox.allLogs(webhook.id, demo.apiKey));
    await webhookPage.goto(webhook.id, `?log=${failed.id}`);
    const compared = webhookPage.dialog.getByRole("region", { name: "What changed since it last worked" });
    // The last success is read through the history scan: slow on a loaded machine.
    await expect(compared.getByText(/^Worked until/)).toBeVisible({ timeout: 30_000 });
    await expect(compared).toContainText(
      new RegExp(
        `Worked until .+ with 200; this delivery then failed: ${failed.statusCode === 0 ? "no connection" : failed.statusCode}`,
      ),
    );
    await expect(compared).toContainText(`Log ID ${success.id}`);
    await expect(compared).toContainText(`Log ID ${failed.id}`);
    await expect(compared).toContainText(/between them\./);
    // The demo webhooks are watched: the webhook's own changes come from the watch's timeline.
    const span = "(between them|since the watch began)";
    await expect(compared.getByRole("region", { name: "The webhook's own changes" })).toContainText(
      new RegExp(
        `^The webhook's own changes(The webhook itself \\(active, numberOfErrors\\) did not change|The webhook changed \\d+ times?) ${span}`,
      ),
    );
    await expect(compared).toContainText(
      /Response bodies, |The response bodies are the same|too large to diff/,
    );

    // A success has nothing to compare with; a webhook that never worked says so.
    await webhookPage.dialog.getByRole("button", { name: "Close" }).click();
    await webhookPage.goto(webhook.id, `?log=${success.id}`);
    await expect(webhookPage.dialog).toContainText(`Log ${success.id}`);
    await expect(
      webhookPage.dialog.getByRole("region", { name: "What changed since it last worked" }),
    ).toHaveCount(0);
    const refused = await sandbox.demoWebhook("Connection refused");
    const [never] = await sandbox.allLogs(refused.id, demo.apiKey);
    await webhookPage.goto(refused.id, `?log=${never!.id}`);
    await expect(
      webhookPage.dialog.getByRole("region", { name: "What changed since it last worked" }),
    ).toContainText(/No success in the history; no connection/, { timeout: 30_000 });
  });
});

test.describe("triage accessibility (light and dark)", () => {
  test("the list of keys, a moved-to row, the comparison and Find's error", async ({
    page,
    sandbox,
    signInWithDemoKey,
    webhookPage,
  }) => {
    // Six axe passes over the whole page (three states, two schemes): slow on a loaded machine.
    test.setTimeout(180_000);
    await signInWithDemoKey();
    const demo = await sandbox.demo();
    const webhook = await sandbox.demoWebhook("500");
    const { failed } = failureAfterSuccess(await sandbox.allLogs(webhook.id, demo.apiKey));
    await webhookPage.goto(webhook.id, `?log=${failed.id}`);
    await expect(webhookPage.dialog.getByText(/^Worked until/)).toBeVisible({ timeout: 30_000 });
    await expectAccessibleInBothSchemes(page);
    await page.keyboard.press("Escape");
    await expect(webhookPage.dialog).toBeHidden();
    await keysReady(page);

    await page.keyboard.press("j");
    await expect(page.getByRole("status").filter({ hasText: /^Delivery \d+ of 20: / })).toBeAttached();
    await page.keyboard.press("?");
    await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
    await expectAccessibleInBothSchemes(page);
    await page.keyboard.press("Escape");

    await headerFind(page).find("not an id");
    await expect(headerFind(page).error).toBeVisible();
    await expectAccessibleInBothSchemes(page);
  });
});
