import "server-only";
import type { StoreContext } from "@/lib/server/store/context";

/**
 * Applications' names for the alerts. A name lives in people's sessions ("Default", "Staging"),
 * so the store keeps the one last seen for each application whenever a session lists incidents
 * or uses its destinations: a real alert then says the name its test alert said.
 */

/** Keeps these applications' names (id → name), writing only those that changed. */
export async function rememberApplicationNames(
  ctx: StoreContext,
  names: ReadonlyMap<string, string>,
  now = Date.now(),
): Promise<void> {
  if (names.size === 0) return;
  const stored = await ctx.db
    .selectFrom("alert_applications")
    .select(["app_id", "name"])
    .where("app_id", "in", [...names.keys()])
    .execute();
  const known = new Map(stored.map((row) => [row.app_id, row.name]));
  for (const [appId, name] of names) {
    if (known.get(appId) === name) continue;
    await ctx.db
      .insertInto("alert_applications")
      .values({ app_id: appId, name, updated_at: now })
      .onConflict((oc) => oc.column("app_id").doUpdateSet({ name, updated_at: now }))
      .execute();
  }
}

/**
 * The application as alerts name it: the name its people gave it, else (no session has shown it
 * since the name was kept) by the webhooks it watches, which people know it by.
 */
export async function applicationOf(ctx: StoreContext, appId: string): Promise<{ id: string; name: string }> {
  const named = await ctx.db
    .selectFrom("alert_applications")
    .select("name")
    .where("app_id", "=", appId)
    .executeTakeFirst();
  if (named) return { id: appId, name: named.name };
  const watched = await ctx.db
    .selectFrom("watches")
    .select("name")
    .where("app_id", "=", appId)
    .orderBy("created_at")
    .orderBy("name")
    .execute();
  const [first] = watched;
  if (!first) return { id: appId, name: `Application ${appId}` };
  const more = watched.length > 1 ? ` and ${watched.length - 1} more` : "";
  return { id: appId, name: `The application watching "${first.name}"${more}` };
}
