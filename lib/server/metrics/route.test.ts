/**
 * GET /metrics over a real store on each database: the route handler scraped with the token, its
 * text checked by `promtool check metrics`, and its values against what the store holds (a
 * failing webhook shows failing=1 and its streak, a recovered one 0), with no key anywhere.
 */
import { afterEach, describe, expect, it } from "vitest";
import { metricsRoute } from "@/lib/server/metrics/route";
import type { StoreContext } from "@/lib/server/store/context";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { parseSamples, samplesOf, valueOf } from "@/tests/support/metrics-text";
import {
  BILLING,
  BILLING_KEY,
  DEPLOYS,
  fillMetricsStore,
  INVOICES,
  ORDERS,
  QUIET,
  SHOP,
  SHOP_KEY,
} from "@/tests/support/metrics-store";
import { promtool } from "@/tests/support/promtool";
import { watchDatabases, WATCH_DATABASES } from "@/tests/support/watch-databases";

const databases = watchDatabases();
const TOKEN = "scrape-token-for-tests-0123456789";

afterEach(() => restoreEnv());

async function scrape(ctx: StoreContext, budgets = [{ appId: SHOP, calls: 12 }]) {
  stubEnv({ METRICS_TOKEN: TOKEN });
  const GET = metricsRoute({ store: async () => ctx, budgets: async () => budgets });
  return GET(new Request("http://console.test/metrics", { headers: { authorization: `Bearer ${TOKEN}` } }));
}

describe.each(WATCH_DATABASES)("GET /metrics on %s", (kind) => {
  it("passes promtool check metrics and says what the store holds", async () => {
    const ctx = await databases.fresh(kind);
    const now = Date.now();
    await fillMetricsStore(ctx, now);
    const response = await scrape(ctx);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await response.text();

    const check = promtool(["check", "metrics"], text);
    expect(check.output).toBe("");
    expect(check.status).toBe(0);
    for (const secret of [SHOP_KEY, BILLING_KEY, TOKEN]) expect(text).not.toContain(secret);

    const samples = parseSamples(text);
    const orders = { application: "Shop", webhook_id: ORDERS, watch: "Orders" };
    const invoices = { application: "Shop", webhook_id: INVOICES, watch: "Invoices" };
    const quiet = { application: BILLING, webhook_id: QUIET, watch: "Quiet" };
    const of = (name: string, labels: Record<string, string> = {}) =>
      valueOf(samples, `hubconsole_${name}`, labels);

    // Failing now, with its streak; recovered; never polled.
    expect(of("webhook_failing", orders)).toBe(1);
    expect(of("webhook_streak_length", orders)).toBe(2);
    expect(of("webhook_streak_start_timestamp_seconds", orders)).toBe((now - 120_000) / 1000);
    expect(of("webhook_failing", invoices)).toBe(0);
    expect(of("webhook_streak_length", invoices)).toBe(0);
    expect(of("webhook_streak_start_timestamp_seconds", invoices)).toBeUndefined();
    expect(of("webhook_failing", quiet)).toBe(0);
    expect(of("webhook_active", quiet)).toBeUndefined();

    expect(of("webhook_last_success_timestamp_seconds", orders)).toBe((now - 180_000) / 1000);
    expect(of("webhook_last_failure_timestamp_seconds", orders)).toBe((now - 60_000) / 1000);
    expect(of("webhook_number_of_errors", orders)).toBe(7);
    expect(of("webhook_active", orders)).toBe(1);
    expect(of("webhook_active", invoices)).toBe(0);

    // The hour and the day: the failure of 26 hours ago is in neither.
    expect(of("webhook_success_ratio", { ...orders, window: "1h" })).toBeCloseTo(1 / 3);
    expect(of("webhook_success_ratio", { ...invoices, window: "24h" })).toBe(0.5);
    expect(of("webhook_success_ratio", { ...quiet, window: "24h" })).toBeUndefined();
    expect(of("webhook_failures", { ...orders, window: "1h", code: "503" })).toBe(1);
    expect(of("webhook_failures", { ...orders, window: "24h", code: "500" })).toBe(1);
    expect(of("webhook_failures", { ...invoices, window: "24h", code: "500" })).toBe(1);

    // In a maintenance window: failing, but its failures inside the window are counted apart.
    const deploys = { application: "Shop", webhook_id: DEPLOYS, watch: "Deploys" };
    expect(of("webhook_in_maintenance", deploys)).toBe(1);
    expect(of("webhook_in_maintenance", orders)).toBe(0);
    expect(of("webhook_in_maintenance", quiet)).toBe(0);
    expect(of("webhook_failing", deploys)).toBe(1);
    expect(of("webhook_failures", { ...deploys, window: "1h", code: "503" })).toBe(0);
    expect(of("webhook_failures_in_maintenance", { ...deploys, window: "1h", code: "503" })).toBe(2);
    expect(of("webhook_failures", { ...deploys, window: "24h", code: "502" })).toBe(1);
    expect(of("webhook_failures_in_maintenance", { ...deploys, window: "24h", code: "502" })).toBeUndefined();
    expect(samplesOf(samples, "hubconsole_webhook_failures_in_maintenance")).toHaveLength(2);

    // The watcher: Invoices' poll is 90 s overdue; Quiet's key is rejected, so it is not counted late.
    expect(of("watcher_watched_webhooks")).toBe(4);
    expect(of("watcher_lag_seconds")).toBeGreaterThanOrEqual(90);
    expect(of("watcher_lag_seconds")).toBeLessThan(120);
    expect(of("watcher_key_rejected", { app_id: BILLING })).toBe(1);
    expect(of("watcher_key_rejected", { app_id: SHOP, application: "Shop" })).toBe(0);
    expect(of("watcher_hub_calls", { window: "1h", outcome: "ok" })).toBe(3);
    expect(of("watcher_hub_calls", { window: "24h", outcome: "upstream_timeout" })).toBe(1);
    expect(of("watcher_key_budget_calls", { application: "Shop", app_id: SHOP })).toBe(12);

    // Alerts: firing incidents (not the resolved one), the outbox, deliveries by kind and state.
    expect(of("alert_incidents_firing", { app_id: SHOP, rule: "streak" })).toBe(1);
    expect(of("alert_incidents_firing", { app_id: BILLING, rule: "watchUnreadable" })).toBe(1);
    expect(samplesOf(samples, "hubconsole_alert_incidents_firing")).toHaveLength(2);
    expect(of("alert_outbox_pending")).toBe(2);
    expect(of("alert_outbox_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(300);
    expect(of("alert_outbox_oldest_pending_age_seconds")).toBeLessThan(330);
    expect(of("alert_deliveries", { kind: "webhook", state: "delivered" })).toBe(2);
    expect(of("alert_deliveries", { kind: "email", state: "failed" })).toBe(1);
  });

  it("answers an empty store with the watcher's and the alerts' figures at 0, and no per-webhook series", async () => {
    const ctx = await databases.fresh(kind);
    const response = await scrape(ctx, []);
    const text = await response.text();
    expect(promtool(["check", "metrics"], text).status).toBe(0);
    const samples = parseSamples(text);
    expect(samples.filter((s) => s.name.startsWith("hubconsole_webhook_"))).toEqual([]);
    expect(valueOf(samples, "hubconsole_watcher_watched_webhooks")).toBe(0);
    expect(valueOf(samples, "hubconsole_watcher_lag_seconds")).toBe(0);
    expect(valueOf(samples, "hubconsole_alert_outbox_pending")).toBe(0);
    expect(valueOf(samples, "hubconsole_alert_outbox_oldest_pending_age_seconds")).toBe(0);
  });

  it("answers 503 store_unavailable, naming no secret, when the database does not answer", async () => {
    const ctx = await databases.fresh(kind);
    await ctx.db.destroy();
    const response = await scrape(ctx);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("store_unavailable");
  });
});
