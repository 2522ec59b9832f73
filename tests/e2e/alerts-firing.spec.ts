import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures/test";
import { SANDBOX_URL } from "./fixtures/sandbox";

/**
 * The alert engine, end to end on the real console and sandbox: a watched webhook whose endpoint
 * fails 5 times in a row fires its incident's alert into a signed JSON destination (the sandbox's
 * inbox), the console's banner says so, and once the endpoint delivers 3 times in a row one
 * "recovered" notice follows under the same incident id and the banner goes. Its own sandbox
 * application, so no other spec's webhooks join a summary.
 */

interface InboxItem {
  channel: string;
  title: string;
  verified: boolean | null;
  body: string;
}

/** The signed JSON alerts the inbox holds about `webhookId`, oldest first. */
async function alertsAbout(request: APIRequestContext, webhookId: string) {
  const response = await request.get(`${SANDBOX_URL}/_sandbox/inbox`);
  expect(response.ok()).toBe(true);
  const { items } = (await response.json()) as { items: InboxItem[] };
  return items
    .filter((item) => item.channel === "webhook" && item.body.includes(webhookId))
    .map((item) => ({
      verified: item.verified,
      ...(JSON.parse(item.body) as { type: string; data: Record<string, unknown> }),
    }))
    .reverse();
}

test("a watched webhook failing 5 times in a row alerts once, shows in the banner, and sends one recovery once it delivers 3 times in a row", async ({
  page,
  request,
  sandbox,
  signInWithKey,
}) => {
  test.setTimeout(120_000);
  const { application, channel, webhook } = await sandbox.isolatedSetup("alerts-firing", "error");
  await signInWithKey(application.apiKey);
  const { signingSecret } = (await (await request.get(`${SANDBOX_URL}/_sandbox/inbox`)).json()) as {
    signingSecret: string;
  };
  const added = await page.request.post("/api/alerts/destinations", {
    data: {
      kind: "webhook",
      label: "On-call",
      url: `${SANDBOX_URL}/_sandbox/inbox/webhook`,
      secret: signingSecret,
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  const watched = await page.request.post("/api/watches/bulk", { data: { text: webhook.id } });
  expect(watched.status(), await watched.text()).toBe(200);

  for (let i = 1; i <= 5; i++) await sandbox.sendMessage(application.apiKey, channel, `failing ${i}`);

  await expect
    .poll(async () => (await alertsAbout(request, webhook.id)).map((alert) => alert.type), {
      timeout: 60_000,
      message: "the firing alert reaches the inbox",
    })
    .toEqual(["alert.firing"]);
  const [firing] = await alertsAbout(request, webhook.id);
  expect(firing!.verified).toBe(true);
  // The application as the session names it (a first sign-in names it "Default"), as test alerts say.
  expect(firing!.data).toMatchObject({
    version: 2,
    incident: { scope: "webhook" },
    conditions: [{ rule: { id: "streak" } }],
    counts: { failures: 5 },
    application: { name: "Default" },
  });

  await page.goto("/overview");
  const banner = page.getByRole("region", { name: "Alerts firing" });
  await expect(banner).toContainText("1 webhook failing", { timeout: 30_000 });
  await expect(banner.getByRole("link", { name: webhook.endpoint })).toBeVisible();

  await sandbox.pointAt(webhook.id, "ok");
  for (let i = 1; i <= 3; i++) await sandbox.sendMessage(application.apiKey, channel, `working again ${i}`);

  await expect
    .poll(async () => (await alertsAbout(request, webhook.id)).map((alert) => alert.type), {
      timeout: 60_000,
      message: "one recovery follows",
    })
    .toEqual(["alert.firing", "alert.recovered"]);
  const [, recovered] = await alertsAbout(request, webhook.id);
  expect(String(recovered!.data.headline)).toMatch(/recovered after 5 failures/);
  expect(recovered!.data.incident).toEqual(firing!.data.incident);
  await page.reload();
  await expect(banner).toHaveCount(0, { timeout: 30_000 });
});
