import "server-only";
import type { Webhook } from "@/lib/domain/hub-schemas";
import type { Watch } from "@/lib/domain/watch/overview";
import { AppError } from "@/lib/server/app-error";
import { moveAlertsTo } from "@/lib/server/alerts/destinations";
import { applicationId } from "@/lib/server/session/key-hash";
import { toIso, type StoreContext } from "@/lib/server/store/context";
import { rebuildIssuesOf, removeIssues } from "@/lib/server/watch/failure-issues";
import { summarise } from "@/lib/server/watch/cursor";
import { countScope } from "@/lib/server/history/questions";
import type { StoreDatabase, StoreDb } from "@/lib/server/store/schema";

/** Watches and the sealed key of each watched application. */

export const NAME_MAX = 120;

type WatchRow = StoreDatabase["watches"];

export function watchOf(row: WatchRow): Watch {
  return {
    webhookId: row.webhook_id,
    appId: row.app_id,
    name: row.name,
    endpoint: row.endpoint,
    eventType: row.event_type,
    createdAt: toIso(row.created_at),
  };
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "" || trimmed.length > NAME_MAX) {
    const message = `Name must be 1 to ${NAME_MAX} characters.`;
    throw new AppError("bad_request", message, { fields: { name: [message] } });
  }
  return trimmed;
}

export function notWatched(webhookId: string): AppError {
  return new AppError(
    "not_found",
    `Webhook ${webhookId} is not watched by an application of this session. Watch it first, or sign in with the key of the application that watches it.`,
  );
}

/** The application of the session that watches the webhook, or the watch routes' 404. */
export async function watchingApp(
  ctx: StoreContext,
  appIds: readonly string[],
  webhookId: string,
): Promise<string> {
  const watch = await getWatch(ctx, appIds, webhookId);
  if (!watch) throw notWatched(webhookId);
  return watch.appId;
}

/** Stores the application's key sealed (replacing one it had, clearing "rejected"). */
async function putKey(
  ctx: StoreContext,
  db: StoreDb,
  appId: string,
  apiKey: string,
  now: number,
): Promise<void> {
  const sealed = ctx.sealer.seal(apiKey);
  await db
    .insertInto("watch_keys")
    .values({ app_id: appId, sealed, rejected_at: null, rejected_reason: null, updated_at: now })
    .onConflict((oc) =>
      oc.column("app_id").doUpdateSet({ sealed, rejected_at: null, rejected_reason: null, updated_at: now }),
    )
    .execute();
}

/** Removes the sealed keys of these applications when they no longer watch anything. */
async function dropUnusedKeys(db: StoreDb, appIds: readonly string[]): Promise<void> {
  if (appIds.length === 0) return;
  await db
    .deleteFrom("watch_keys")
    .where("app_id", "in", appIds)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom("watches").select("webhook_id").whereRef("watches.app_id", "=", "watch_keys.app_id"),
        ),
      ),
    )
    .execute();
}

/**
 * Watches webhooks of one application, all or nothing, its key stored sealed (clearing "key
 * rejected"). The caller has read each webhook with `apiKey`: the proof the key reads it, so a
 * webhook another application watched moves to this one, with its history. A blank `name` keeps
 * the watch's name, or names it by the endpoint.
 */
export async function addWatches(
  ctx: StoreContext,
  appId: string,
  apiKey: string,
  items: ReadonlyArray<{ webhook: Webhook; name?: string }>,
  now = Date.now(),
): Promise<Watch[]> {
  const named = items.map(({ webhook, name }) => ({
    webhook,
    name: name === undefined || name.trim() === "" ? null : checkName(name),
  }));
  return ctx.db.transaction().execute(async (tx) => {
    await putKey(ctx, tx, appId, apiKey, now);
    const ids = named.map((item) => item.webhook.id);
    const existing = ids.length
      ? await tx.selectFrom("watches").selectAll().where("webhook_id", "in", ids).execute()
      : [];
    const before = new Map(existing.map((row) => [row.webhook_id, row]));
    for (const { webhook, name } of named) {
      const row = {
        webhook_id: webhook.id,
        app_id: appId,
        name: name ?? before.get(webhook.id)?.name ?? webhook.endpoint,
        endpoint: webhook.endpoint,
        event_type: webhook.eventType,
      };
      await tx
        .insertInto("watches")
        .values({ ...row, created_at: now })
        .onConflict((oc) => oc.column("webhook_id").doUpdateSet(row))
        .execute();
      await tx
        .insertInto("watch_state")
        .values({ webhook_id: webhook.id, next_poll_at: now })
        .onConflict((oc) => oc.column("webhook_id").doNothing())
        .execute();
      if (!before.has(webhook.id)) await adoptCopy(ctx, tx, webhook.id, now);
    }
    await dropUnusedKeys(
      tx,
      [...new Set(existing.map((row) => row.app_id))].filter((id) => id !== appId),
    );
    const rows = ids.length
      ? await tx.selectFrom("watches").selectAll().where("webhook_id", "in", ids).execute()
      : [];
    const byId = new Map(rows.map((row) => [row.webhook_id, watchOf(row)]));
    return ids.map((id) => byId.get(id)!);
  });
}

/** A copied webhook is now watched: the watcher backfills below the copy, and its issues are built from it. */
async function adoptCopy(ctx: StoreContext, tx: StoreDb, webhookId: string, now: number): Promise<void> {
  const copied = await tx
    .deleteFrom("log_copies")
    .where("webhook_id", "=", webhookId)
    .returning("webhook_id")
    .executeTakeFirst();
  if (!copied) return;
  const state = await tx
    .selectFrom("watch_state")
    .select(["head_id", "complete_from", "history_complete"])
    .where("webhook_id", "=", webhookId)
    .executeTakeFirstOrThrow();
  const held = await countScope(tx, { webhookId, from: state.complete_from }, null);
  await rebuildIssuesOf(tx, webhookId, ctx.issueResolveAfter, now);
  await tx
    .updateTable("watch_state")
    .set({
      ...(await summarise(tx, webhookId)),
      tail_offset: state.head_id === null ? 0 : state.history_complete === 1 ? null : held,
      backfill_read: held,
      next_poll_at: now,
    })
    .where("webhook_id", "=", webhookId)
    .execute();
}

/** Renames a watch (name trimmed, 1..NAME_MAX characters; else `bad_request` on `name`). */
export async function renameWatch(
  ctx: StoreContext,
  appIds: readonly string[],
  webhookId: string,
  name: string,
): Promise<Watch> {
  const checked = checkName(name);
  if (appIds.length === 0) throw notWatched(webhookId);
  const row = await ctx.db
    .updateTable("watches")
    .set({ name: checked })
    .where("webhook_id", "=", webhookId)
    .where("app_id", "in", appIds)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notWatched(webhookId);
  return watchOf(row);
}

/** Stops watching: what is stored of the webhook goes, and the sealed key with the application's last watch. */
export async function removeWatch(
  ctx: StoreContext,
  appIds: readonly string[],
  webhookId: string,
): Promise<void> {
  if (appIds.length === 0) throw notWatched(webhookId);
  await ctx.db.transaction().execute(async (tx) => {
    const removed = await tx
      .deleteFrom("watches")
      .where("webhook_id", "=", webhookId)
      .where("app_id", "in", appIds)
      .returning("app_id")
      .executeTakeFirst();
    if (!removed) throw notWatched(webhookId);
    for (const table of [
      "watch_logs",
      "watch_log_hours",
      "watch_log_codes",
      "watch_maintenance_codes",
      "watch_timeline",
      "watch_state",
      "maintenance_windows",
    ] as const) {
      await tx.deleteFrom(table).where("webhook_id", "=", webhookId).execute();
    }
    await removeIssues(tx, webhookId);
    await dropUnusedKeys(tx, [removed.app_id]);
  });
}

/** The watches of these applications, by name. */
export async function listWatches(ctx: StoreContext, appIds: readonly string[]): Promise<Watch[]> {
  if (appIds.length === 0) return [];
  const rows = await ctx.db
    .selectFrom("watches")
    .selectAll()
    .where("app_id", "in", appIds)
    .orderBy("name")
    .orderBy("webhook_id")
    .execute();
  return rows.map(watchOf);
}

/** The watch of this webhook, when one of these applications has it; else null. */
export async function getWatch(
  ctx: StoreContext,
  appIds: readonly string[],
  webhookId: string,
): Promise<Watch | null> {
  if (appIds.length === 0) return null;
  const row = await ctx.db
    .selectFrom("watches")
    .selectAll()
    .where("webhook_id", "=", webhookId)
    .where("app_id", "in", appIds)
    .executeTakeFirst();
  return row ? watchOf(row) : null;
}

/** Moves an application's watches and alerts (but `dropDestinations`) to its new key's id, sealed there. */
export async function replaceKey(
  ctx: StoreContext,
  oldAppId: string,
  newApiKey: string,
  dropDestinations: readonly string[] = [],
  now = Date.now(),
): Promise<{ appId: string }> {
  const appId = applicationId(newApiKey);
  await ctx.db.transaction().execute(async (tx) => {
    await putKey(ctx, tx, appId, newApiKey, now);
    if (oldAppId !== appId) await moveApplication(tx, oldAppId, appId, dropDestinations);
  });
  return { appId };
}

/** The application's watches and alerts go to another id, and its old key goes. */
async function moveApplication(
  tx: StoreDb,
  from: string,
  to: string,
  dropDestinations: readonly string[] = [],
) {
  await tx.updateTable("watches").set({ app_id: to }).where("app_id", "=", from).execute();
  await moveAlertsTo(tx, from, to, dropDestinations);
  await tx.deleteFrom("watch_keys").where("app_id", "=", from).execute();
}

/** The application's key, opened, for the watcher's polls; null when none is stored or it cannot be opened. */
export async function openKey(ctx: StoreContext, appId: string): Promise<string | null> {
  const row = await ctx.db
    .selectFrom("watch_keys")
    .select("sealed")
    .where("app_id", "=", appId)
    .executeTakeFirst();
  return row ? (ctx.sealer.open(row.sealed)?.plain ?? null) : null;
}

/** Marks the application's key rejected (the hub answered 401): its webhooks are not polled until a new key is handed over. */
export async function markKeyRejected(
  ctx: StoreContext,
  appId: string,
  reason: string,
  now = Date.now(),
): Promise<void> {
  await ctx.db
    .updateTable("watch_keys")
    .set({ rejected_at: now, rejected_reason: reason })
    .where("app_id", "=", appId)
    .where("rejected_at", "is", null)
    .execute();
}

/** Which of these applications have a stored key, and whether it is rejected. */
export async function keyStates(
  ctx: StoreContext,
  appIds: readonly string[],
): Promise<Array<{ appId: string; rejected: boolean; rejectedAt: string | null }>> {
  if (appIds.length === 0) return [];
  const rows = await ctx.db
    .selectFrom("watch_keys")
    .select(["app_id", "rejected_at"])
    .where("app_id", "in", appIds)
    .execute();
  return rows.map((row) => ({
    appId: row.app_id,
    rejected: row.rejected_at !== null,
    rejectedAt: row.rejected_at === null ? null : toIso(row.rejected_at),
  }));
}

/**
 * Applications whose stored key no longer serves: the hub rejected it, or no configured secret
 * opens it (WATCH_SECRET or SESSION_SECRET changed). Most recently rejected first.
 */
export async function rejectedApplications(ctx: StoreContext): Promise<string[]> {
  const rows = await ctx.db.selectFrom("watch_keys").select(["app_id", "sealed", "rejected_at"]).execute();
  // A key no secret opens may not be marked yet (the watcher marks it when it starts): newest of all.
  const since = (row: (typeof rows)[number]) =>
    row.rejected_at === null ? Infinity : Number(row.rejected_at);
  return rows
    .filter((row) => row.rejected_at !== null || !ctx.sealer.open(row.sealed))
    .sort((a, b) => since(b) - since(a))
    .map((row) => row.app_id);
}

/**
 * At start: seals again under the newest secret every key an older one sealed, moves an application
 * whose id changed (SESSION_SECRET rotated), and marks "rejected" a key no secret opens; counts those.
 */
export async function refreshKeys(ctx: StoreContext, now = Date.now()): Promise<{ unopened: number }> {
  const rows = await ctx.db.selectFrom("watch_keys").selectAll().execute();
  let unopened = 0;
  for (const row of rows) {
    const opened = ctx.sealer.open(row.sealed);
    if (!opened) {
      unopened++;
      await markKeyRejected(
        ctx,
        row.app_id,
        "The stored key was sealed under a secret this console does not have (WATCH_SECRET or SESSION_SECRET changed). " +
          "Sign in with the application's key to carry its watches over.",
        now,
      );
      continue;
    }
    if (opened.stale || applicationId(opened.plain) !== row.app_id) {
      await ctx.db.transaction().execute(async (tx) => {
        const appId = applicationId(opened.plain);
        const sealed = ctx.sealer.seal(opened.plain);
        await tx
          .insertInto("watch_keys")
          .values({ ...row, app_id: appId, sealed, updated_at: now })
          .onConflict((oc) => oc.column("app_id").doUpdateSet({ sealed, updated_at: now }))
          .execute();
        if (appId !== row.app_id) await moveApplication(tx, row.app_id, appId);
      });
    }
  }
  return { unopened };
}
