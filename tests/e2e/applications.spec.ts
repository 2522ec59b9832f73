import type { Page } from "@playwright/test";
import type { DemoApplication } from "./fixtures/sandbox";
import { expect, test } from "./fixtures/test";
import { webhookHeading } from "./fixtures/pages";

/**
 * Several applications in one session, against the sandbox's two demo applications (the demo
 * application "Use sandbox demo key" signs in to, and Staging): add (a rejected key and bad names
 * refused, nothing stored), switch, a link under the right application in a new tab and for a
 * colleague, "Look in my other applications", remove, a rotated key marked and replaced while the
 * other stays usable, and the session cookie with 10 applications.
 */

const APP_ID = /^[0-9a-f]{16}$/;

async function staging(sandbox: { demo(): Promise<{ applications: DemoApplication[] }> }) {
  const found = (await sandbox.demo()).applications.find((app) => app.name === "Staging");
  if (!found) throw new Error("the sandbox has no Staging demo application");
  return found;
}

/** Adds an application through the console's API with this page's session (its answer updates the cookie). */
async function addApplication(
  page: Page,
  name: string,
  apiKey: string,
): Promise<{ id: string; name: string }> {
  const response = await page.request.post("/api/applications", { data: { name, apiKey } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { application: { id: string; name: string } }).application;
}

/** The header's application menu. */
function switcher(page: Page) {
  const menu = page.getByRole("banner").locator("details");
  return {
    summary: menu.locator("summary"),
    async choose(name: string) {
      await menu.locator("summary").click();
      await menu.getByRole("button", { name: new RegExp(`^${name}\\b`) }).click();
    },
  };
}

function applicationItem(page: Page, name: string) {
  return page.getByRole("region", { name: /Your applications/ }).getByRole("listitem", { name, exact: true });
}

test.describe("several applications", () => {
  // Several sign-ins, applications added and pages opened per test: longer than the default on a busy machine.
  test.describe.configure({ timeout: 60_000 });

  test("adds one: a rejected key and bad names are refused with the reason, and nothing is stored", async ({
    page,
    sandbox,
    signInWithDemoKey,
  }) => {
    const stage = await staging(sandbox);
    await signInWithDemoKey();
    await page.goto("/webhooks");
    await page.getByRole("banner").getByRole("link", { name: "Applications" }).click();
    await expect(page).toHaveURL(/\/applications$/);
    const name = page.getByRole("textbox", { name: "Name" });
    const key = page.getByLabel("API key", { exact: true });
    const add = page.getByRole("button", { name: "Add application" });
    const count = page.getByRole("heading", { name: /Your applications/ });
    await expect(count).toHaveText("Your applications (1 of 10)");

    await name.fill("x".repeat(41));
    await key.fill(stage.apiKey);
    await add.click();
    await expect(page.getByText("Name: shorten it to 40 characters or fewer")).toBeVisible();

    await name.fill("DEFAULT");
    await add.click();
    await expect(page.getByText('An application is already named "Default"')).toBeVisible();

    await name.fill("Staging");
    await key.fill("mh_wrong_0123456789abcdef0123456789");
    await add.click();
    await expect(page.getByText(/rejected this key \(HTTP 401\).*Nothing was stored/)).toBeVisible();
    await page.reload();
    await expect(count).toHaveText("Your applications (1 of 10)");

    await name.fill("Staging");
    await key.fill(stage.apiKey);
    await add.click();
    await expect(page.getByRole("status")).toContainText("The application was added");
    await expect(count).toHaveText("Your applications (2 of 10)");
    await expect(applicationItem(page, "Staging")).toContainText(`…${stage.apiKey.slice(-4)}`);
    // The key is nowhere in the page.
    expect(await page.content()).not.toContain(stage.apiKey);

    await name.fill("Again");
    await key.fill(stage.apiKey);
    await add.click();
    await expect(
      page.getByText('API key: this key is already added, as "Staging". Each application is added once.'),
    ).toBeVisible();
    await page.reload();
    await expect(count).toHaveText("Your applications (2 of 10)");
  });

  test("switches in one click from any page, landing on that application's webhooks", async ({
    page,
    sandbox,
    signInWithDemoKey,
    webhookPage,
  }) => {
    const demo = await sandbox.demo();
    const stage = await staging(sandbox);
    await signInWithDemoKey();
    await addApplication(page, "Staging", stage.apiKey);
    await webhookPage.goto(demo.webhooks[0]!.id);
    await expect(switcher(page).summary).toContainText(`Default…${demo.apiKey.slice(-4)}`);

    await switcher(page).choose("Staging");
    await expect(page).toHaveURL(/\/webhooks$/);
    await expect(switcher(page).summary).toContainText(`Staging…${stage.apiKey.slice(-4)}`);
    // Its own demo webhooks, whose links name it.
    const link = page.getByRole("link", { name: stage.webhooks[0]!.label, exact: true });
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/webhooks/${stage.webhooks[0]!.id}\\?app=[0-9a-f]{16}$`));
    await expect(webhookHeading(page)).toContainText(stage.webhooks[0]!.endpoint);
    await expect(webhookPage.rows.first()).toBeVisible();

    // Remembered per application: Staging's list has it, Default's does not.
    await webhookPage.remembered(stage.webhooks[0]!.id);
    await page.goto("/webhooks");
    await expect(page.getByRole("region", { name: "Opened recently" })).toContainText(
      stage.webhooks[0]!.endpoint,
    );
    await switcher(page).choose("Default");
    await expect(switcher(page).summary).toContainText("Default");
    await expect(page.getByRole("region", { name: "Sandbox demo webhooks" })).toContainText(
      demo.webhooks[0]!.label,
    );
    await expect(page.getByText(stage.webhooks[0]!.id)).toHaveCount(0);
  });

  test("a webhook link opens under the right application in a new tab, and for a colleague who named it otherwise", async ({
    page,
    browser,
    sandbox,
    signInWithDemoKey,
    baseURL,
  }) => {
    const stage = await staging(sandbox);
    const webhook = stage.webhooks[1]!;
    await signInWithDemoKey();
    const added = await addApplication(page, "Staging", stage.apiKey);
    expect(added.id).toMatch(APP_ID);
    await page.goto(`/webhooks/${webhook.id}?app=${added.id}&status=Failed`);
    await expect(webhookHeading(page)).toContainText(webhook.endpoint);
    const link = page.url();
    expect(link).not.toContain(stage.apiKey);

    // The first tab's current application is still Default; a new tab of the same session opens the link under Staging.
    await page.goto("/webhooks");
    await expect(switcher(page).summary).toContainText("Default");
    const tab = await page.context().newPage();
    await tab.goto(link);
    await expect(webhookHeading(tab)).toContainText(webhook.endpoint);
    await expect(switcher(tab).summary).toContainText("Staging");
    // The browser's own calls (the table's rows) use Staging's key too.
    await expect(tab.getByRole("table").getByRole("row").nth(1)).toBeVisible();
    await expect(tab.getByRole("combobox", { name: "Status" })).toHaveValue("Failed");
    await tab.close();

    // A colleague with the same key added as "Stage EU" opens the same link.
    const colleague = await browser.newContext({ baseURL });
    const theirs = await colleague.newPage();
    await theirs.goto("/login");
    await theirs.getByRole("button", { name: "Use sandbox demo key" }).click();
    await expect(theirs).toHaveURL(/\/webhooks$/);
    await addApplication(theirs, "Stage EU", stage.apiKey);
    await theirs.goto(link);
    await expect(webhookHeading(theirs)).toContainText(webhook.endpoint);
    await expect(switcher(theirs).summary).toContainText("Stage EU");
    await colleague.close();

    // An application id this session does not hold: not found.
    const response = await page.goto(`/webhooks/${webhook.id}?app=0123456789abcdef`);
    expect(response?.status()).toBe(404);
    await expect(page.getByText("This link is for an application that is not in your session")).toBeVisible();
  });

  test("Look in my other applications opens the webhook under the one that has it, or says none has", async ({
    page,
    sandbox,
    signInWithDemoKey,
    webhookPage,
  }) => {
    const stage = await staging(sandbox);
    const webhook = stage.webhooks[0]!;
    await signInWithDemoKey();
    const added = await addApplication(page, "Staging", stage.apiKey);

    const response = await page.goto(`/webhooks/${webhook.id}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Webhook not found" })).toBeVisible();
    await page.getByRole("button", { name: "Look in my other applications" }).click();
    await expect(page).toHaveURL(`/webhooks/${webhook.id}?app=${added.id}`);
    await expect(webhookHeading(page)).toContainText(webhook.endpoint);
    await expect(webhookPage.rows.first()).toBeVisible();

    await page.goto("/webhooks/00000000-0000-4000-8000-00000000beef");
    await page.getByRole("button", { name: "Look in my other applications" }).click();
    await expect(page.getByRole("status")).toHaveText(
      "None of your other applications has a webhook with this ID either.",
    );
  });

  test("renames and removes an application; the last one cannot be removed", async ({
    page,
    sandbox,
    signInWithDemoKey,
  }) => {
    const stage = await staging(sandbox);
    await signInWithDemoKey();
    await addApplication(page, "Staging", stage.apiKey);
    await page.goto("/applications");
    const rename = applicationItem(page, "Default");
    await rename.locator("summary", { hasText: "Rename" }).click();
    await rename.getByLabel("New name for Default").fill("staging");
    await rename.getByRole("button", { name: "Rename", exact: true }).click();
    await expect(page.getByText('An application is already named "Staging"')).toBeVisible();
    await rename.getByLabel("New name for Default").fill("Production");
    await rename.getByRole("button", { name: "Rename", exact: true }).click();
    await expect(page.getByRole("status")).toContainText("The application was renamed");
    await expect(switcher(page).summary).toContainText("Production");

    await applicationItem(page, "Staging").getByRole("button", { name: "Remove Staging" }).click();
    await expect(page.getByRole("status")).toContainText("The application was removed");
    await expect(page.getByRole("heading", { name: /Your applications/ })).toHaveText(
      "Your applications (1 of 10)",
    );
    await expect(page.getByRole("button", { name: /^Remove/ })).toHaveCount(0);
    await switcher(page).summary.click();
    await expect(page.getByRole("banner").getByRole("button", { name: /Staging/ })).toHaveCount(0);
  });

  test("a rotated key is marked in the switcher and replaced, while the other application stays usable", async ({
    page,
    sandbox,
    signInWithDemoKey,
    webhookPage,
  }) => {
    const demo = await sandbox.demo();
    const { application, webhook } = await sandbox.isolatedSetup("rotated-of-two");
    await signInWithDemoKey();
    const rotating = await addApplication(page, "Rotating", application.apiKey);
    await page.goto(`/webhooks/${webhook.id}?app=${rotating.id}`);
    await expect(webhookHeading(page)).toContainText(webhook.endpoint);

    const newKey = await sandbox.rotateKey(application.id);
    await page.reload();
    await expect(page).toHaveURL(/\/applications$/);
    await expect(applicationItem(page, "Rotating").getByText("Key rejected")).toBeVisible();
    await switcher(page).summary.click();
    await expect(
      page.getByRole("banner").getByRole("button", { name: /Rotating.*Key rejected/ }),
    ).toBeVisible();

    // The other application still works: still signed in, its webhook opens.
    await webhookPage.goto(demo.webhooks[0]!.id);
    await expect(webhookHeading(page)).toContainText(demo.webhooks[0]!.endpoint);
    await expect(webhookPage.rows.first()).toBeVisible();

    await page.goto("/applications");
    const item = applicationItem(page, "Rotating");
    await item.getByLabel("New API key for Rotating").fill(newKey);
    await item.getByRole("button", { name: "Replace key", exact: true }).click();
    // The form loads the list again once saved: a click before that load would be undone by it.
    await expect(page).toHaveURL(/[?&]done=replaced/);
    await expect(page.getByRole("status")).toContainText("The key was replaced");
    await expect(applicationItem(page, "Rotating").getByText("Key rejected")).toHaveCount(0);
    await expect(applicationItem(page, "Rotating")).toContainText(`…${newKey.slice(-4)}`);
    // No key anywhere in the page, its RSC payload included.
    const html = await page.content();
    for (const key of [demo.apiKey, application.apiKey, newKey]) expect(html).not.toContain(key);
    await applicationItem(page, "Rotating")
      .getByRole("button", { name: "Open webhooks of Rotating" })
      .click();
    await expect(page).toHaveURL(/\/webhooks$/);
    await page.getByRole("textbox", { name: "Webhook ID" }).fill(webhook.id);
    await page.getByRole("button", { name: "Open", exact: true }).click();
    await expect(webhookHeading(page)).toContainText(webhook.endpoint);
    await expect(switcher(page).summary).toContainText("Rotating");
  });

  test("the session cookie stays under 4 KB with 10 applications, and the 11th is refused", async ({
    page,
    sandbox,
    signInWithDemoKey,
  }) => {
    await signInWithDemoKey();
    const stamp = Date.now().toString(36);
    for (let n = 1; n < 10; n++) {
      const created = await sandbox.createApplication(`e2e ten ${stamp} ${n}`);
      await addApplication(
        page,
        `${String(n).padStart(2, "0")} Customer region ${stamp}`.padEnd(40, "x"),
        created.apiKey,
      );
    }
    const cookie = (await page.context().cookies()).find((c) => c.name.endsWith("hub_console"))!;
    const size = cookie.name.length + 1 + cookie.value.length;
    console.info(`[applications] session cookie with 10 applications: ${size} bytes`);
    expect(size).toBeLessThan(4096);

    await page.goto("/applications");
    await expect(page.getByRole("heading", { name: /Your applications/ })).toHaveText(
      "Your applications (10 of 10)",
    );
    await expect(page.getByText("This session holds 10 applications, the most it can.")).toBeVisible();
    await switcher(page).summary.click();
    await expect(page.getByRole("banner").locator("details li")).toHaveCount(10);

    const eleventh = await sandbox.createApplication(`e2e eleventh ${stamp}`);
    const refused = await page.request.post("/api/applications", {
      data: { name: "Eleven", apiKey: eleventh.apiKey },
    });
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain("already holds 10 applications");
  });
});
