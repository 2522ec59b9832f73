/**
 * Maintenance windows and alerts, on SQLite and PostgreSQL: nothing is told while a webhook (or
 * its whole application) is in a window; an incident that started inside and still holds when
 * the window ends fires then; one that recovered inside tells nothing; one told before the
 * window keeps quiet through it (no update) and its recovery inside is told once when the window
 * ends, under its id; webhooks in a window make no summary. Its failures inside are counted
 * apart: the Overview says so, and does not count it failing now or rank it worst.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseDetail } from "@/lib/domain/alerts/incident-detail";
import type { AlertMessage } from "@/lib/domain/alerts/message";
import { DEFAULT_RULES } from "@/lib/domain/alerts/rules";
import type { Webhook, WebhookLog } from "@/lib/domain/hub-schemas";
import type { MaintenanceWindowInput } from "@/lib/domain/inputs/maintenance";
import { isFailing } from "@/lib/domain/watch/overview";
import { addDestination } from "@/lib/server/alerts/destinations";
import { evaluateWebhook } from "@/lib/server/alerts/incidents";
import { alertPass, settleMs, type PassSettings } from "@/lib/server/alerts/notify";
import { saveAppRules } from "@/lib/server/alerts/rules-store";
import { addWindow } from "@/lib/server/maintenance/windows-store";
import { applicationId } from "@/lib/server/session/key-hash";
import type { StoreContext } from "@/lib/server/store/context";
import { claimDue, finishPoll, writeLogs } from "@/lib/server/watch/cursor";
import { overviewRows } from "@/lib/server/watch/overview-rows";
import { addWatches } from "@/lib/server/watch/watches";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { webhookLog } from "@/tests/support/webhook-log";
import { WATCH_DATABASES, watchDatabases } from "@/tests/support/watch-databases";

const databases = watchDatabases();
const KEY = "key-of-the-maintained-application-1";
const SECOND = 1000;
const MINUTE = 60_000;
const T0 = Date.parse("2026-11-25T10:00:00Z");
const SETTINGS: PassSettings = { links: { origin: "https://console.example" }, intervalSeconds: 60 };
const SETTLE = settleMs(SETTINGS.intervalSeconds);

let n = 0;
const uuid = () => `00000000-0000-4000-9000-${(++n).toString(16).padStart(12, "0")}`;
const hook = (id: string): Webhook => ({
  id,
  endpoint: `https://customer.example/${id}`,
  eventType: "Message",
  numberOfErrors: 0,
  active: true,
});
/** `count` attempts a second apart ending at `at`, newest first. */
const attempts = (webhookId: string, at: number, count: number, status: number): WebhookLog[] =>
  Array.from({ length: count }, (_, i) =>
    webhookLog(webhookId, at - i * SECOND, status, "upstream exploded", { id: uuid(), messageId: uuid() }),
  );
/** "2026-11-25T10:00" in UTC. */
const local = (at: number) => new Date(at).toISOString().slice(0, 16);

beforeEach(() => stubEnv({ SESSION_SECRET: "a-session-secret-for-tests-32-chars!" }));
afterEach(() => restoreEnv());

describe.each(WATCH_DATABASES)("maintenance windows hold alerts (%s)", (kind) => {
  let ctx: StoreContext;
  let appId: string;

  beforeEach(async () => {
    ctx = await databases.fresh(kind, { bodyCapBytes: 4096 });
    appId = applicationId(KEY);
    await addDestination(
      ctx,
      appId,
      { kind: "slack", label: "Ops", url: "https://hooks.slack.example/a" },
      T0,
    );
    await saveAppRules(ctx, appId, {
      ...DEFAULT_RULES,
      rate: { ...DEFAULT_RULES.rate, enabled: false },
      errorsJump: { ...DEFAULT_RULES.errorsJump, enabled: false },
      cooldownMinutes: 0,
    });
  });

  const watch = (ids: string[]) =>
    addWatches(
      ctx,
      appId,
      KEY,
      ids.map((id) => ({ webhook: hook(id), name: `Customer ${id.slice(-2)}` })),
      T0,
    );

  /** A window from `from` to `to` on one webhook, or the whole application. */
  const window = (webhookId: string | null, from: number, to: number) => {
    const input: MaintenanceWindowInput = {
      webhookId,
      repeats: "once",
      start: local(from),
      end: local(to),
      zone: "UTC",
      note: "deploy",
    };
    return addWindow(ctx, appId, input, T0);
  };

  /** A poll storing `logs`, its rules judged, then the alert pass a settle time later. */
  async function poll(webhookId: string, at: number, logs: WebhookLog[]) {
    await claimDue(ctx, "test", 1000, MINUTE, at);
    await writeLogs(ctx, "test", webhookId, logs, { head_id: logs[0]!.id }, MINUTE, at);
    await finishPoll(ctx, "test", webhookId, { nextPollAt: at, error: null }, at);
    await evaluateWebhook(ctx, SETTINGS.links, appId, webhookId, at);
    await alertPass(ctx, SETTINGS, at + SETTLE);
  }

  const told = async () =>
    (
      await ctx.db
        .selectFrom("alert_deliveries")
        .select(["alert_kind", "idempotency_key", "payload"])
        .orderBy("created_at")
        .execute()
    ).map((row) => ({
      kind: row.alert_kind,
      key: row.idempotency_key,
      message: JSON.parse(row.payload!) as AlertMessage,
    }));
  const incidents = () => ctx.db.selectFrom("alert_incidents").selectAll().orderBy("opened_at").execute();

  it("an incident that starts in a window is held, and fires when the window ends if it still holds", async () => {
    const id = uuid();
    await watch([id]);
    await window(id, T0, T0 + 30 * MINUTE);
    await poll(id, T0 + 5 * MINUTE, attempts(id, T0 + 5 * MINUTE, 6, 503));
    await poll(id, T0 + 20 * MINUTE, attempts(id, T0 + 20 * MINUTE, 3, 503));
    expect(await told()).toEqual([]);
    const [held] = await incidents();
    expect(held).toMatchObject({ state: "firing", notified_at: null });
    expect(parseDetail(held!.detail).held).toBe(
      "Held until 2026-11-25T10:30:00.000Z: a maintenance window is on. Sent then if still firing.",
    );
    // The window ends; the next pass tells it, once, under its id.
    await alertPass(ctx, SETTINGS, T0 + 30 * MINUTE);
    await alertPass(ctx, SETTINGS, T0 + 31 * MINUTE);
    expect((await told()).map((t) => [t.kind, t.key])).toEqual([["firing", `${held!.id}.firing`]]);
  });

  it("an incident that starts and recovers inside a window tells nothing, ever", async () => {
    const id = uuid();
    await watch([id]);
    await window(id, T0, T0 + 30 * MINUTE);
    await poll(id, T0 + 5 * MINUTE, attempts(id, T0 + 5 * MINUTE, 6, 503));
    await poll(id, T0 + 10 * MINUTE, attempts(id, T0 + 10 * MINUTE, 3, 200));
    expect((await incidents()).map((i) => i.state)).toEqual(["resolved"]);
    await alertPass(ctx, SETTINGS, T0 + 40 * MINUTE);
    expect(await told()).toEqual([]);
  });

  it("an incident told before a window is updated by nothing inside it; its recovery inside is told once the window ends", async () => {
    const id = uuid();
    await watch([id]);
    await poll(id, T0 + MINUTE, attempts(id, T0 + MINUTE, 5, 503));
    const [incident] = await incidents();
    expect((await told()).map((t) => t.key)).toEqual([`${incident!.id}.firing`]);
    await window(id, T0 + 2 * MINUTE, T0 + 30 * MINUTE);
    // Worse inside the window (50 in a row): held, not told.
    await poll(id, T0 + 5 * MINUTE, attempts(id, T0 + 5 * MINUTE, 45, 503));
    expect(await told()).toHaveLength(1);
    // Recovered inside the window: resolved, its notice waits.
    await poll(id, T0 + 10 * MINUTE, attempts(id, T0 + 10 * MINUTE, 3, 200));
    expect((await incidents())[0]).toMatchObject({ state: "resolved", recovery_due: T0 + 10 * MINUTE });
    await alertPass(ctx, SETTINGS, T0 + 29 * MINUTE);
    expect(await told()).toHaveLength(1);
    // The window ends: told once, whichever pass (or instance) comes first.
    await Promise.all([
      alertPass(ctx, SETTINGS, T0 + 30 * MINUTE),
      alertPass(ctx, SETTINGS, T0 + 30 * MINUTE),
    ]);
    await alertPass(ctx, SETTINGS, T0 + 31 * MINUTE);
    const after = await told();
    expect(after.map((t) => [t.kind, t.key])).toEqual([
      ["firing", `${incident!.id}.firing`],
      ["recovered", `${incident!.id}.recovered`],
    ]);
    // It says when it recovered, not when it was sent.
    expect(after[1]!.message.at).toBe(new Date(T0 + 10 * MINUTE).toISOString());
    expect(after[1]!.message.headline).toMatch(/^recovered after 50 failures, 9 minutes/);
    expect((await incidents())[0]!.recovery_due).toBeNull();
  });

  it("a window on the whole application holds every webhook, and webhooks in a window make no summary", async () => {
    const ids = [uuid(), uuid(), uuid(), uuid(), uuid()];
    await watch(ids);
    await window(null, T0, T0 + 30 * MINUTE);
    for (const id of ids) await poll(id, T0 + 5 * MINUTE, attempts(id, T0 + 5 * MINUTE, 6, 503));
    await alertPass(ctx, SETTINGS, T0 + 6 * MINUTE);
    expect(await told()).toEqual([]);
    expect((await incidents()).map((i) => i.scope)).toEqual([
      "webhook",
      "webhook",
      "webhook",
      "webhook",
      "webhook",
    ]);
  });

  it("counts failures inside a window apart: the Overview says so, not failing now, and ranks it last", async () => {
    const [inside, healthy] = [uuid(), uuid()];
    await watch([inside, healthy]);
    await window(inside, T0, T0 + 60 * MINUTE);
    // Two failures before the window (written before it existed), four inside it.
    await poll(inside, T0 + 5 * MINUTE, [
      ...attempts(inside, T0 + 5 * MINUTE, 4, 503),
      ...attempts(inside, T0 - 5 * MINUTE, 2, 500),
    ]);
    await poll(healthy, T0 + 5 * MINUTE, attempts(healthy, T0 + 5 * MINUTE, 3, 200));
    const codes = await ctx.db
      .selectFrom("watch_maintenance_codes")
      .select(["webhook_id", "status_code", "failed"])
      .execute();
    expect(codes.map((c) => [c.webhook_id, c.status_code, Number(c.failed)])).toEqual([[inside, 503, 4]]);

    const rows = await overviewRows(ctx, [appId], T0 + 10 * MINUTE);
    expect(rows.map((row) => row.webhookId)).toEqual([healthy, inside]);
    const [, maintained] = rows;
    expect(maintained!.maintenance).toEqual({
      until: "2026-11-25T11:00:00.000Z",
      next: null,
      failures: 4,
    });
    expect(maintained!.failingStreak).not.toBeNull();
    expect(isFailing(maintained!)).toBe(false);
    // Once the window has ended, it is failing again, and worst.
    const later = await overviewRows(ctx, [appId], T0 + 61 * MINUTE);
    expect(later.map((row) => row.webhookId)).toEqual([inside, healthy]);
    expect(later[0]!.maintenance).toEqual({ until: null, next: null, failures: 0 });
    expect(isFailing(later[0]!)).toBe(true);
  });
});
