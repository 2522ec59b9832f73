import { isAppError } from "@/lib/server/app-error";
import { getWebhook } from "@/lib/server/hub/client";
import { defineRoute } from "@/lib/server/http/route";
import { markRejected } from "@/lib/server/session/applications";
import { sessionDataOf } from "@/lib/server/session/session";
import { webhookViewHref } from "@/lib/domain/log-view";
import { lookFormSchema, seeOther } from "@/app/api/applications/schema";

/**
 * "Look in my other applications" (a plain form `webhookId`, `app`: the application it was not
 * found under): asks the hub once with each other application's key, at once, and opens the
 * webhook under the first (in the session's order) that has it (303). None has it: back to the
 * not-found page with `looked=none`, or `looked=partial` when some could not be asked (a key the
 * hub rejects is marked, as anywhere else).
 */
export const POST = defineRoute({
  form: lookFormSchema,
  async handle({ body, session, hub }) {
    const data = sessionDataOf(await session.state());
    const others = data.applications.filter((app) => app.id !== body.app);
    const answers = await Promise.allSettled(
      others.map((app) => getWebhook(hub(app.apiKey), body.webhookId)),
    );
    const found = answers.findIndex((answer) => answer.status === "fulfilled");
    if (found >= 0) return seeOther(webhookViewHref(body.webhookId, { app: others[found]!.id }));

    let next = data;
    let partial = false;
    for (const [index, answer] of answers.entries()) {
      const error = answer.status === "rejected" ? answer.reason : null;
      if (isAppError(error) && error.code === "not_found") continue;
      partial = true;
      if (isAppError(error) && error.code === "unauthorized") next = markRejected(next, others[index]!.id);
    }
    if (next !== data) await session.save(next);
    const back = webhookViewHref(body.webhookId, { app: body.app ?? null });
    return seeOther(`${back}${back.includes("?") ? "&" : "?"}looked=${partial ? "partial" : "none"}`);
  },
});
