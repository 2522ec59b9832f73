/**
 * Why the console needs a host name of its own (SECURITY.md, "One host name for the console"):
 * browsers do not isolate cookies by port, so any other service on the console's host receives
 * its session cookie, while another name does not; a name of its own under `.localhost` works
 * for local development with the production cookie.
 */
import fs from "node:fs";
import path from "node:path";
import { createServer, type Server } from "node:http";
import { expect, test, type Page } from "@playwright/test";
import { sendJson, startFakeUpstream, type FakeUpstream } from "../../support/fake-upstream";
import { ROOT } from "../../support/server-process";
import { listenOnFreePort, startConsole, type ServerProcess } from "./support";

const KEY = "host-name-e2e-key-0123456789abcdef";

test.describe.configure({ mode: "serial", timeout: 120_000 });

let upstream: FakeUpstream;
let consoleServer: ServerProcess;
let otherService: Server;
let otherServicePort = 0;
const cookiesSeen: string[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // A hub that knows the key (no such webhook, but no 401).
  upstream = await startFakeUpstream((_req, res) => sendJson(res, 404, {}));
  consoleServer = await startConsole({ HUB_BASE_URL: upstream.url });
  otherService = createServer((req, res) => {
    if (req.url === "/") cookiesSeen.push(req.headers.cookie ?? "");
    res.writeHead(200, { "content-type": "text/plain" }).end("another service");
  });
  otherServicePort = await listenOnFreePort(otherService);
});

test.afterAll(async () => {
  await new Promise((resolve) => otherService?.close(resolve));
  await consoleServer?.stop();
  await upstream?.close();
});

async function signIn(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/login`);
  await page.getByRole("textbox", { name: "API key" }).fill(KEY);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => url.pathname !== "/login");
}

test("another service on any port of the console's host gets its session cookie; another host name does not", async ({
  page,
}) => {
  await signIn(page, consoleServer.url);
  cookiesSeen.length = 0;
  await page.goto(`http://127.0.0.1:${otherServicePort}/`);
  await page.goto(`http://localhost:${otherServicePort}/`);
  expect(cookiesSeen).toHaveLength(2);
  expect(cookiesSeen[0]).toContain("__Host-hub_console=Fe26.2*");
  expect(cookiesSeen[1]).not.toContain("hub_console");
});

test("a name of its own under .localhost keeps the production (__Host-, Secure) cookie over plain http", async ({
  page,
  context,
}) => {
  const origin = `http://console.localhost:${new URL(consoleServer.url).port}`;
  await signIn(page, origin);
  expect((await context.cookies(origin)).map((c) => c.name)).toContain("__Host-hub_console");
  await page.goto(`${origin}/webhooks`);
  await expect(page).toHaveURL(`${origin}/webhooks`);
  // ...and it is not sent to the loopback address's other services.
  cookiesSeen.length = 0;
  await page.goto(`http://127.0.0.1:${otherServicePort}/`);
  expect(cookiesSeen[0]).not.toContain("hub_console");
});

test("SECURITY.md says so: a host name of its own, nothing else on any of its ports, and what follows locally", () => {
  const text = fs.readFileSync(path.join(ROOT, "SECURITY.md"), "utf8");
  const section = text.split(/^## /m).find((part) => part.startsWith("One host name for the console"));
  expect(section, "a section on the console's host name").toBeDefined();
  expect(section).toMatch(/do not isolate cookies by port/);
  expect(section).toMatch(/no other service on\s+any port/);
  expect(section).toMatch(/Local development/);
  expect(section).toMatch(/console\.localhost/);
});
