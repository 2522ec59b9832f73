import "server-only";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { findInput } from "@/lib/domain/inputs/find-delivery";
import { webhookViewHref } from "@/lib/domain/log-view";
import { loadLogView } from "@/lib/domain/search-params";
import { parseWebhookId } from "@/lib/server/hub/path-params";
import { requireSignedInPage } from "@/lib/server/session/redirect";

/**
 * The view a webhook's address asks for, checked once per request (React's `cache`) by the
 * answer's layout and by the table's page: a session, a webhook ID, the application `?app=` names
 * (a link without one is sent on to the current application's, keeping the rest of its query; one
 * the session does not hold is "not found", without calling the hub). `?find=` (Find a delivery)
 * opens the delivery it names over the view it was asked from. `search` is the query as it came.
 */
export const pageView = cache(async (rawWebhookId: string, search: string) => {
  const webhookId = parseWebhookId(rawWebhookId);
  if (!webhookId) notFound();
  const query = new URLSearchParams(search);
  const data = await requireSignedInPage(`/webhooks/${webhookId}${query.size ? `?${query}` : ""}`);
  const asked = loadLogView(query);
  if (!asked.app) {
    query.delete("app");
    redirect(`/webhooks/${webhookId}?${new URLSearchParams([["app", data.current], ...query])}`);
  }
  const app = data.applications.find(({ id }) => id === asked.app);
  if (!app) notFound();

  const findParam = query.get("find");
  const find = findParam === null ? null : findInput.safeParse(findParam);
  if (find?.success) {
    // A link to another webhook's delivery opens it there; here, over the view Find was used from.
    const owner = find.data.kind === "log" ? find.data.webhookId : webhookId.toLowerCase();
    redirect(
      owner === webhookId.toLowerCase()
        ? webhookViewHref(webhookId, { ...asked, log: find.data.id })
        : webhookViewHref(owner, { app: app.id, log: find.data.id }),
    );
  }
  return {
    webhookId,
    data,
    app,
    asked,
    query,
    /** Why what Find was given is no ID. */
    findError: find && !find.success ? (find.error.issues[0]?.message ?? null) : null,
  };
});
