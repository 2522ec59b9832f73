/**
 * Security in a real browser against the built console: the session cookie's attributes (and that
 * Chrome keeps a Secure `__Host-` cookie on http://127.0.0.1), sign-out, the security headers,
 * the nonce CSP (no violations while browsing; injected inline handlers blocked), framing, the
 * handle of a page that opened the console (COOP), and CSRF from another origin on the same
 * machine. (The sign-in rate limit and the plain-http cookie switch need no browser:
 * app/api/session/sign-in.test.ts, lib/server/session/session.test.ts.)
 */
import { createServer, type Server } from "node:http";
import { expect, test, type Page } from "@playwright/test";
import {
  listenOnFreePort,
  sandboxAdmin,
  startConsole,
  startSandboxProcess,
  type ServerProcess,
} from "./support";
import { WebhookPage } from "../fixtures/pages";

test.describe.configure({ mode: "serial", timeout: 90_000 });

let sandbox: ServerProcess;
let consoleServer: ServerProcess;
let attacker: Server;
let attackerPage = "";
let attackerPort = 0;
let demo: { apiKey: string; channels: { id: string; kind: string }[]; webhooks: { id: string }[] };

test.beforeAll(async () => {
  sandbox = await startSandboxProcess();
  demo = await sandboxAdmin(sandbox, "GET", "/_sandbox/demo");
  consoleServer = await startConsole({ HUB_BASE_URL: sandbox.url, HUB_SANDBOX: "1" });
  // Another origin on the same machine: same-site for the browser, so SameSite=Lax alone would not stop it.
  attacker = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(attackerPage);
  });
  attackerPort = await listenOnFreePort(attacker);
});

test.afterAll(async () => {
  await new Promise((resolve) => attacker?.close(resolve));
  await consoleServer?.stop();
  await sandbox?.stop();
});

async function signIn(page: Page, apiKey = demo.apiKey): Promise<void> {
  await page.goto(`${consoleServer.url}/login`);
  await page.getByRole("textbox", { name: "API key" }).fill(apiKey);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => url.pathname !== "/login");
}

test("the session cookie is __Host-, Secure, httpOnly, SameSite=Lax, kept on http://127.0.0.1, and removed by sign-out", async ({
  page,
  context,
}) => {
  const signInAnswer = page.waitForResponse(
    (r) => r.url().endsWith("/api/session") && r.request().method() === "POST",
  );
  await signIn(page);
  const setCookie = (await (await signInAnswer).allHeaders())["set-cookie"] ?? "";
  expect(setCookie).toMatch(/^__Host-hub_console=/);
  expect(setCookie).not.toMatch(/domain=/i);

  const cookies = await context.cookies(consoleServer.url);
  const session = cookies.find((c) => c.name === "__Host-hub_console");
  expect(session, JSON.stringify(cookies)).toBeDefined();
  expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: "Lax", path: "/" });
  expect(session!.expires).toBeGreaterThan(Date.now() / 1000 + 8 * 3600 - 120);
  expect(await page.evaluate(() => document.cookie)).not.toContain("hub_console");

  // Chrome kept it over plain http on loopback: the console still knows us on the next page.
  await page.goto(`${consoleServer.url}/webhooks/${demo.webhooks[0]!.id}`);
  await expect(page).toHaveURL(new RegExp(`/webhooks/${demo.webhooks[0]!.id}`));
  expect((await (await page.request.get(`${consoleServer.url}/api/session`)).json()).signedIn).toBe(true);

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/login/);
  expect(
    (await context.cookies(consoleServer.url)).find((c) => c.name === "__Host-hub_console"),
  ).toBeUndefined();
  await page.goto(`${consoleServer.url}/webhooks/${demo.webhooks[0]!.id}`);
  await expect(page).toHaveURL(/\/login/);
});

test("security headers on pages, API answers and static assets; no X-Powered-By; no-store where the session shows", async ({
  page,
}) => {
  await signIn(page);
  const html = await page.request.get(`${consoleServer.url}/webhooks`);
  const api = await page.request.get(`${consoleServer.url}/api/session`);
  const asset = (await page.locator("script[src^='/_next/static/']").first().getAttribute("src"))!;
  const statik = await page.request.get(`${consoleServer.url}${asset}`);
  for (const [name, response] of [
    ["page", html],
    ["api", api],
    ["static", statik],
  ] as const) {
    const headers = response.headers();
    expect(headers["x-content-type-options"], name).toBe("nosniff");
    expect(headers["referrer-policy"], name).toBe("same-origin");
    expect(headers["x-frame-options"], name).toBe("DENY");
    expect(headers["cross-origin-opener-policy"], name).toBe("same-origin");
    expect(headers["x-powered-by"], name).toBeUndefined();
  }
  expect(html.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(api.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(html.headers()["cache-control"]).toContain("no-store");
  expect(api.headers()["cache-control"]).toBe("no-store");
});

test("the CSP nonce is fresh per request and on every script; browsing raises no violation; injected handlers are blocked", async ({
  page,
}) => {
  await page.addInitScript(() => {
    (window as unknown as { __violations: string[] }).__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __violations: string[] }).__violations.push(
        `${e.violatedDirective} ${e.blockedURI}`,
      );
    });
  });
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) consoleErrors.push(message.text());
  });

  const first = await page.request.get(`${consoleServer.url}/login`);
  const second = await page.request.get(`${consoleServer.url}/login`);
  const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1];
  const nonce = nonceOf(first.headers()["content-security-policy"]!)!;
  expect(nonce).toBeTruthy();
  expect(nonceOf(second.headers()["content-security-policy"]!)).not.toBe(nonce);
  expect(first.headers()["content-security-policy"]).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(first.headers()["content-security-policy"]).not.toContain("unsafe-eval");
  const scripts = [...(await first.text()).matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);

  await signIn(page);
  for (const target of [
    `/webhooks`,
    `/webhooks/${demo.webhooks[0]!.id}`,
    `/webhooks/${demo.webhooks[3]!.id}?status=Failed`,
    "/no-such-page",
  ]) {
    await page.goto(`${consoleServer.url}${target}`);
    await page.waitForLoadState("networkidle");
  }
  // Hydrated and interactive under the CSP: a client-side control works.
  await page.goto(`${consoleServer.url}/webhooks/${demo.webhooks[0]!.id}`);
  // The rows are in the HTML before hydration: a choice made before it would not reach the URL.
  await new WebhookPage(page).remembered(demo.webhooks[0]!.id);
  await page.getByRole("combobox", { name: "Status" }).selectOption("Failed");
  await expect(page).toHaveURL(/status=Failed/);
  expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual(
    [],
  );
  expect(consoleErrors).toEqual([]);

  // A string that slipped into the DOM as HTML could not run script.
  await page.evaluate(() => {
    document.body.insertAdjacentHTML("beforeend", `<img src="/nope.png" onerror="window.__xss = 1">`);
  });
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __violations: string[] }).__violations.length))
    .toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
});

test("another site cannot frame the console", async ({ page }) => {
  attackerPage = `<!doctype html><iframe id="f" src="${consoleServer.url}/login" width="600" height="400"></iframe>`;
  const blocked = page
    .waitForEvent("console", {
      predicate: (m) => /frame-ancestors|X-Frame-Options|refused to (display|frame)/i.test(m.text()),
      timeout: 10_000,
    })
    .catch(() => null);
  await page.goto(`http://127.0.0.1:${attackerPort}/`);
  const refusal = await blocked;
  const frame = page.frames().find((f) => f !== page.mainFrame());
  const signInInFrame = frame
    ? await frame
        .getByRole("button", { name: "Sign in", exact: true })
        .count()
        .catch(() => 0)
    : 0;
  expect(signInInFrame).toBe(0);
  expect(refusal).not.toBeNull();
});

test("a page on another origin that opens the console gets no handle on its window", async ({
  page,
  context,
}) => {
  // The opener could otherwise, later, send the console's tab to a look-alike sign-in form.
  attackerPage = `<!doctype html><button id="open" onclick="window.opened = window.open('${consoleServer.url}/login')">Open</button>`;
  await page.goto(`http://127.0.0.1:${attackerPort}/`);
  const popup = context.waitForEvent("page");
  await page.click("#open");
  const consolePage = await popup;
  await expect(consolePage.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  // Cross-Origin-Opener-Policy: same-origin put the console in its own browsing context group,
  // so the opener's handle reads as a closed window.
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { opened: Window | null }).opened?.closed))
    .toBe(true);
  await consolePage.close();
});

test("a page on another origin cannot make the signed-in browser send, sign out or sign in (CSRF)", async ({
  page,
  context,
}) => {
  await signIn(page);
  const channel = demo.channels[0]!;
  const target = `${consoleServer.url}/api/messages/${channel.kind}`;
  const payload = JSON.stringify({ from: channel.id, to: "5511999990000", content: { text: "csrf" } });
  const deliveries = async () => {
    const response = await fetch(
      `${sandbox.url}/v1/organization/webhook/${demo.webhooks[0]!.id}/webhook-log?limit=1`,
      { headers: { "x-api-key": demo.apiKey } },
    );
    return ((await response.json()) as { pagination: { total: number } }).pagination.total;
  };
  const sessionCookie = async () =>
    (await context.cookies(consoleServer.url)).find((c) => c.name === "__Host-hub_console")?.value;
  const before = { deliveries: await deliveries(), cookie: await sessionCookie() };

  const sent: string[] = [];
  const answers: { url: string; status: number }[] = [];
  page.on("request", (r) => {
    if (r.url().startsWith(`${consoleServer.url}/api/`)) sent.push(`${r.method()} ${r.url()}`);
  });
  page.on("response", (r) => {
    if (r.url().startsWith(`${consoleServer.url}/api/`)) answers.push({ url: r.url(), status: r.status() });
  });

  for (const attackerOrigin of [`http://127.0.0.1:${attackerPort}`, `http://localhost:${attackerPort}`]) {
    sent.length = 0;
    answers.length = 0;
    // A text/plain form whose body parses as JSON, a sign-out form, and no-cors fetches with credentials
    // (their answers are opaque to the page, and CORP hides them from it: the effects are checked below).
    const name = payload.slice(0, -1) + ',"x":"';
    attackerPage = `<!doctype html>
      <form id="send" method="POST" action="${target}" enctype="text/plain" target="sink"><input name='${name}' value='"}'></form>
      <form id="out" method="POST" action="${consoleServer.url}/api/session?_method=DELETE" enctype="text/plain"
        target="sink2"><input name="a" value="b"></form>
      <iframe name="sink"></iframe><iframe name="sink2"></iframe>
      <script>
        document.getElementById("send").submit();
        document.getElementById("out").submit();
        fetch(${JSON.stringify(target)}, { method: "POST", mode: "no-cors", credentials: "include",
          headers: { "content-type": "text/plain" }, body: ${JSON.stringify(payload)} });
        fetch(${JSON.stringify(`${consoleServer.url}/api/session/demo`)}, { method: "POST", mode: "no-cors", credentials: "include" });
      </script>`;
    await page.goto(`${attackerOrigin}/`);
    await expect.poll(() => sent.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    await expect.poll(() => answers.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    for (const answer of answers) expect(answer.status, `${answer.url} from ${attackerOrigin}`).toBe(403);
  }
  await page.waitForTimeout(1500); // a message that got through would be delivered by now
  expect(await deliveries()).toBe(before.deliveries);
  expect(await sessionCookie()).toBe(before.cookie); // not signed out, not signed in anew
  expect((await (await page.request.get(`${consoleServer.url}/api/session`)).json()).signedIn).toBe(true);
});
