import { violationsInBothSchemes } from "./fixtures/axe";
import { expect, test } from "./fixtures/test";

/**
 * The alert rules people edit, each test on its own sandbox application (the demo's rules stay as
 * they are): the Alerts page's defaults changed and kept after a reload, nonsense refused with
 * the field's message and nothing saved, and what the rules make (one incident per webhook) said
 * beside them; on a watched webhook's page, snooze and back on, quiet hours and a rule of its own
 * kept. Both parts have no serious axe violation, light or dark.
 */

test.describe("alert rules", () => {
  // Page loads, reloads and axe in two colour schemes each: slow on a loaded machine.
  test.describe.configure({ timeout: 120_000 });

  test("the application's defaults: changed and kept after reload; a nonsense value refused by its label and nothing saved", async ({
    page,
    sandbox,
    signInWithKey,
  }) => {
    const { application } = await sandbox.isolatedSetup("rules");
    await signInWithKey(application.apiKey);
    await page.goto("/alerts");
    const form = page.getByRole("form", { name: "Rules" });
    const field = (label: string) => form.getByRole("textbox", { name: label, exact: true });
    // The defaults, shown, and what they make: one incident per webhook.
    await expect(page.getByRole("region", { name: "Rules", exact: true })).toContainText(
      "A webhook has one incident at a time, listing every rule that holds on it",
    );
    await expect(field("Failing streak")).toHaveValue("5");
    await expect(field("Failure rate (%)")).toHaveValue("50");

    await field("Failing streak").fill("3");
    await field("Cooldown (minutes)").fill("10");
    await form
      .getByRole("group", { name: "No delivery at all" })
      .getByRole("checkbox", { name: "Alert on this" })
      .check();
    await form.getByRole("button", { name: "Save rules" }).click();
    await expect(page.getByText("Rules saved")).toBeVisible();
    await page.reload();
    await expect(field("Failing streak")).toHaveValue("3");
    await expect(field("Cooldown (minutes)")).toHaveValue("10");
    await expect(
      form
        .getByRole("group", { name: "No delivery at all" })
        .getByRole("checkbox", { name: "Alert on this" }),
    ).toBeChecked();

    // Nonsense: a window of 0 and a rate over 100 %. Refused beside each field and in the summary.
    await field("Over (minutes)").fill("0");
    await field("Failure rate (%)").fill("150");
    await field("Failing streak").fill("4");
    await form.getByRole("button", { name: "Save rules" }).click();
    const summary = form.getByRole("alert");
    await expect(summary).toContainText("2 fields need a change");
    await expect(summary).toContainText(
      "Over (minutes): enter a whole number from 1 to 10,080 minutes (7 days).",
    );
    await expect(summary).toBeFocused();
    await expect(field("Failure rate (%)")).toHaveAttribute("aria-invalid", "true");
    await expect(
      form.getByText("Failure rate (%): enter a whole number from 1 to 100 %.").first(),
    ).toBeVisible();
    // Its message leads to its field.
    await summary.getByRole("button", { name: /^Over \(minutes\)/ }).click();
    await expect(field("Over (minutes)")).toBeFocused();
    expect(
      await violationsInBothSchemes(
        page,
        ["section[aria-labelledby=rules-heading]"],
        [
          // The time zone list's hundreds of options are not drawn; axe reads the select itself.
          "section[aria-labelledby=rules-heading] option",
        ],
      ),
    ).toEqual({
      light: [],
      dark: [],
    });

    await page.reload();
    await expect(field("Over (minutes)")).toHaveValue("15");
    await expect(field("Failure rate (%)")).toHaveValue("50");
    await expect(field("Failing streak")).toHaveValue("3");
  });

  test("a watched webhook: snoozed and back on, quiet hours and a rule of its own kept", async ({
    page,
    sandbox,
    signInWithKey,
  }) => {
    const { application, webhook } = await sandbox.isolatedSetup("rules-watch");
    await signInWithKey(application.apiKey);
    await page.goto(`/webhooks/${webhook.id}`);
    await page.getByRole("button", { name: "Watch", exact: true }).click();
    // Watched, its alert settings are in its settings view, one click away.
    await page.getByRole("link", { name: "Settings" }).click();
    const part = page.getByRole("region", { name: "Alerts for this webhook" });
    await expect(part).toBeVisible();

    await part.getByRole("combobox", { name: "Snooze" }).selectOption({ label: "For 1 hour" });
    await part.getByRole("button", { name: "Snooze alerts" }).click();
    await expect(part.getByText(/^Snoozed until .*\d\d:\d\d$/)).toBeVisible();
    await page.reload();
    await expect(part.getByText(/^Snoozed until .*\d\d:\d\d$/)).toBeVisible();
    await part.getByRole("button", { name: "Turn alerts back on" }).click();
    await expect(part.getByRole("status")).toHaveText("Alerts are on again.");
    await expect(part.getByRole("combobox", { name: "Snooze" })).toBeVisible();

    const form = part.getByRole("form", { name: "Alert settings" });
    await form.getByRole("checkbox", { name: "Hold alerts every day between these times" }).check();
    await form.getByLabel("Quiet from").fill("23:00");
    await form.getByLabel("Quiet until").fill("23:00");
    await form.getByRole("combobox", { name: "Time zone" }).selectOption("Europe/Berlin");
    await form.getByText("Rules (the application's)").click();
    const streak = form.getByRole("group", { name: "Failing streak" });
    await expect(streak).toContainText("The application's: at least 5 failures in a row.");
    await streak.getByRole("checkbox", { name: "Use the application's rules" }).uncheck();
    await streak.getByRole("textbox", { name: "Failing streak" }).fill("2");
    await form.getByRole("button", { name: "Save alert settings" }).click();
    await expect(form.getByRole("alert")).toContainText("Quiet until: choose a time other than Quiet from.");
    expect(
      await violationsInBothSchemes(
        page,
        ["section[aria-labelledby=webhook-alerts-heading]"],
        ["section[aria-labelledby=webhook-alerts-heading] option"],
      ),
    ).toEqual({
      light: [],
      dark: [],
    });

    await form.getByLabel("Quiet until").fill("06:30");
    await form.getByRole("button", { name: "Save alert settings" }).click();
    await expect(part.getByRole("status")).toHaveText("Alert settings saved.");
    await page.reload();
    await expect(form.getByLabel("Quiet from")).toHaveValue("23:00");
    await expect(form.getByLabel("Quiet until")).toHaveValue("06:30");
    await expect(form.getByRole("combobox", { name: "Time zone" })).toHaveValue("Europe/Berlin");
    await form.getByText("Rules (1 of its own)").click();
    await expect(streak.getByRole("textbox", { name: "Failing streak" })).toHaveValue("2");
  });
});
