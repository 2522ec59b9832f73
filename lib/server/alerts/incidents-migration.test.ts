/**
 * Migration 0014 on both databases: a store holding one incident per rule (firing and resolved,
 * told alone, told with another rule, held, inside a summary, application-wide) comes out with
 * one incident per webhook listing its conditions, under the id of the one that was told, and
 * the engine carries on from there: no alert told again, one recovery under that id.
 */
import { randomUUID } from "node:crypto";
import { Migrator, type Kysely } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { parseDetail } from "@/lib/domain/alerts/incident-detail";
import { addDestination } from "@/lib/server/alerts/destinations";
import { evaluateWebhook } from "@/lib/server/alerts/incidents";
import { alertPass } from "@/lib/server/alerts/notify";
import { applicationId } from "@/lib/server/session/key-hash";
import type { StoreContext } from "@/lib/server/store/context";
import { migrations } from "@/lib/server/store/migrations";
import { addWatches } from "@/lib/server/watch/watches";
import { restoreEnv, stubEnv } from "@/tests/support/env";
import { fakeWebhook } from "@/tests/support/fake-upstream";
import { storeLogs, WATCH_DATABASES, watchDatabases } from "@/tests/support/watch-databases";
import { webhookLog } from "@/tests/support/webhook-log";

const databases = watchDatabases();
const KEY = "key-of-the-migrated-application-01";
const APP = applicationId(KEY);
const [A, B, C, D] = [1, 2, 3, 4].map((n) => `0b7e5a4c-8f0e-4a5b-9c1d-00000000000${n}`) as [
  string,
  string,
  string,
  string,
];
const MINUTE = 60_000;
const T = Date.parse("2026-11-25T10:00:00Z");
const LINKS = { origin: "https://console.example" };

/** A row of alert_incidents as migrations 0004 to 0010 left it. */
interface OldIncident {
  id: string;
  app_id: string;
  webhook_id: string;
  rule: string;
  state: "firing" | "resolved";
  opened_at: number;
  resolved_at: number | null;
  detail: string;
  notified_at: number | null;
  updated_at: number;
  summary_id: string | null;
}

const webhookOf = (id: string) => ({
  id,
  name: `Customer ${id.slice(-1)}`,
  endpoint: `https://acme.test/${id}`,
});

function old(
  id: string,
  webhookId: string,
  rule: string,
  change: Partial<OldIncident> & { headline?: string; failures?: number; since?: number } = {},
): OldIncident {
  const { headline = `${rule} holds`, failures = 5, since = T - MINUTE, ...row } = change;
  return {
    id,
    app_id: APP,
    webhook_id: webhookId,
    rule,
    state: "firing",
    opened_at: T,
    resolved_at: null,
    detail: JSON.stringify({
      breach: { headline, since, failures, attempts: failures, codes: [{ code: 500, count: failures }] },
      webhook: webhookId ? webhookOf(webhookId) : null,
      cooldownUntil: null,
      held: null,
      webhooks: [],
      hubFailing: false,
      recovery: row.state === "resolved" ? "recovered after 5 failures, 3 minutes" : null,
    }),
    notified_at: T,
    updated_at: T,
    summary_id: null,
    ...row,
  };
}

/** `count` deliveries one second apart ending at `at`, newest first. */
const deliveries = (webhookId: string, at: number, count: number, statusCode: number): WebhookLog[] =>
  Array.from({ length: count }, (_, i) =>
    webhookLog(webhookId, at - i * 1000, statusCode, "upstream exploded", {
      id: randomUUID(),
      messageId: randomUUID(),
    }),
  );

beforeEach(() => stubEnv({ SESSION_SECRET: "a-session-secret-for-tests-32-chars!" }));
afterEach(() => restoreEnv());

describe.each(WATCH_DATABASES)("migration 0014 on %s", (kind) => {
  let ctx: StoreContext;

  beforeEach(async () => {
    ctx = await databases.fresh(kind, { bodyCapBytes: 4096 });
    await addWatches(
      ctx,
      APP,
      KEY,
      [A, B, C, D].map((id) => ({ webhook: { ...fakeWebhook(id), endpoint: webhookOf(id).endpoint } })),
      T - 10 * MINUTE,
    );
    await addDestination(ctx, APP, {
      kind: "webhook",
      label: "Pager",
      url: "https://pager.example/hook",
      secret: "",
    });
    const migrator = new Migrator({ db: ctx.db, provider: migrations });
    expect((await migrator.migrateTo("0013_log_copies")).error).toBeUndefined();
    const before = ctx.db as unknown as Kysely<{ alert_incidents: OldIncident }>;
    await before
      .insertInto("alert_incidents")
      .values([
        // A: the streak told alone, the rate told with it, the jump not told yet.
        old("a-streak", A, "streak", {
          headline: "12 failures in a row",
          failures: 12,
          since: T - 2 * MINUTE,
        }),
        old("a-rate", A, "rate", { opened_at: T + 1000, notified_at: T + 1000, summary_id: "a-streak" }),
        old("a-jump", A, "errorsJump", { opened_at: T + 2000, notified_at: null }),
        // B: inactive, held by its snooze.
        old("b-inactive", B, "inactive", { notified_at: null }),
        // The key rejected, application-wide; a summary, and C inside it by two rules.
        old("key", "", "watchUnreadable"),
        old("summary", "", "summary", { headline: "5 webhooks failing at once" }),
        old("c-streak", C, "streak", { summary_id: "summary" }),
        old("c-rate", C, "rate", { opened_at: T + 3000, notified_at: T + 3000, summary_id: "summary" }),
        // D: resolved long ago.
        old("d-streak", D, "streak", {
          state: "resolved",
          opened_at: T - 60 * MINUTE,
          resolved_at: T - 50 * MINUTE,
        }),
      ])
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
  });

  const rows = () => ctx.db.selectFrom("alert_incidents").selectAll().orderBy("id").execute();
  const summaryOf = (row: { detail: string }) => {
    const detail = parseDetail(row.detail);
    return { rules: detail.conditions.map((c) => c.rule), since: detail.since, told: detail.told };
  };

  it("makes one incident per webhook with its conditions, under the id of the one told, in its summary", async () => {
    const after = await rows();
    expect(after.map((row) => [row.id, row.scope, row.state, row.webhook_id, row.summary_id])).toEqual([
      ["a-streak", "webhook", "firing", A, null],
      ["b-inactive", "webhook", "firing", B, null],
      ["c-streak", "webhook", "firing", C, "summary"],
      ["d-streak", "webhook", "resolved", D, null],
      ["key", "application", "firing", "", null],
      ["summary", "summary", "firing", "", null],
    ]);
    const [a, b, c, d] = after;
    expect(summaryOf(a!)).toEqual({
      rules: ["streak", "rate", "errorsJump"],
      since: T - 2 * MINUTE,
      told: { rules: ["streak", "rate", "errorsJump"], streak: 12 },
    });
    expect(a!.notified_at).toBe(T);
    expect(summaryOf(b!)).toEqual({ rules: ["inactive"], since: T - MINUTE, told: null });
    expect(b!.notified_at).toBeNull();
    expect(summaryOf(c!).rules).toEqual(["streak", "rate"]);
    expect(parseDetail(d!.detail)).toMatchObject({
      conditions: [{ rule: "streak", headline: "streak holds" }],
      recovery: "recovered after 5 failures, 3 minutes",
    });
    expect(parseDetail(after[5]!.detail).conditions).toEqual([
      expect.objectContaining({ rule: "summary", headline: "5 webhooks failing at once" }),
    ]);
    expect(after.every((row) => row.update_due === null)).toBe(true);
    // One firing incident per webhook from now on, whichever instance opens it.
    await expect(
      ctx.db
        .insertInto("alert_incidents")
        .values({ ...a!, id: "a-second" })
        .execute(),
    ).rejects.toThrow(/unique|duplicate/i);
  });

  it("the engine carries on: what was told is not told again, and the recovery goes out once under the told id", async () => {
    const at = T + 2 * MINUTE;
    await storeLogs(ctx, A, deliveries(A, at, 12, 500), at);
    await evaluateWebhook(ctx, LINKS, APP, A, at);
    await alertPass(ctx, { links: LINKS, intervalSeconds: 60 }, at + MINUTE);
    const sent = () =>
      ctx.db
        .selectFrom("alert_deliveries")
        .select(["idempotency_key", "alert_kind"])
        .orderBy("created_at")
        .execute();
    expect((await sent()).filter((row) => row.idempotency_key.startsWith("a-"))).toEqual([]);

    const fixed = at + 2 * MINUTE;
    await storeLogs(ctx, A, deliveries(A, fixed, 3, 200), fixed);
    await evaluateWebhook(ctx, LINKS, APP, A, fixed);
    expect((await sent()).filter((row) => row.idempotency_key.startsWith("a-"))).toEqual([
      { idempotency_key: "a-streak.recovered", alert_kind: "recovered" },
    ]);
  });
});
