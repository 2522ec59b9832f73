/**
 * Secrets: the console, built and started on its own port with its own sandbox, is
 * signed in with a real API key (a fresh application's), used through every page and every
 * route, and the key is then searched for in everything that left the server: HTML, RSC
 * payloads, JSON, static assets (served and on disk), response headers, URLs, browser storage,
 * and every line the console and the sandbox logged. The hint (last 4 characters) is allowed.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { LoginPage } from "../fixtures/pages";
import { DIST_DIR, sandboxAdmin, startConsole, startSandboxProcess, type ServerProcess } from "./support";

const ADMIN_TOKEN = "security-e2e-admin-token-5d1c";

test.describe.configure({ mode: "serial", timeout: 120_000 });

interface Seen {
  where: string;
  text: string;
}

let sandbox: ServerProcess;
let consoleServer: ServerProcess;
let app: { id: string; apiKey: string };
let channel: { id: string; kind: string };
let hooks: { ok: string; failing: string };

/** Forms of the key to look for: whole, encoded, and its secret part without the allowed hint. */
function needles(key: string): string[] {
  const forms = [
    key,
    encodeURIComponent(key),
    Buffer.from(key).toString("base64"),
    Buffer.from(key).toString("base64url"),
  ];
  const secretPart = key.slice(0, -4);
  if (secretPart.length >= 12) forms.push(secretPart.slice(-16));
  return [...new Set(forms)];
}

function leaks(seen: Seen[], key: string): string[] {
  const found: string[] = [];
  for (const { where, text } of seen) {
    for (const needle of needles(key)) {
      const at = text.indexOf(needle);
      if (at >= 0) found.push(`${where}: …${text.slice(Math.max(0, at - 60), at + needle.length + 20)}…`);
    }
  }
  return found;
}

/** Records every request and response the browser sees (URL, headers, body) into `seen`. */
function record(context: BrowserContext, seen: Seen[], allowRequestBody: (url: string) => boolean): void {
  context.on("request", (request) => {
    seen.push({ where: `request URL ${request.method()}`, text: request.url() });
    seen.push({ where: `request headers ${request.url()}`, text: JSON.stringify(request.headers()) });
    const body = request.postData();
    if (body && !allowRequestBody(request.url()))
      seen.push({ where: `request body ${request.url()}`, text: body });
  });
  context.on("response", async (response) => {
    const where = `${response.status()} ${response.url()}`;
    seen.push({
      where: `response headers ${where}`,
      text: JSON.stringify(await response.allHeaders().catch(() => ({}))),
    });
    if (response.status() >= 300 && response.status() < 400) return;
    const body = await response.body().catch(() => null);
    if (body) seen.push({ where: `response body ${where}`, text: body.toString("utf8") });
  });
}

async function browserStorage(page: Page): Promise<Seen[]> {
  const storage = await page.evaluate(() => ({
    cookie: document.cookie,
    local: JSON.stringify({ ...localStorage }),
    session: JSON.stringify({ ...sessionStorage }),
    html: document.documentElement.outerHTML,
  }));
  return [
    { where: `document.cookie on ${page.url()}`, text: storage.cookie },
    { where: `localStorage on ${page.url()}`, text: storage.local },
    { where: `sessionStorage on ${page.url()}`, text: storage.session },
    { where: `live DOM of ${page.url()}`, text: storage.html },
  ];
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

test.beforeAll(async () => {
  sandbox = await startSandboxProcess({ SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN });
  app = await sandboxAdmin(
    sandbox,
    "POST",
    "/_sandbox/applications",
    { name: "secrets canary" },
    ADMIN_TOKEN,
  );
  channel = await sandboxAdmin(
    sandbox,
    "POST",
    `/_sandbox/applications/${app.id}/channels`,
    { kind: "sms" },
    ADMIN_TOKEN,
  );
  const webhook = (receiver: string) =>
    sandboxAdmin<{ id: string }>(
      sandbox,
      "POST",
      `/_sandbox/applications/${app.id}/webhooks`,
      { endpoint: `${sandbox.url}/_sandbox/receivers/${receiver}`, eventType: "Message", active: true },
      ADMIN_TOKEN,
    );
  hooks = { ok: (await webhook("ok")).id, failing: (await webhook("error")).id };
  for (let i = 0; i < 3; i++) {
    const sent = await fetch(`${sandbox.url}/v1/communication/sms/message`, {
      method: "POST",
      headers: { "x-api-key": app.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ from: channel.id, to: "5511999990000", content: { text: `canary ${i}` } }),
    });
    expect(sent.ok).toBe(true);
  }
  await expect
    .poll(async () => {
      const page = await fetch(`${sandbox.url}/v1/organization/webhook/${hooks.failing}/webhook-log`, {
        headers: { "x-api-key": app.apiKey },
      });
      return ((await page.json()) as { data: unknown[] }).data.length;
    })
    .toBeGreaterThanOrEqual(3);
  consoleServer = await startConsole({
    HUB_BASE_URL: sandbox.url,
    HUB_SANDBOX: "1",
    SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN,
    HUB_TIMEOUT_MS: "3000",
  });
});

test.afterAll(async () => {
  await consoleServer?.stop();
  await sandbox?.stop();
});

test("a real API key appears nowhere outside the server after using every page and route", async ({
  browser,
}) => {
  const base = consoleServer.url;
  const context = await browser.newContext({ baseURL: base });
  const seen: Seen[] = [];
  // The only place the key may travel is the sign-in request the person typed it into.
  record(context, seen, (url) => url === `${base}/api/session`);
  const page = await context.newPage();
  const signInBodies: string[] = [];
  page.on("request", (request) => {
    if (request.url() === `${base}/api/session` && request.method() === "POST")
      signInBodies.push(request.postData() ?? "");
  });

  // Pages, as a person uses them.
  await page.goto("/login");
  await page.getByRole("textbox", { name: "API key" }).fill(app.apiKey);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => url.pathname !== "/login");
  seen.push(...(await browserStorage(page)));

  await page.goto("/webhooks");
  await page.getByRole("textbox", { name: "Webhook ID" }).fill(hooks.failing);
  await page.getByRole("button", { name: "Open", exact: true }).click();
  await page.waitForURL(`**/webhooks/${hooks.failing}**`);
  const table = page.getByRole("table");
  const details = table.getByRole("row").getByRole("link", { name: /^Details/ });
  await expect(details.first()).toBeVisible();
  await details.first().click();
  await expect(page.getByRole("dialog")).toBeVisible();
  seen.push(...(await browserStorage(page)));
  await page.keyboard.press("Escape");
  await page.getByRole("combobox", { name: "Status" }).selectOption("Failed");
  await page.waitForURL(/status=Failed/);

  // The send form loads once a person comes near it.
  await page.getByRole("region", { name: "Send a test message" }).scrollIntoViewIfNeeded();
  await page.getByLabel("Channel kind", { exact: true }).fill(channel.kind);
  await page.getByLabel("From (channel ID)", { exact: true }).fill(channel.id);
  await page.getByLabel("To", { exact: true }).fill("5511999990000");
  await page.getByLabel("Text", { exact: true }).fill("sent from the secrets spec");
  await page.getByRole("button", { name: "Send test message" }).click();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: /sent|accepted|queued/i })
      .first(),
  ).toBeVisible();

  for (const target of [
    `/webhooks/${hooks.ok}`,
    `/webhooks/${hooks.ok}?status=Success&page=1&limit=10`,
    `/webhooks/${hooks.failing}?page=2&limit=10`,
    "/webhooks/00000000-0000-4000-8000-000000000000",
    "/webhooks/not-a-uuid",
    "/",
    "/no-such-page",
    "/login",
  ]) {
    await page.goto(target);
    await page.waitForLoadState("networkidle");
    seen.push(...(await browserStorage(page)));
  }

  // Every route of the console's API, with the session, good and bad input.
  const api = context.request;
  const origin = { origin: base };
  const calls: [string, string, unknown?][] = [
    ["GET", "/api/session"],
    ["GET", `/api/webhooks/${hooks.failing}`],
    ["GET", `/api/webhooks/${hooks.failing}/logs?limit=50&status=Failed`],
    ["GET", `/api/webhooks/${hooks.failing}/logs?limit=500`],
    ["GET", "/api/webhooks/00000000-0000-4000-8000-000000000000"],
    ["GET", "/api/webhooks/..%2F..%2Fv1/logs"],
    ["POST", `/api/webhooks/${hooks.failing}/logs/${hooks.failing}/retry`],
    [
      "POST",
      `/api/messages/${channel.kind}`,
      { from: channel.id, to: "5511999990000", content: { text: "api" } },
    ],
    [
      "POST",
      "/api/messages/sms",
      { from: "00000000-0000-4000-8000-000000000000", to: "1", content: { text: "x" } },
    ],
    ["POST", "/api/messages/NOT_A_KIND", {}],
  ];
  for (const [method, url, data] of calls) {
    const response = await api.fetch(url, { method, data, headers: origin, failOnStatusCode: false });
    seen.push({
      where: `API ${method} ${url} → ${response.status()} headers`,
      text: JSON.stringify(response.headers()),
    });
    seen.push({ where: `API ${method} ${url} → ${response.status()} body`, text: await response.text() });
  }

  // Sign out through the UI, then what a signed-out browser sees.
  await page.goto(`/webhooks/${hooks.ok}`);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/login/);
  await page.goto("/webhooks");
  await page.goto("/api/session/end?reason=expired");
  seen.push(...(await browserStorage(page)));

  // The demo sign-in exists in sandbox mode; it must not hand its key to the browser either.
  const demo = await api.fetch("/api/session/demo", {
    method: "POST",
    headers: origin,
    failOnStatusCode: false,
  });
  seen.push({ where: "API POST /api/session/demo body", text: await demo.text() });
  await page.waitForTimeout(500); // late responses
  await context.close();

  // Static assets: every file the build serves under /_next/static, as stored on disk.
  for (const file of await filesUnder(path.join(DIST_DIR, "static"))) {
    seen.push({ where: `static asset ${path.relative(DIST_DIR, file)}`, text: await readFile(file, "utf8") });
  }
  // Server logs: every line either process wrote.
  seen.push({ where: "console log", text: consoleServer.output() });
  seen.push({ where: "sandbox log", text: sandbox.output() });

  // Controls: the capture works (the key is in the one request it must be in), and it covered things.
  expect(
    signInBodies.some((body) => body.includes(app.apiKey)),
    "the sign-in request carried the key (capture works)",
  ).toBe(true);
  expect(
    seen.filter((s) => s.where.startsWith("response body") && s.where.includes("/_next/static/")).length,
  ).toBeGreaterThan(0);
  expect(seen.some((s) => s.where.startsWith("response body") && s.where.includes("_rsc="))).toBe(true);
  expect(seen.filter((s) => s.where.startsWith("static asset")).length).toBeGreaterThan(5);

  expect(leaks(seen, app.apiKey)).toEqual([]);
});

test("the sandbox demo key, used through the demo sign-in, never reaches the browser or the console's log", async ({
  browser,
}) => {
  const demo = await sandboxAdmin<{ apiKey: string; webhooks: { id: string }[] }>(
    sandbox,
    "GET",
    "/_sandbox/demo",
    undefined,
    ADMIN_TOKEN,
  );
  const context = await browser.newContext({ baseURL: consoleServer.url });
  const seen: Seen[] = [];
  record(context, seen, () => false);
  const page = await context.newPage();
  const login = new LoginPage(page);
  await login.goto();
  await login.signInWithDemoKey();
  for (const webhook of demo.webhooks.slice(0, 3)) {
    await page.goto(`/webhooks/${webhook.id}`);
    await page.waitForLoadState("networkidle");
    seen.push(...(await browserStorage(page)));
  }
  await page.goto("/webhooks");
  await page.waitForLoadState("networkidle");
  seen.push(...(await browserStorage(page)));
  await context.close();
  // The sandbox itself prints its demo key in its banner by design; the console must not.
  seen.push({ where: "console log", text: consoleServer.output() });
  expect(leaks(seen, demo.apiKey)).toEqual([]);
});
