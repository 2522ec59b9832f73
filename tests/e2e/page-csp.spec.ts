/**
 * Every HTML answer of the console carries the page CSP with a nonce that its scripts carry,
 * however the request is marked (a link prefetch, Next's router prefetch, a plain navigation),
 * names only files the console serves, and the render never takes the page's address from a
 * header the browser sent.
 */
import { expect, test } from "./fixtures/test";

const UNKNOWN_WEBHOOK = "00000000-0000-4000-8000-00000000beef";

/** The demo key's session cookie on the run's console, for plain HTTP requests. */
async function signedIn(baseURL: string, apiKey: string): Promise<string> {
  const response = await fetch(`${baseURL}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseURL },
    body: JSON.stringify({ apiKey }),
  });
  expect(response.status).toBe(200);
  return response.headers.getSetCookie()[0]!.split(";")[0]!;
}

const MARKS: Record<string, Record<string, string>> = {
  "a navigation": {},
  "Purpose: prefetch": { purpose: "prefetch" },
  "Sec-Purpose: prefetch": { "sec-purpose": "prefetch" },
  "Next-Router-Prefetch: 1": { "next-router-prefetch": "1" },
  "both prefetch marks": { purpose: "prefetch", "next-router-prefetch": "1" },
};

test("every HTML answer carries the CSP, its nonce on every script, prefetch or not", async ({
  baseURL,
  sandbox,
}) => {
  const demo = await sandbox.demo();
  const cookie = await signedIn(baseURL!, demo.apiKey);
  const paths = [
    "/login",
    "/webhooks",
    `/webhooks/${demo.webhooks[0]!.id}`,
    `/webhooks/${UNKNOWN_WEBHOOK}`,
    "/no-such-page",
  ];
  let checked = 0;
  for (const path of paths) {
    for (const [mark, headers] of Object.entries(MARKS)) {
      const response = await fetch(`${baseURL}${path}`, {
        headers: { cookie, ...headers },
        redirect: "manual",
      });
      const body = await response.text();
      const where = `${path} (${mark}) → ${response.status}`;
      if (!response.headers.get("content-type")?.includes("text/html")) continue;
      checked++;
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp, where).toContain("frame-ancestors 'none'");
      const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce, where).toBeTruthy();
      const scripts = [...body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length, where).toBeGreaterThan(0);
      for (const script of scripts) expect(script, where).toContain(`nonce="${nonce}"`);
    }
  }
  expect(checked).toBeGreaterThanOrEqual(paths.length * Object.keys(MARKS).length - 2);
  // What a browser asks for on its own is the app's icon, not an HTML 404 (its console would log one).
  const icon = await fetch(`${baseURL}/favicon.ico`);
  expect(icon.status).toBe(200);
  expect(icon.headers.get("content-type")).toContain("image/svg+xml");
});

test("a page address sent by the browser (x-console-page) is never trusted, prefetch or not", async ({
  baseURL,
  sandbox,
}) => {
  const cookie = await signedIn(baseURL!, (await sandbox.demo()).apiKey);
  for (const [mark, headers] of Object.entries(MARKS)) {
    const response = await fetch(`${baseURL}/webhooks/${UNKNOWN_WEBHOOK}`, {
      headers: { cookie, ...headers, "x-console-page": `/webhooks/${UNKNOWN_WEBHOOK}?looked=none` },
    });
    const body = await response.text();
    expect(body, mark).toContain("Webhook not found");
    expect(body, mark).not.toContain("None of your other applications has a webhook with this ID either");
  }
});

test("every script, style and preload a page names is served (a 404 is an error in the browser's console)", async ({
  baseURL,
  sandbox,
}) => {
  test.setTimeout(120_000);
  const demo = await sandbox.demo();
  const cookie = await signedIn(baseURL!, demo.apiKey);
  const html = async (path: string) => {
    const response = await fetch(`${baseURL}${path}`, { headers: { cookie } });
    expect(response.status, path).toBe(200);
    return response.text();
  };
  const busy = await sandbox.demoWebhook("Busy");
  // Parts loaded later must be among them: the failure issues' lines (once the watcher has opened
  // some on the busy webhook) and a delivery's dialog (`?log=`).
  let busyPage = "";
  await expect(async () => {
    busyPage = await html(`/webhooks/${busy.id}`);
    expect(busyPage).toContain('aria-labelledby="issues-heading"');
  }).toPass({ timeout: 90_000 });
  const logId = /data-log-id="([^"]+)"/.exec(busyPage)?.[1];
  expect(logId).toBeTruthy();
  const pages = [busyPage, await html(`/webhooks/${busy.id}?log=${logId}`)];
  expect(pages[1]).toContain("Delivery details");
  for (const path of ["/overview", "/webhooks", ...demo.webhooks.map((webhook) => `/webhooks/${webhook.id}`)])
    pages.push(await html(path));

  const files = new Set(
    pages.flatMap((page) => [...page.matchAll(/(?:src|href)="(\/_next\/[^"]+)"/g)].map((m) => m[1]!)),
  );
  expect(files.size).toBeGreaterThan(5);
  const missing: string[] = [];
  for (const file of files) {
    const response = await fetch(`${baseURL}${file}`);
    await response.arrayBuffer();
    if (response.status !== 200) missing.push(`${response.status} ${file}`);
  }
  expect(missing).toEqual([]);
});
