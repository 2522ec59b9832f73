import { cookieHeader, expect, test } from "./fixtures/test";

test.describe("first paint", () => {
  test("the page's HTML already holds the header and the log rows", async ({
    page,
    request,
    sandbox,
    signInWithDemoKey,
  }) => {
    await signInWithDemoKey();
    const webhook = await sandbox.demoWebhook("500");
    // A link without ?app= is sent on to the current application's address, which is rendered.
    const cookie = await cookieHeader(page);
    const bare = await request.get(`/webhooks/${webhook.id}?status=Failed&limit=10`, {
      headers: { cookie },
      maxRedirects: 0,
    });
    expect(bare.status()).toBe(307);
    const address = bare.headers()["location"] ?? "";
    expect(address).toMatch(/[?&]app=[0-9a-f]{16}/);
    const response = await request.get(address, { headers: { cookie }, maxRedirects: 0 });
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toContain(webhook.endpoint);
    expect(html.match(/<tr[^>]*data-log-id="[0-9a-f-]{36}"/g)?.length).toBe(10);
    expect(html).toMatch(/Page (<!-- -->)?1(<!-- -->)? of/);
  });

  test("no API request happens before the rows show", async ({ page, sandbox, signInWithDemoKey }) => {
    await signInWithDemoKey();
    const webhook = await sandbox.demoWebhook("200");
    await page.addInitScript(() => {
      const w = window as typeof window & { __rowsAt?: number };
      const check = () => {
        if (w.__rowsAt === undefined && document.querySelector("tr[data-log-id]"))
          w.__rowsAt = performance.now();
      };
      new MutationObserver(check).observe(document, { childList: true, subtree: true });
      check();
    });
    await page.goto(`/webhooks/${webhook.id}`);
    await expect(page.locator("tr[data-log-id]").first()).toBeVisible();
    await page.waitForLoadState("networkidle");
    const { rowsAt, apiStarts } = await page.evaluate(() => ({
      rowsAt: (window as typeof window & { __rowsAt?: number }).__rowsAt ?? null,
      apiStarts: performance
        .getEntriesByType("resource")
        .filter((entry) => new URL(entry.name).pathname.startsWith("/api/"))
        .map((entry) => entry.startTime),
    }));
    expect(rowsAt).not.toBeNull();
    for (const start of apiStarts) expect(start).toBeGreaterThan(rowsAt!);
  });
});

test("the header's links prefetch their page when pointed at, not while the page loads", async ({
  page,
  sandbox,
  signInWithDemoKey,
  webhookPage,
}) => {
  await signInWithDemoKey();
  const webhook = await sandbox.demoWebhook("200");
  // Next's prefetches are requests for the page's server-component payload (an `rsc` header).
  const prefetches: string[] = [];
  page.on("request", (request) => {
    if (request.headers()["rsc"] && new URL(request.url()).pathname === "/webhooks")
      prefetches.push(request.url());
  });
  await webhookPage.goto(webhook.id);
  await expect(webhookPage.rows.first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(prefetches).toEqual([]);

  const webhooksLink = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" });
  await webhooksLink.hover();
  await expect.poll(() => prefetches.length).toBeGreaterThan(0);
  // The link still navigates within the app (no full load): the header stays the same element.
  const header = await page.locator("header").elementHandle();
  await webhooksLink.click();
  await expect(page).toHaveURL(/\/webhooks$/);
  expect(await header!.evaluate((element) => element.isConnected)).toBe(true);
});
