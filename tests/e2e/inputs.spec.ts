/**
 * What people type: webhook and log IDs in any case and with spaces, and caps stated in the hint
 * and refused whole (never cut). How the sign-in, Add destination and send forms word their
 * refusals is their component tests' (components/login, components/alerts, components/send); the
 * API's, its route tests'.
 */
import { expect, test } from "./fixtures/test";
import { webhookHeading } from "./fixtures/pages";

test.describe("IDs are accepted in any case, with spaces around them", () => {
  test.beforeEach(async ({ signInWithDemoKey }) => {
    await signInWithDemoKey();
  });

  test("the Open box opens a webhook ID typed in capitals", async ({ page, webhooksPage, sandbox }) => {
    const webhook = await sandbox.demoWebhook("404");
    await webhooksPage.goto();
    await webhooksPage.openById(`  ${webhook.id.toUpperCase()} `);
    await expect(page).toHaveURL(new RegExp(`/webhooks/${webhook.id}\\?app=[0-9a-f]{16}$`));
    await expect(webhookHeading(page)).toContainText(webhook.endpoint);
  });

  test("a /webhooks/{ID} link in capitals shows the webhook", async ({ page, webhookPage, sandbox }) => {
    const webhook = await sandbox.demoWebhook("500");
    await webhookPage.goto(webhook.id.toUpperCase());
    await expect(webhookHeading(page)).toContainText(webhook.endpoint);
    await expect(webhookPage.rows.first()).toBeVisible();
  });

  test("a ?log= link and Find take a log ID in capitals", async ({ page, webhookPage, sandbox }) => {
    const { apiKey } = await sandbox.demo();
    const webhook = await sandbox.demoWebhook("500");
    const [log] = await sandbox.allLogs(webhook.id, apiKey);
    await webhookPage.goto(webhook.id, `?log=${log!.id.toUpperCase()}`);
    await expect(webhookPage.dialog.getByText(`Log ${log!.id}`)).toBeVisible({ timeout: 20_000 });
    await page.keyboard.press("Escape");

    const find = page.getByRole("form", { name: "Find a delivery" });
    await find.getByLabel("Find a delivery").fill(` ${log!.id.toUpperCase()} `);
    await find.getByRole("button", { name: "Find" }).click();
    await expect(webhookPage.dialog.getByText(`Log ${log!.id}`)).toBeVisible({ timeout: 20_000 });
  });
});

test.describe("caps are stated and refused, never cut", () => {
  test("Response contains over 200 and Find over 2,048 characters are refused with the cap", async ({
    page,
    signInWithDemoKey,
    webhookPage,
    sandbox,
  }) => {
    await signInWithDemoKey();
    const webhook = await sandbox.demoWebhook("500");
    await webhookPage.goto(webhook.id);
    await page.getByText("Filter the whole history").click();
    const contains = page.getByLabel("Response contains");
    await expect(contains).toHaveAccessibleDescription(/Up to 200 characters\./);
    await contains.fill("y".repeat(201));
    await expect(contains).toHaveValue("y".repeat(201));
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(contains).toHaveAccessibleDescription(
      /^Response contains: shorten it to 200 characters or fewer \(it has 201\)\./,
    );
    expect(new URL(page.url()).searchParams.has("contains")).toBe(false);

    const find = page.getByRole("form", { name: "Find a delivery" });
    const box = find.getByLabel("Find a delivery");
    await expect(box).toHaveAccessibleDescription(/Up to 2,048 characters\./);
    await box.fill(`/webhooks/${webhook.id}?log=${webhook.id}&pad=${"z".repeat(2048)}`);
    await find.getByRole("button", { name: "Find" }).click();
    await expect(find.getByRole("alert")).toHaveText(
      /^Find a delivery: shorten it to 2,048 characters or fewer \(it has 2,\d{3}\)\.$/,
    );
  });
});

test.describe("the outcome of a send shows where the person is looking", () => {
  test("with the button at the bottom edge of the screen, each step of the outcome is in view", async ({
    page,
    sandbox,
    signInWithKey,
    webhookPage,
  }) => {
    const { application, channel, webhook } = await sandbox.isolatedSetup("outcome", "error");
    await signInWithKey(application.apiKey);
    await page.setViewportSize({ width: 1280, height: 480 });
    await webhookPage.goto(webhook.id);
    await webhookPage.reachSendForm();
    await webhookPage.field("Channel kind").fill("whatsapp");
    await webhookPage.field("From (channel ID)").fill(channel.id);
    await webhookPage.field("To").fill("5511999990004");
    await webhookPage.sendButton.evaluate((button) => button.scrollIntoView({ block: "end" }));
    await webhookPage.sendButton.click();

    const status = webhookPage.sendStatus;
    await expect(status).toContainText("Sent.");
    await expect(status).toBeInViewport();
    await expect(status).toContainText("Its delivery has landed", { timeout: 20_000 });
    await expect(status.getByRole("button", { name: /^Details/ })).toBeInViewport();
  });
});
