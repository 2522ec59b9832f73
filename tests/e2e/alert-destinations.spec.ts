import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { SANDBOX_URL } from "./fixtures/sandbox";

/**
 * Alert destinations on the Alerts page, against the sandbox's alert inbox (the console runs with
 * ALERTS_ALLOW_PRIVATE=1, so it may call the sandbox on loopback): a signed webhook and a Slack
 * destination each receive "Send test alert", the inbox verifies the signature, and the delivery
 * log shows each; a receiver refusing the signature shows as Failed (401), and it is removed; one answering 503 is
 * answered for after its first attempt, and the log then shows the dispatcher's retries with
 * backoff until it gives up. Each test has its own
 * sandbox application, so the demo's alerts are not disturbed.
 */

interface InboxItem {
  channel: string;
  title: string;
  verified: boolean | null;
  body: string;
}

async function inbox(request: APIRequestContext): Promise<{ items: InboxItem[]; signingSecret: string }> {
  const response = await request.get(`${SANDBOX_URL}/_sandbox/inbox`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as { items: InboxItem[]; signingSecret: string };
}

class AlertsPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/alerts");
    await expect(this.page.getByRole("heading", { level: 1, name: "Alerts" })).toBeVisible();
  }

  async add(kind: string, fields: Record<string, string>) {
    const form = this.page.getByRole("form", { name: "Add destination" });
    await form.getByLabel("Kind").selectOption({ label: kind });
    for (const [label, value] of Object.entries(fields))
      await form.getByLabel(label, { exact: true }).fill(value);
    await form.getByRole("button", { name: "Add destination" }).click();
    return form;
  }

  destination(label: string) {
    return this.page.getByRole("region", { name: "Destinations" }).getByRole("listitem", { name: label });
  }

  get status() {
    return this.page.getByRole("region", { name: "Destinations" }).getByRole("status");
  }

  deliveryRow(label: string) {
    return this.page
      .getByRole("region", { name: "Recent deliveries" })
      .getByRole("row")
      .filter({ hasText: label });
  }
}

test.describe("alert destinations", () => {
  // Each test signs in, adds destinations and waits for deliveries to land in the sandbox's inbox.
  test.describe.configure({ timeout: 60_000 });

  test("a signed webhook and a Slack destination pointing at the sandbox inbox receive a test alert, logged as delivered", async ({
    page,
    request,
    sandbox,
    signInWithKey,
  }) => {
    const { application } = await sandbox.isolatedSetup("alerts");
    await signInWithKey(application.apiKey);
    const alerts = new AlertsPage(page);
    await alerts.goto();
    const { signingSecret } = await inbox(request);
    const signed = `Ops bridge ${Date.now()}`;
    const slack = `On-call Slack ${Date.now()}`;

    const form = await alerts.add("Signed JSON webhook", {
      Name: signed,
      "Webhook URL": `${SANDBOX_URL}/_sandbox/inbox/webhook`,
      "Signing secret": signingSecret,
    });
    await expect(form.getByText(`Added "${signed}"`)).toBeVisible();
    // The URL is shown masked, the secret not at all.
    await expect(alerts.destination(signed)).toContainText(`${SANDBOX_URL}/…/••••`);
    await expect(page.getByText(signingSecret)).toHaveCount(0);

    await alerts.destination(signed).getByRole("button", { name: "Send test alert" }).click();
    await expect(alerts.status).toHaveText(
      `Test alert to "${signed}": Delivered (answered 204) after 1 attempt.`,
    );
    await expect(alerts.deliveryRow(signed)).toContainText("Delivered (204)");

    await alerts.add("Slack incoming webhook", {
      Name: slack,
      "Slack webhook URL": `${SANDBOX_URL}/_sandbox/inbox/slack`,
    });
    await alerts.destination(slack).getByRole("button", { name: "Send test alert" }).click();
    await expect(alerts.status).toHaveText(
      `Test alert to "${slack}": Delivered (answered 200) after 1 attempt.`,
    );
    await expect(alerts.deliveryRow(slack)).toContainText("Delivered (200)");

    const { items } = await inbox(request);
    const webhookItem = items.find((item) => item.channel === "webhook" && item.title.includes(signed));
    expect(webhookItem?.verified).toBe(true);
    expect(JSON.parse(webhookItem!.body)).toMatchObject({ type: "alert.test", data: { kind: "test" } });
    const slackItem = items.find((item) => item.channel === "slack" && item.title.includes(slack));
    expect(slackItem?.title).toMatch(/^Test alert: /);
  });

  test("a receiver that refuses the signature shows as Failed (401); a name taken is refused by its label and nothing is added", async ({
    page,
    request,
    sandbox,
    signInWithKey,
  }) => {
    const { application } = await sandbox.isolatedSetup("alerts-refused");
    await signInWithKey(application.apiKey);
    const alerts = new AlertsPage(page);
    await alerts.goto();
    const label = `Wrong secret ${Date.now()}`;

    // No secret given: the console makes its own, which the inbox does not know.
    const form = await alerts.add("Signed JSON webhook", {
      Name: label,
      "Webhook URL": `${SANDBOX_URL}/_sandbox/inbox/webhook`,
    });
    await expect(form.getByText("Its signing secret, shown this once")).toBeVisible();
    // A second destination of the same name is refused by its field, and nothing is added.
    await alerts.add("Slack incoming webhook", {
      Name: label.toUpperCase(),
      "Slack webhook URL": `${SANDBOX_URL}/_sandbox/inbox/slack`,
    });
    await expect(
      form.getByText(`Name: this application already has a destination named "${label.toUpperCase()}".`),
    ).toBeVisible();
    await expect(page.getByRole("region", { name: "Destinations" }).getByRole("listitem")).toHaveCount(1);
    await alerts.destination(label).getByRole("button", { name: "Send test alert" }).click();
    await expect(alerts.status).toContainText(
      `Test alert to "${label}": Failed (answered 401) after 1 attempt.`,
    );
    await expect(alerts.deliveryRow(label)).toContainText("Failed (401)");
    await expect(alerts.deliveryRow(label)).toContainText("invalid_signature");
    const { items } = await inbox(request);
    expect(items.find((item) => item.title.includes(label))?.verified).toBe(false);

    // Removed after its question (how the question behaves: components/alerts/destination-list.test.tsx).
    const remove = alerts.destination(label).getByRole("button", { name: "Remove", exact: true });
    const question = alerts.destination(label).getByRole("group", { name: `Remove "${label}"?` });
    await remove.click();
    await question.getByRole("button", { name: "Remove destination" }).click();
    await expect(alerts.destination(label)).toHaveCount(0);
    await expect(alerts.status).toHaveText(`Removed "${label}": no alert is sent to it any more.`);
    await expect(alerts.deliveryRow(label)).toContainText("Failed (401)");
  });

  test("a receiver answering 503: Send test alert answers after the first attempt, and the log shows each retry until Failed", async ({
    page,
    sandbox,
    signInWithKey,
  }) => {
    test.setTimeout(60_000);
    const { application } = await sandbox.isolatedSetup("alerts-retried");
    await signInWithKey(application.apiKey);
    const alerts = new AlertsPage(page);
    await alerts.goto();
    const label = `Down ${Date.now()}`;

    await alerts.add("Slack incoming webhook", {
      Name: label,
      "Slack webhook URL": `${SANDBOX_URL}/_sandbox/receivers/status/503`,
    });
    await alerts.destination(label).getByRole("button", { name: "Send test alert" }).click();
    await expect(alerts.status).toHaveText(
      `Test alert to "${label}": not delivered yet (answered 503) after 1 attempt; it is retried with backoff, and Recent deliveries shows each attempt.`,
    );
    const row = alerts.deliveryRow(label);
    const attempts = row.getByRole("cell").nth(4);
    await expect(row).toContainText("Waiting to send (503)");
    await expect(row).toContainText("Next attempt at");
    // The page reads the log again while the delivery waits: the retries appear without a reload.
    await expect(attempts).toHaveText(/^[234]$/, { timeout: 20_000 });
    await expect(row).toContainText("Failed (503)", { timeout: 40_000 });
    await expect(attempts).toHaveText("4");
    await expect(row).not.toContainText("Next attempt at");
  });
});
