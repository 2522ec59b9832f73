/**
 * The incidents the console lists, on both databases: firing ones (one per webhook, with its
 * conditions) application-wide first then oldest first, summaries apart, resolved ones newest
 * first and capped, only the named applications', with the watch's name and the engine's detail
 * fields read (and a detail of another shape tolerated).
 */
import { describe, expect, it } from "vitest";
import type { ConditionRule } from "@/lib/domain/alerts/conditions";
import { RESOLVED_SHOWN } from "@/lib/domain/alerts/incidents";
import { addWatches } from "@/lib/server/watch/watches";
import { listIncidents } from "@/lib/server/alerts/incident-views";
import { fakeWebhook } from "@/tests/support/fake-upstream";
import { incidentRow } from "@/tests/support/alert-incidents";
import { WATCH_DATABASES, watchDatabases } from "@/tests/support/watch-databases";

const databases = watchDatabases();
const APP = "0123456789abcdef";
const OTHER_APP = "fedcba9876543210";
const A = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
const B = "1c8f6b5d-9a1f-4b6c-8d2e-3f4a5b6c7d8e";
const T = Date.parse("2026-11-25T10:00:00Z");

describe.each(WATCH_DATABASES)("on %s", (kind) => {
  it("lists firing and resolved incidents in order, with names, links and detail", async () => {
    const ctx = await databases.fresh(kind);
    await addWatches(ctx, APP, "key-one", [
      { webhook: { ...fakeWebhook(A), endpoint: "https://acme.test/hooks" }, name: "Acme orders" },
      { webhook: fakeWebhook(B), name: "Globex" },
    ]);
    const rows = [
      incidentRow({
        appId: APP,
        webhookId: A,
        openedAt: T + 2000,
        conditions: [
          { rule: "streak", headline: "newer" },
          { rule: "errorsJump", headline: "rose by 11" },
        ],
      }),
      incidentRow({ appId: APP, webhookId: B, openedAt: T + 1000, headline: "older" }),
      incidentRow({
        appId: APP,
        webhookId: "",
        scope: "summary",
        openedAt: T + 3000,
        headline: "12 failing",
      }),
      incidentRow({
        appId: APP,
        webhookId: "",
        scope: "application",
        openedAt: T + 5000,
        conditions: [{ rule: "watchUnreadable", headline: "the hub rejects this application's API key" }],
      }),
      incidentRow({ appId: APP, webhookId: A, openedAt: T, resolvedAt: T + 500 }),
      incidentRow({ appId: APP, webhookId: B, openedAt: T, resolvedAt: T + 900 }),
      incidentRow({ appId: OTHER_APP, webhookId: A, openedAt: T }),
      incidentRow({ appId: OTHER_APP, webhookId: B, openedAt: T + 4000, detail: '{"headline":7}' }),
      incidentRow({ appId: APP, webhookId: B, openedAt: T, resolvedAt: T + 100, detail: "not json" }),
    ];
    await ctx.db.insertInto("alert_incidents").values(rows).execute();

    const answer = await listIncidents(ctx, new Map([[APP, "Production"]]));
    expect(answer.firing.map((i) => [i.scope, i.name, i.headline])).toEqual([
      ["application", "Production", "the hub rejects this application's API key"],
      ["webhook", "Globex", "older"],
      ["webhook", "Acme orders", "newer; rose by 11"],
    ]);
    expect(answer.summaries.map((i) => [i.name, i.headline, i.href])).toEqual([
      ["Production", "12 failing", `/overview?failing=true&app=${APP}`],
    ]);
    expect(answer.firing[2]).toEqual({
      id: rows[0]!.id,
      appId: APP,
      applicationName: "Production",
      webhookId: A,
      name: "Acme orders",
      endpoint: "https://acme.test/hooks",
      scope: "webhook",
      state: "firing",
      openedAt: new Date(T + 2000).toISOString(),
      resolvedAt: null,
      headline: "newer; rose by 11",
      conditions: [
        { rule: "streak", name: "Failing streak", headline: "newer" },
        { rule: "errorsJump", name: "Errors jumped", headline: "rose by 11" },
      ],
      since: new Date(T + 2000 - 60_000).toISOString(),
      counts: { failures: 5, attempts: 5 },
      codes: [{ code: 500, count: 5 }],
      href: `/webhooks/${A}?app=${APP}`,
    });
    expect(answer.firing[0]!.href).toBe(`/overview?failing=true&app=${APP}`);
    expect(answer.resolved.at(-1)).toMatchObject({ since: null, counts: null, codes: [], conditions: [] });
    expect(answer.resolved.map((i) => [i.name, i.headline, i.resolvedAt])).toEqual([
      ["Globex", "5 failures in a row", new Date(T + 900).toISOString()],
      ["Acme orders", "5 failures in a row", new Date(T + 500).toISOString()],
      ["Globex", "This webhook is failing", new Date(T + 100).toISOString()],
    ]);
    expect(JSON.stringify(answer)).not.toContain(OTHER_APP);
    expect(await listIncidents(ctx, new Map())).toEqual({ firing: [], summaries: [], resolved: [] });
  });

  it("counts attempts only where the leading condition has them: an inactive webhook's are its failing streak", async () => {
    const ctx = await databases.fresh(kind);
    const breach = (rule: ConditionRule, failures: number, codes: Array<{ code: number; count: number }>) =>
      incidentRow({
        appId: APP,
        webhookId: rule,
        openedAt: T,
        detail: JSON.stringify({
          conditions: [{ rule, headline: rule, since: null, failures, attempts: 0, codes }],
        }),
      });
    const streakCodes = [
      { code: 410, count: 12 },
      { code: 400, count: 6 },
      { code: 301, count: 2 },
    ];
    await ctx.db
      .insertInto("alert_incidents")
      .values([
        breach("inactive", 0, streakCodes),
        breach("silence", 0, []),
        breach("errorsJump", 6, [{ code: 500, count: 2 }]),
      ])
      .execute();
    const { firing } = await listIncidents(ctx, new Map([[APP, "Production"]]));
    const counts = Object.fromEntries(firing.map((i) => [i.conditions[0]!.rule, i.counts]));
    expect(counts).toEqual({
      inactive: { failures: 20, attempts: 20 },
      silence: null,
      errorsJump: null,
    });
    expect(firing.find((i) => i.webhookId === "inactive")!.codes).toEqual(streakCodes);
  });

  it("lists the newest resolved incidents only", async () => {
    const ctx = await databases.fresh(kind);
    const rows = Array.from({ length: RESOLVED_SHOWN + 5 }, (_, n) =>
      incidentRow({ appId: APP, webhookId: A, openedAt: T, resolvedAt: T + n * 1000, headline: `#${n}` }),
    );
    await ctx.db.insertInto("alert_incidents").values(rows).execute();
    const { resolved } = await listIncidents(ctx, new Map([[APP, "Production"]]));
    expect(resolved).toHaveLength(RESOLVED_SHOWN);
    expect(resolved[0]).toMatchObject({ headline: `#${RESOLVED_SHOWN + 4}`, name: A, endpoint: "" });
  });
});
