import { sql, type Kysely, type Migration } from "kysely";

/**
 * One incident per webhook. Each rule used to open an incident of its own
 * (column `rule`); a webhook now has one, listing the conditions that hold on it (column `scope`:
 * webhook, application or summary; the rules are in its detail). The firing incidents of one
 * webhook become one: the one told first (else the oldest) keeps its id and takes the others'
 * conditions, so its alert is not sent again and its recovery goes out once under its id. Every
 * detail is written in the new shape. It imports nothing but Kysely: a migration never calls
 * live code, which may change after it.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** The order an incident lists its conditions in (the rules' order when this was written). */
const CONDITION_ORDER = ["streak", "rate", "inactive", "errorsJump", "silence", "watchUnreadable", "summary"];

interface Condition {
  rule: string;
  headline: string;
  since: number | null;
  failures: number;
  attempts: number;
  codes: Array<{ code: number; count: number }>;
}

interface Row {
  id: string;
  app_id: string;
  webhook_id: string;
  state: string;
  opened_at: number | string;
  notified_at: number | string | null;
  updated_at: number | string;
  summary_id: string | null;
  detail: string;
}

/** A row as this migration rewrites it. */
interface Rewritten {
  row: Row;
  scope: "webhook" | "application" | "summary";
  conditions: Condition[];
  rest: Record<string, unknown>;
  notifiedAt: number | null;
  updateDue: number | null;
}

const orderOf = (condition: Condition) => CONDITION_ORDER.indexOf(condition.rule);

function parse(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json) as unknown;
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function rewrite(row: Row & { rule: string }): Rewritten {
  const { breach, ...rest } = parse(row.detail) as { breach?: Omit<Condition, "rule">; webhooks?: unknown };
  const scope = row.webhook_id !== "" ? "webhook" : row.rule === "summary" ? "summary" : "application";
  const conditions = breach ? [{ ...breach, rule: row.rule }] : [];
  let notifiedAt = row.notified_at === null ? null : Number(row.notified_at);
  let updateDue: number | null = null;
  // A told summary waiting to send an update had its notified_at cleared; now an update is due.
  const webhooks = Array.isArray(rest.webhooks) ? rest.webhooks : [];
  if (scope === "summary" && notifiedAt === null && webhooks.length > 0) {
    notifiedAt = Number(row.updated_at);
    updateDue = Number(row.updated_at);
  }
  return { row, scope, conditions, rest, notifiedAt, updateDue };
}

/** The detail in the new shape: what was told is every condition listed, so nothing is sent again. */
function detailOf(incident: Rewritten): string {
  const { conditions, rest, notifiedAt } = incident;
  const starts = conditions.map((c) => c.since).filter((at): at is number => typeof at === "number");
  const streak = conditions.find((c) => c.rule === "streak")?.failures ?? 0;
  return JSON.stringify({
    webhook: null,
    cooldownUntil: null,
    held: null,
    webhooks: [],
    hubFailing: false,
    recovery: null,
    ...rest,
    conditions: [...conditions].sort((a, b) => orderOf(a) - orderOf(b)),
    since: starts.length > 0 ? Math.min(...starts) : null,
    told: notifiedAt === null ? null : { rules: conditions.map((c) => c.rule), streak },
    updates: 0,
  });
}

/**
 * One webhook's firing incidents as one: the first told (else the oldest) with every condition,
 * told when any was, inside the summary any was told in (told with another rule is told alone now).
 */
function merge(group: Rewritten[], summaries: ReadonlySet<string>): { kept: Rewritten; dropped: string[] } {
  const ordered = [...group].sort(
    (a, b) =>
      Number(a.notifiedAt === null) - Number(b.notifiedAt === null) ||
      Number(a.row.opened_at) - Number(b.row.opened_at),
  );
  const [first, ...others] = ordered as [Rewritten, ...Rewritten[]];
  const told = group.map((incident) => incident.notifiedAt).filter((at): at is number => at !== null);
  const summaryId =
    group.map((incident) => incident.row.summary_id).find((id) => id !== null && summaries.has(id)) ?? null;
  return {
    kept: {
      ...first,
      row: { ...first.row, summary_id: summaryId },
      conditions: group.flatMap((incident) => incident.conditions),
      notifiedAt: told.length > 0 ? Math.min(...told) : null,
    },
    dropped: others.map((incident) => incident.row.id),
  };
}

async function oneFiringIndex(db: AnyDb, column: "scope" | "rule") {
  await db.schema
    .createIndex("alert_incidents_one_firing")
    .on("alert_incidents")
    .columns(["app_id", "webhook_id", column])
    .unique()
    .where(sql.ref("state"), "=", sql.lit("firing"))
    .execute();
}

export const migration: Migration = {
  async up(db: AnyDb) {
    await db.schema.dropIndex("alert_incidents_one_firing").execute();
    await db.schema.alterTable("alert_incidents").addColumn("update_due", "bigint").execute();
    const rows = (await db.selectFrom("alert_incidents").selectAll().execute()) as Array<
      Row & { rule: string }
    >;
    await db.schema.alterTable("alert_incidents").renameColumn("rule", "scope").execute();

    const incidents = rows.map(rewrite);
    const summaries = new Set(incidents.filter((i) => i.scope === "summary").map((i) => i.row.id));
    const firing = new Map<string, Rewritten[]>();
    const written: Rewritten[] = [];
    for (const incident of incidents) {
      if (incident.scope !== "webhook" || incident.row.state !== "firing") {
        written.push(incident);
        continue;
      }
      const key = `${incident.row.app_id} ${incident.row.webhook_id}`;
      firing.set(key, [...(firing.get(key) ?? []), incident]);
    }
    for (const group of firing.values()) {
      const { kept, dropped } = merge(group, summaries);
      written.push(kept);
      if (dropped.length === 0) continue;
      await db.deleteFrom("alert_incidents").where("id", "in", dropped).execute();
      await db
        .updateTable("alert_incidents")
        .set({ summary_id: kept.row.id })
        .where("summary_id", "in", dropped)
        .execute();
    }
    for (const incident of written) {
      await db
        .updateTable("alert_incidents")
        .set({
          scope: incident.scope,
          detail: detailOf(incident),
          notified_at: incident.notifiedAt,
          update_due: incident.updateDue,
          summary_id: incident.row.summary_id,
        })
        .where("id", "=", incident.row.id)
        .execute();
    }
    await oneFiringIndex(db, "scope");
  },
  /** Back to one incident per rule: each incident becomes its leading condition's (the others' are lost). */
  async down(db: AnyDb) {
    await db.schema.dropIndex("alert_incidents_one_firing").execute();
    await db.schema.alterTable("alert_incidents").dropColumn("update_due").execute();
    await db.schema.alterTable("alert_incidents").renameColumn("scope", "rule").execute();
    const rows = (await db
      .selectFrom("alert_incidents")
      .select(["id", "rule", "detail"])
      .execute()) as Array<{
      id: string;
      rule: string;
      detail: string;
    }>;
    for (const row of rows) {
      const { conditions, ...rest } = parse(row.detail) as { conditions?: Condition[] };
      const { rule, ...breach } = conditions?.[0] ?? {
        rule: row.rule === "application" ? "watchUnreadable" : row.rule,
      };
      await db
        .updateTable("alert_incidents")
        .set({ rule, detail: JSON.stringify({ ...rest, breach }) })
        .where("id", "=", row.id)
        .execute();
    }
    await oneFiringIndex(db, "rule");
  },
};
