import "server-only";
import { Gauge, Registry } from "prom-client";
import {
  attemptsByWebhook,
  deliveriesByState,
  failuresByCode,
  firingIncidents,
  hubCallsByOutcome,
  outboxBacklog,
  watchedWebhooks,
  WINDOWS,
} from "@/lib/server/metrics/read";
import type { StoreContext } from "@/lib/server/store/context";
import { watcherHealth } from "@/lib/server/watch/overview-rows";
import { maintenanceByWebhook } from "@/lib/server/maintenance/windows-store";

/**
 * The console's metrics in the Prometheus text format: gauges set from the store at scrape time,
 * in a registry made for this scrape, so every instance answers the same and nothing resets when
 * one restarts. The only figure of this instance alone is the watcher's key budget (it lives in
 * the watcher's memory). Series: a few per watched webhook (and per status code it failed with
 * in the last day), per application and per outcome, so their number follows the watches.
 */

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** The hub calls this instance's watcher may make now under one application's key. */
export interface KeyBudget {
  appId: string;
  calls: number;
}

const WEBHOOK = ["application", "webhook_id", "watch"] as const;
const APPLICATION = ["application", "app_id"] as const;
const seconds = (ms: number) => ms / 1000;

export async function metricsText(
  ctx: StoreContext,
  budgets: readonly KeyBudget[],
  now = Date.now(),
): Promise<string> {
  const [webhooks, attempts, codes, maintenanceCodes, maintenance, hubCalls, incidents, outbox, deliveries] =
    await Promise.all([
      watchedWebhooks(ctx),
      attemptsByWebhook(ctx, now),
      failuresByCode(ctx, now),
      failuresByCode(ctx, now, "watch_maintenance_codes"),
      maintenanceByWebhook(ctx, null, now),
      hubCallsByOutcome(ctx, now),
      firingIncidents(ctx),
      outboxBacklog(ctx),
      deliveriesByState(ctx),
    ]);
  const names = new Map(webhooks.map((w) => [w.appId, w.application ?? w.appId]));
  const health = await watcherHealth(ctx, [...names.keys()], now);

  const registry = new Registry();
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Gauge<L>({ name: `hubconsole_${name}`, help, labelNames, registers: [registry] });

  const failing = gauge(
    "webhook_failing",
    "1 while the watched webhook's newest attempt failed, else 0.",
    WEBHOOK,
  );
  const streakLength = gauge(
    "webhook_streak_length",
    "Failed attempts in a row since the webhook's last success (0 when not failing).",
    WEBHOOK,
  );
  const streakStart = gauge(
    "webhook_streak_start_timestamp_seconds",
    "When the current failing streak began (the first failed attempt's send time); absent when not failing.",
    WEBHOOK,
  );
  const successRatio = gauge(
    "webhook_success_ratio",
    "Successful attempts / all attempts in the window (1h: since the start of the previous clock hour; " +
      "24h: since the start of the clock hour 24 hours before the current one); absent without attempts.",
    [...WEBHOOK, "window"],
  );
  const failuresCount = gauge(
    "webhook_failures",
    "Failed delivery attempts in the window outside maintenance windows, by the endpoint's status code (0: no answer).",
    [...WEBHOOK, "window", "code"],
  );
  const failuresInMaintenance = gauge(
    "webhook_failures_in_maintenance",
    "Failed delivery attempts in the window sent inside one of the webhook's maintenance windows, by status code.",
    [...WEBHOOK, "window", "code"],
  );
  const inMaintenance = gauge(
    "webhook_in_maintenance",
    "1 while the watched webhook (or its whole application) is in a maintenance window, else 0.",
    WEBHOOK,
  );
  const lastSuccess = gauge(
    "webhook_last_success_timestamp_seconds",
    "Send time of the newest successful attempt stored; absent when none.",
    WEBHOOK,
  );
  const lastFailure = gauge(
    "webhook_last_failure_timestamp_seconds",
    "Send time of the newest failed attempt stored; absent when none.",
    WEBHOOK,
  );
  const numberOfErrors = gauge(
    "webhook_number_of_errors",
    "The hub's numberOfErrors of the webhook at the last poll; absent before the first.",
    WEBHOOK,
  );
  const active = gauge(
    "webhook_active",
    "1 when the hub says the webhook is active at the last poll, else 0; absent before the first.",
    WEBHOOK,
  );
  const labelsOf = new Map(
    webhooks.map((w) => [
      w.webhookId,
      { application: names.get(w.appId)!, webhook_id: w.webhookId, watch: w.watch },
    ]),
  );
  for (const w of webhooks) {
    const labels = labelsOf.get(w.webhookId)!;
    failing.set(labels, w.streakSince === null ? 0 : 1);
    streakLength.set(labels, w.streakSince === null ? 0 : w.streakLength);
    if (w.streakSince !== null) streakStart.set(labels, seconds(w.streakSince));
    if (w.lastSuccessAt !== null) lastSuccess.set(labels, seconds(w.lastSuccessAt));
    if (w.lastFailureAt !== null) lastFailure.set(labels, seconds(w.lastFailureAt));
    if (w.numberOfErrors !== null) numberOfErrors.set(labels, w.numberOfErrors);
    if (w.active !== null) active.set(labels, w.active);
    inMaintenance.set(labels, maintenance.get(w.webhookId)?.current ? 1 : 0);
  }
  for (const row of attempts) {
    const labels = labelsOf.get(row.webhookId)!;
    for (const { label: window } of WINDOWS) {
      const success = row.success[window];
      const failed = row.failed[window];
      if (success + failed > 0) successRatio.set({ ...labels, window }, success / (success + failed));
    }
  }
  // Failures in maintenance are a part of each code's count, set apart: the rest stays in webhook_failures.
  const apart = new Map(maintenanceCodes.map((row) => [`${row.webhookId} ${row.statusCode}`, row.failed]));
  for (const row of codes) {
    const labels = labelsOf.get(row.webhookId)!;
    const inside = apart.get(`${row.webhookId} ${row.statusCode}`);
    for (const { label: window } of WINDOWS) {
      const code = String(row.statusCode);
      failuresCount.set({ ...labels, window, code }, row.failed[window] - (inside?.[window] ?? 0));
      if (inside) failuresInMaintenance.set({ ...labels, window, code }, inside[window]);
    }
  }

  gauge("watcher_watched_webhooks", "Webhooks watched, of every application.").set(health.watched);
  gauge(
    "watcher_lag_seconds",
    "How late the most overdue poll is: now - its planned time, over watched webhooks not being polled whose key is not rejected (0 when none is late).",
  ).set(health.lagSeconds);
  if (health.oldestDataSeconds !== null)
    gauge(
      "watcher_oldest_poll_age_seconds",
      "Age of the oldest last answered poll among watched webhooks whose key is not rejected.",
    ).set(health.oldestDataSeconds);
  gauge("watcher_polls_failing", "Watched webhooks whose last poll failed (key not rejected).").set(
    health.pollsFailing,
  );
  gauge("watcher_backfilling", "Watched webhooks whose stored history is still filling.").set(
    health.backfilling,
  );
  const rejected = gauge(
    "watcher_key_rejected",
    "1 when the hub rejected the application's stored key (its webhooks are not polled until a new key is handed over), else 0.",
    APPLICATION,
  );
  for (const [appId, application] of names)
    rejected.set({ application, app_id: appId }, health.keysRejected.includes(appId) ? 1 : 0);
  const calls = gauge(
    "watcher_hub_calls",
    "The watchers' hub calls in the window (every instance's), by outcome: ok, or the error's code (rate_limited, upstream_timeout, ...).",
    ["window", "outcome"],
  );
  for (const row of hubCalls)
    for (const { label: window } of WINDOWS) calls.set({ window, outcome: row.outcome }, row.calls[window]);
  const budget = gauge(
    "watcher_key_budget_calls",
    "Hub calls THIS instance's watcher may make now under the application's key (WATCH_KEY_REQUESTS_PER_MINUTE, " +
      "a burst of a tenth of it; 0 while the hub's Retry-After runs). Per instance; absent where the watcher does not run.",
    APPLICATION,
  );
  for (const { appId, calls: left } of budgets)
    budget.set({ application: names.get(appId) ?? appId, app_id: appId }, left);

  const firing = gauge(
    "alert_incidents_firing",
    "Alert incidents firing now (one per failing webhook), by application and the rule each leads with.",
    [...APPLICATION, "rule"],
  );
  for (const row of incidents)
    firing.set({ application: row.application ?? row.appId, app_id: row.appId, rule: row.rule }, row.firing);
  gauge("alert_outbox_pending", "Alert deliveries waiting in the outbox: pending, or being sent.").set(
    outbox.pending,
  );
  gauge(
    "alert_outbox_oldest_pending_age_seconds",
    "Age of the oldest delivery waiting in the outbox (0 when it is empty).",
  ).set(outbox.oldestAt === null ? 0 : Math.max(0, seconds(now - outbox.oldestAt)));
  const delivered = gauge(
    "alert_deliveries",
    "Alert deliveries the store holds, by destination kind and state (pending, sending, delivered, failed, refused).",
    ["kind", "state"],
  );
  for (const row of deliveries) delivered.set({ kind: row.kind, state: row.state }, row.deliveries);

  return registry.metrics();
}
