import type { Locator, Page } from "@playwright/test";
import { healthAnswered, type WebhookPage } from "./fixtures/pages";
import type { Sandbox } from "./fixtures/sandbox";
import { expectAccessibleInBothSchemes } from "./fixtures/axe";
import { expect, test, webhooksWithOneOpened } from "./fixtures/test";
import { WatchControl } from "./fixtures/watch-pages";

/**
 * The console on a phone: every page at 390 × 844 (and again at 360 px wide) has no page-level
 * horizontal scroll and nothing drawn over anything else; axe finds nothing serious in light or dark.
 */

const PHONE = { width: 390, height: 844 };
const NARROW = { width: 360, height: 780 };

interface LayoutReport {
  scrollWidth: number;
  innerWidth: number;
  /** Pairs of visible controls or text blocks whose boxes intersect (neither inside the other). */
  overlaps: string[];
  /** How many boxes were compared: a page that found none would prove nothing. */
  checked: number;
}

/**
 * Boxes of every visible control (buttons, links, inputs, selects, summaries) and every element
 * holding text of its own (labels, cells, paragraphs, badges). While a modal dialog is open, only
 * the dialog's (the page behind it is inert and drawn under it).
 */
function layoutReport(page: Page): Promise<LayoutReport> {
  return page.evaluate(() => {
    const root: ParentNode = document.querySelector("dialog[open]") ?? document.body;
    const controls = "button, a[href], input:not([type=hidden]), select, textarea, summary";

    /** Inside a visually hidden (sr-only) box, or not rendered. */
    function hidden(element: Element): boolean {
      if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return true;
      for (let node: Element | null = element; node; node = node.parentElement) {
        // The sr-only pattern: clipped to nothing (its box may keep some padding).
        const style = getComputedStyle(node);
        if (style.clipPath === "inset(50%)" && style.overflow === "hidden") return true;
      }
      return false;
    }
    function ownText(element: Element): boolean {
      return [...element.childNodes].some(
        (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? "").trim() !== "",
      );
    }
    function name(element: Element): string {
      const text = (element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      return `<${element.tagName.toLowerCase()}> "${text}"`;
    }

    const elements = [...root.querySelectorAll("*")].filter(
      (element) => (element.matches(controls) || ownText(element)) && !hidden(element),
    );
    const boxes = elements.map((element) => ({ element, rect: element.getBoundingClientRect() }));
    const overlaps: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
        const width = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
        const height = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
        if (width > 0.5 && height > 0.5) overlaps.push(`${name(a.element)} × ${name(b.element)}`);
      }
    }
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      overlaps,
      checked: boxes.length,
    };
  });
}

async function expectFitsThePhone(page: Page) {
  const report = await layoutReport(page);
  expect(report.checked, "controls and text found on the page").toBeGreaterThanOrEqual(3);
  expect(report.overlaps, "controls or text drawn over each other").toEqual([]);
  expect(report.scrollWidth, "page-level horizontal scroll").toBeLessThanOrEqual(report.innerWidth);
}

/** Adds the sandbox's Staging demo application to this page's session (through the console's API). */
async function addStaging(page: Page, sandbox: Sandbox) {
  const staging = (await sandbox.demo()).applications.find((app) => app.name === "Staging")!;
  const response = await page.request.post("/api/applications", {
    data: { name: "Staging", apiKey: staging.apiKey },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** The rows are in, and the page is hydrated (relative times shown, handlers attached). */
async function webhookWithRows(webhookPage: WebhookPage, webhookId: string) {
  await webhookPage.goto(webhookId);
  await expect(webhookPage.rows.first()).toBeVisible();
  await webhookPage.remembered(webhookId);
}

/** The demo's webhook answering 401, its rows in as cards, signed in with the demo key. */
async function demo401WithRows({
  signInWithDemoKey,
  sandbox,
  webhookPage,
}: {
  signInWithDemoKey: () => Promise<void>;
  sandbox: Sandbox;
  webhookPage: WebhookPage;
}) {
  await signInWithDemoKey();
  await webhookWithRows(webhookPage, (await sandbox.demoWebhook("401")).id);
  return webhookPage.rowWithCode("401").first();
}

/** A row's details dialog, open. */
async function openDetails(webhookPage: WebhookPage, row: Locator) {
  await webhookPage.detailsButton(row).click();
  await expect(webhookPage.dialog.getByRole("heading", { name: "Response body" })).toBeVisible();
}

/**
 * Checks the page's state at each phone width in turn, resized in place (the layout is CSS, so a
 * resize redraws it as a load at that width would), then goes back to 390 px for what follows.
 */
async function atEachPhoneWidth(page: Page, check: (viewport: typeof PHONE) => Promise<void>) {
  for (const viewport of [PHONE, NARROW]) {
    await page.setViewportSize(viewport);
    await test.step(`at ${viewport.width} px wide`, () => check(viewport));
  }
  await page.setViewportSize(PHONE);
}

test.describe("at 390 and 360 px wide", () => {
  test.use({ viewport: PHONE });

  test("the login page", async ({ page, loginPage }) => {
    await loginPage.goto("?reason=key_rejected");
    await expect(loginPage.demoKey).toBeVisible();
    await atEachPhoneWidth(page, () => expectFitsThePhone(page));
  });

  test("the webhooks page", async ({ page, signInWithDemoKey, sandbox, webhookPage, webhooksPage }) => {
    await webhooksWithOneOpened({ signInWithDemoKey, sandbox, webhookPage, webhooksPage });
    await atEachPhoneWidth(page, async () => {
      await expectFitsThePhone(page);
      // The header: title and Sign out on one line.
      const title = await page.getByRole("link", { name: "Webhook Console" }).boundingBox();
      const signOut = await webhookPage.signOut.boundingBox();
      expect(Math.abs(title!.y + title!.height / 2 - (signOut!.y + signOut!.height / 2))).toBeLessThan(4);
    });
  });

  test("a webhook page with its log table as cards, then its details dialog", async ({
    page,
    signInWithDemoKey,
    sandbox,
    webhookPage,
  }) => {
    const row = await demo401WithRows({ signInWithDemoKey, sandbox, webhookPage });
    await atEachPhoneWidth(page, async (viewport) => {
      await expectFitsThePhone(page);
      // Each row is a card: the response preview is on its own line below the status, the buttons below it.
      const [status, response, details] = await Promise.all([
        row.getByRole("cell").nth(0).boundingBox(),
        row.getByRole("cell").nth(4).boundingBox(),
        webhookPage.detailsButton(row).boundingBox(),
      ]);
      expect(response!.y).toBeGreaterThanOrEqual(status!.y + status!.height);
      expect(response!.width).toBeGreaterThan(viewport.width / 2);
      expect(details!.x + details!.width).toBeLessThanOrEqual(viewport.width);
    });
    // The column names still label the values.
    await expect(row.getByRole("cell").nth(1)).toHaveAttribute("data-label", "HTTP status");
    await expect(webhookPage.table.getByRole("columnheader", { name: "Response", exact: true })).toHaveCount(
      1,
    );

    await openDetails(webhookPage, row);
    await atEachPhoneWidth(page, async (viewport) => {
      await expectFitsThePhone(page);
      const dialog = await webhookPage.dialog.boundingBox();
      expect(dialog!.x).toBeGreaterThanOrEqual(0);
      expect(dialog!.x + dialog!.width).toBeLessThanOrEqual(viewport.width);
    });
  });

  test("a webhook of its own: the watch name takes the width of the page, then the send form and its result", async ({
    page,
    sandbox,
    signInWithKey,
    webhookPage,
  }) => {
    const { application, channel, webhook } = await sandbox.isolatedSetup("phone", "error");
    await signInWithKey(application.apiKey);
    await webhookPage.goto(webhook.id);
    const control = new WatchControl(page);
    await expect(control.watch).toBeVisible();
    await expect(page.getByText("No deliveries recorded for this webhook yet")).toBeVisible();
    await atEachPhoneWidth(page, async (viewport) => {
      await expectFitsThePhone(page);
      // The page's padding aside, the field and its hint span the screen (not squeezed beside Watch).
      const [field, hint] = await Promise.all([
        control.name.boundingBox(),
        page.getByText(/^A customer's name, say/).boundingBox(),
      ]);
      expect(field!.width).toBeGreaterThan(viewport.width * 0.75);
      expect(hint!.width).toBeGreaterThan(viewport.width * 0.75);
      expect(hint!.height).toBeLessThan(60);
    });

    await webhookPage.reachSendForm();
    await webhookPage.field("Channel kind").fill("whatsapp");
    await webhookPage.field("From (channel ID)").fill(channel.id);
    await webhookPage.field("To").fill("5511999990001");
    await webhookPage.field("Text").fill("Hello from a phone");
    await webhookPage.sendButton.click();
    await expect(webhookPage.sendStatus).toContainText("Its delivery has landed", { timeout: 20_000 });
    await expect(webhookPage.rows).toHaveCount(1);
    await atEachPhoneWidth(page, () => expectFitsThePhone(page));
  });

  test("the applications page, and the header's application menu open", async ({
    page,
    sandbox,
    signInWithDemoKey,
  }) => {
    await signInWithDemoKey();
    await addStaging(page, sandbox);
    await page.goto("/applications");
    await expect(page.getByRole("heading", { name: "Your applications (2 of 10)" })).toBeVisible();
    await atEachPhoneWidth(page, () => expectFitsThePhone(page));
    // Open, the menu is drawn over the page (that is its job): it must stay within the screen.
    await page.getByRole("banner").locator("summary").click();
    await atEachPhoneWidth(page, async (viewport) => {
      const menu = await page.getByRole("banner").locator("details > div").boundingBox();
      expect(menu!.x).toBeGreaterThanOrEqual(0);
      expect(menu!.x + menu!.width).toBeLessThanOrEqual(viewport.width);
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    });
  });

  test("the error and not-found pages", async ({ page, signInWithDemoKey }) => {
    await signInWithDemoKey();
    await page.goto("/webhooks/00000000-0000-4000-8000-00000000dead");
    await expect(page.getByRole("heading", { name: "Webhook not found" })).toBeVisible();
    await atEachPhoneWidth(page, () => expectFitsThePhone(page));

    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await atEachPhoneWidth(page, () => expectFitsThePhone(page));
  });
});

test.describe("accessibility at 390 px (light and dark)", () => {
  test.use({ viewport: PHONE });
  // axe reads the whole page four times per test (two states, two schemes): slow on a loaded machine.
  test.describe.configure({ timeout: 90_000 });

  test("a webhook page with its cards, then its details dialog", async ({
    page,
    signInWithDemoKey,
    sandbox,
    webhookPage,
  }) => {
    const row = await demo401WithRows({ signInWithDemoKey, sandbox, webhookPage });
    await expectAccessibleInBothSchemes(page);
    await openDetails(webhookPage, row);
    await expectAccessibleInBothSchemes(page);
  });

  test("the applications page", async ({ page, sandbox, signInWithDemoKey }) => {
    await signInWithDemoKey();
    await addStaging(page, sandbox);
    await page.goto("/applications");
    await expect(page.getByRole("heading", { name: "Your applications (2 of 10)" })).toBeVisible();
    await expectAccessibleInBothSchemes(page);
    await page.getByRole("banner").locator("summary").click();
    await expectAccessibleInBothSchemes(page);
  });

  test("the login and webhooks pages", async ({ page, loginPage, signInWithDemoKey, webhooksPage }) => {
    await loginPage.goto("?reason=key_rejected");
    await expect(loginPage.demoKey).toBeVisible();
    await expectAccessibleInBothSchemes(page);
    await signInWithDemoKey();
    await webhooksPage.goto();
    await expect(webhooksPage.demo).toBeVisible();
    await expectAccessibleInBothSchemes(page);
  });
});

/** The README's screenshots: `SCREENSHOTS=1 npx playwright test tests/e2e/phone.spec.ts -g screenshots`. */
test.describe("screenshots", () => {
  test.skip(!process.env.SCREENSHOTS, "writes docs/screenshots/ only when SCREENSHOTS=1");

  for (const { name, viewport, colorScheme } of [
    { name: "webhook-phone-light", viewport: PHONE, colorScheme: "light" as const },
    { name: "webhook-phone-dark", viewport: PHONE, colorScheme: "dark" as const },
    { name: "webhook-desktop", viewport: { width: 1280, height: 800 }, colorScheme: "light" as const },
  ]) {
    test(name, async ({ page, signInWithDemoKey, sandbox, webhookPage }) => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme });
      await signInWithDemoKey();
      await webhookWithRows(webhookPage, (await sandbox.demoWebhook("Busy")).id);
      await healthAnswered(page, 20_000);
      await page.screenshot({ path: `docs/screenshots/${name}.png` });
    });
  }

  for (const { name, viewport } of [
    { name: "applications-desktop", viewport: { width: 1280, height: 800 } },
    { name: "applications-phone-light", viewport: PHONE },
  ]) {
    test(name, async ({ page, sandbox, signInWithDemoKey }) => {
      await page.setViewportSize(viewport);
      await signInWithDemoKey();
      await addStaging(page, sandbox);
      await page.goto("/applications");
      await page.getByRole("banner").locator("summary").click();
      await page.screenshot({ path: `docs/screenshots/${name}.png` });
    });
  }

  test("overview", async ({ page, signInWithDemoKey }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInWithDemoKey();
    await page.goto("/overview");
    await expect(
      page.getByRole("region", { name: "Failure issues" }).getByRole("listitem").first(),
    ).toBeVisible({
      timeout: 60_000,
    });
    await page.screenshot({ path: "docs/screenshots/overview.png", fullPage: true });
  });

  test("delivery-health", async ({ page, signInWithDemoKey, sandbox, webhookPage }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInWithDemoKey();
    await webhookWithRows(webhookPage, (await sandbox.demoWebhook("Busy")).id);
    const health = await healthAnswered(page, 20_000);
    await health.screenshot({ path: "docs/screenshots/delivery-health.png" });
  });
});
