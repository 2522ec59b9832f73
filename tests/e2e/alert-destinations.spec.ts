import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { SANDBOX_URL } from "./fixtures/sandbox";

/**
 * Alert destinations on the Alerts page, against the sandbox's alert inbox (the console runs with
 * ALERTS_ALLOW_PRIVATE=1, so it may call the sandbox on loopback): a signed webhook and a Slack
 * destination each receive "Send test alert", the inbox verifies the signature, and the delivery
 * log shows each. The test has its own sandbox application, so the demo's alerts are not
 * disturbed. What the page says of a refused or retried test alert, and of a name taken, is
 * tested on its components (components/alerts/*.test.tsx); the retries themselves on the
 * dispatcher (lib/server/alerts/dispatch.test.ts) and the route (app/api/alerts/alerts-routes.test.ts).
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
});
