/**
 * Two consoles (`next start` of the build, each running its watcher) sharing one PostgreSQL on the
 * run's sandbox: both show the same overview; one is killed (SIGKILL, mid-whatever it was doing)
 * and the other keeps polling, so a delivery made after the kill appears on its overview within
 * two lease periods. Each console on a free port.
 */
import type { Page } from "@playwright/test";
import { postgresServer, type PostgresServer } from "../support/postgres-server";
import { expect, test } from "./fixtures/test";
import { SANDBOX_URL } from "./fixtures/sandbox";
import { OverviewPage } from "./fixtures/watch-pages";
import { startConsole, type ServerProcess } from "./security/support";

const LEASE_SECONDS = 8;
const INTERVAL_SECONDS = 2;

test.describe.configure({ mode: "serial", timeout: 180_000 });

let postgres: PostgresServer;
const consoles: ServerProcess[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  postgres = await postgresServer();
  const databaseUrl = await postgres.createDatabase("watch_instances");
  for (let i = 0; i < 2; i++) {
    consoles.push(
      await startConsole({
        HUB_BASE_URL: SANDBOX_URL,
        DATABASE_URL: databaseUrl,
        WATCH_IN_CONSOLE: "1",
        WATCH_LEASE_SECONDS: String(LEASE_SECONDS),
        WATCH_INTERVAL_SECONDS: String(INTERVAL_SECONDS),
      }),
    );
  }
});

test.afterAll(async () => {
  await Promise.all(consoles.map((server) => server.stop()));
  await postgres?.remove();
});

/** The overview of one console, read once its watcher has read every row. */
async function overviewOf(page: Page, server: ServerProcess): Promise<OverviewPage> {
  await page.goto(`${server.url}/overview`);
  const overview = new OverviewPage(page);
  await overview.allRead();
  return overview;
}

test("both consoles show the same overview; one killed, the other keeps polling", async ({
  page,
  sandbox,
}) => {
  const { application, channel, webhook } = await sandbox.isolatedSetup("instances");
  const second = await sandbox.createWebhook(application.id, sandbox.receiver("error"));
  await sandbox.sendMessage(application.apiKey, channel, "before");
  const [a, b] = consoles as [ServerProcess, ServerProcess];

  // One sign-in: both consoles share SESSION_SECRET, and the cookie is the host's, whatever the port.
  await page.goto(`${a.url}/login`);
  await page.getByLabel("API key").fill(application.apiKey);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);
  for (const [id, name] of [
    [webhook.id, "Twin Co"],
    [second.id, "Broken Co"],
  ]) {
    const watched = await page.request.post(`${a.url}/api/watches`, { data: { webhookId: id, name } });
    expect(watched.status(), await watched.text()).toBe(201);
  }
  /** Waits (reloading) until the overview counts `count` deliveries of Twin Co, in its row's sparkline. */
  const twinDeliveries = (overview: OverviewPage, count: number, timeout: number) =>
    expect(async () => {
      await page.reload();
      const sparkline = overview
        .row("Twin Co")
        .getByRole("img", { name: new RegExp(`: ${count} deliveries in 24 h, 0 failed`) });
      await expect(sparkline).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout });

  const onA = await overviewOf(page, a);
  await twinDeliveries(onA, 1, 30_000);
  const seenOnA = { webhooks: await onA.column("Webhook"), state: await onA.column("State") };
  expect(seenOnA.webhooks).toHaveLength(2);
  const onB = await overviewOf(page, b);
  await twinDeliveries(onB, 1, 30_000);
  expect({ webhooks: await onB.column("Webhook"), state: await onB.column("State") }).toEqual(seenOnA);

  a.kill("SIGKILL");
  await a.exited;
  await sandbox.sendMessage(application.apiKey, channel, "after the kill");
  // The delivery reaches the hub at once; B's watcher must poll it even if A held its lease.
  await twinDeliveries(onB, 2, 2 * LEASE_SECONDS * 1000);
});
