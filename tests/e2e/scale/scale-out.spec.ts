import { expect, test } from "@playwright/test";
import { E2E_SESSION_SECRET } from "../../../playwright.config";
import { signedInContext } from "../../support/signed-in-context";
import { demo, signIn } from "../../support/hub";
import { freePort, startConsoleProcess, type Server } from "../../support/server-process";
import { SANDBOX_URL } from "../fixtures/sandbox";

/**
 * Scale out: the console keeps no state of its own, so two instances that share SESSION_SECRET
 * (and HUB_BASE_URL) serve the same person, whichever one a load balancer picks. Instance A is
 * the one the Playwright config starts; this spec starts B from the same build with the same
 * secret, and C with another secret, which must not open A's cookies.
 */

test.describe.configure({ mode: "serial", timeout: 120_000 });

let instanceB: Server;
let instanceC: Server;
let demoKey: string;
let webhookId: string;
/** The session cookie (`name=value`) instance A set at sign-in. */
let cookieA: string;

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(120_000);
  const found = await demo(SANDBOX_URL);
  demoKey = found.apiKey;
  webhookId = found.webhookIds[0] ?? "";
  expect(webhookId, "the demo seed has webhooks").not.toBe("");
  [instanceB, instanceC] = await Promise.all([
    startConsoleProcess({
      name: "console B",
      port: await freePort(),
      hubBaseUrl: SANDBOX_URL,
      sessionSecret: E2E_SESSION_SECRET,
    }),
    startConsoleProcess({
      name: "console C (another secret)",
      port: await freePort(),
      hubBaseUrl: SANDBOX_URL,
      sessionSecret: "another-secret-entirely-0123456789abcdef",
    }),
  ]);
  cookieA = await signIn(baseURL!, demoKey);
});

test.afterAll(async () => {
  await Promise.all([instanceB?.stop(), instanceC?.stop()]);
});

async function session(
  instanceUrl: string,
  cookie: string,
): Promise<{ signedIn: boolean; keyHint: string | null }> {
  const response = await fetch(`${instanceUrl}/api/session`, { headers: { cookie } });
  expect(response.status).toBe(200);
  return (await response.json()) as { signedIn: boolean; keyHint: string | null };
}

async function logsStatus(instanceUrl: string, cookie: string): Promise<number> {
  const response = await fetch(`${instanceUrl}/api/webhooks/${webhookId}/logs?limit=5`, {
    headers: { cookie },
  });
  if (response.status === 200) {
    const body = (await response.json()) as { data: unknown[]; pagination: { total: number } };
    expect(body.data.length).toBeGreaterThan(0);
  } else {
    await response.arrayBuffer();
  }
  return response.status;
}

test("a session started on instance A is accepted by instance B", async () => {
  expect(await session(instanceB.url, cookieA)).toEqual({ signedIn: true, keyHint: demoKey.slice(-4) });
  expect(await logsStatus(instanceB.url, cookieA)).toBe(200);
});

test("a session started on instance B is accepted by instance A", async ({ baseURL }) => {
  const cookie = await signIn(instanceB.url, demoKey);
  expect(await session(baseURL!, cookie)).toEqual({ signedIn: true, keyHint: demoKey.slice(-4) });
  expect(await logsStatus(baseURL!, cookie)).toBe(200);
});

test("an instance with a different SESSION_SECRET rejects the cookie and clears it", async () => {
  const response = await fetch(`${instanceC.url}/api/session`, { headers: { cookie: cookieA } });
  expect(await response.json()).toEqual({ signedIn: false, keyHint: null });
  const cleared = response.headers.getSetCookie().find((c) => c.startsWith(`${cookieA.split("=")[0]}=;`));
  expect(cleared, "the cookie that does not open is cleared").toMatch(/Max-Age=0/);
  expect(await logsStatus(instanceC.url, cookieA)).toBe(401);
});

test("the browser's session works on both instances alike", async ({ browser, baseURL }) => {
  for (const instanceUrl of [baseURL!, instanceB.url]) {
    const context = await signedInContext(browser, instanceUrl, cookieA);
    const page = await context.newPage();
    await page.goto(`/webhooks/${webhookId}`);
    await expect(page.getByRole("table").getByRole("row").nth(1)).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    await context.close();
  }
});
