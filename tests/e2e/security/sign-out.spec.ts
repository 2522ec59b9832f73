/**
 * Sign out ends the session for good even when its own call fails: the button then goes through
 * `GET /api/session/end`, which revokes the session as `DELETE /api/session` does, so a copy of
 * the cookie taken before stops working.
 */
import { expect, test } from "@playwright/test";
import { sandboxAdmin, startConsole, startSandboxProcess, type ServerProcess } from "./support";

const CONSOLE_PORT = 3170;
const SANDBOX_PORT = 4170;

test.describe.configure({ mode: "serial", timeout: 120_000 });

let sandbox: ServerProcess;
let consoleServer: ServerProcess;
let demo: { apiKey: string; webhooks: { id: string }[] };

test.beforeAll(async () => {
  test.setTimeout(120_000);
  sandbox = await startSandboxProcess(SANDBOX_PORT);
  demo = await sandboxAdmin(sandbox, "GET", "/_sandbox/demo");
  consoleServer = await startConsole(CONSOLE_PORT, { HUB_BASE_URL: sandbox.url, HUB_SANDBOX: "1" });
});

test.afterAll(async () => {
  await consoleServer?.stop();
  await sandbox?.stop();
});

async function statusWith(cookie: string, path: string): Promise<number> {
  const response = await fetch(`${consoleServer.url}${path}`, { headers: { cookie } });
  await response.arrayBuffer();
  return response.status;
}

test("when Sign out's own call fails, its fallback still revokes the session: a copied cookie stops working", async ({
  page,
  context,
}) => {
  const webhook = `/api/webhooks/${demo.webhooks[0]!.id}`;
  await page.goto(`${consoleServer.url}/login`);
  await page.getByRole("textbox", { name: "API key" }).fill(demo.apiKey);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/webhooks$/);
  const signOut = page.getByRole("button", { name: "Sign out" });
  await expect(signOut).toBeEnabled();
  const session = (await context.cookies(consoleServer.url)).find((c) => c.name === "__Host-hub_console")!;
  const copy = `${session.name}=${session.value}`;
  expect(await statusWith(copy, webhook)).toBe(200);

  let refused = 0;
  await page.route("**/api/session", (route) => {
    if (route.request().method() !== "DELETE") return route.continue();
    refused++;
    return route.abort("connectionreset");
  });
  await signOut.click();
  await expect(page).toHaveURL(/\/login/, { timeout: 30_000 });
  expect(refused).toBe(1);
  await expect
    .poll(async () => (await context.cookies(consoleServer.url)).find((c) => c.name === session.name))
    .toBeUndefined();

  expect(await statusWith(copy, webhook)).toBe(401);
  const answer = await fetch(`${consoleServer.url}/api/session`, { headers: { cookie: copy } });
  expect(await answer.json()).toEqual({ signedIn: false, keyHint: null });
});
