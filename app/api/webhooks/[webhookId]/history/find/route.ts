import { AppError } from "@/lib/server/app-error";
import { defineRoute } from "@/lib/server/http/route";
import { findDelivery } from "@/lib/server/history/answer";
import { webhookParamsSchema } from "@/app/api/webhooks/schemas";
import { findQuerySchema } from "@/app/api/webhooks/[webhookId]/history/schemas";

/**
 * One delivery of a webhook, wherever it is in its history (up to `cap` logs): `q` is a log ID,
 * a message ID or a console link to a delivery. `{ log, position, read, total, source }`, or 404
 * saying how far it looked. The watch's store answers when it holds the log; a scan stops reading
 * the moment it is found.
 */
export const GET = defineRoute({
  params: webhookParamsSchema,
  query: findQuerySchema,
  async handle({ params, query, session, signal }) {
    const { target, cap } = query;
    if (target.kind === "log" && target.webhookId !== params.webhookId.toLowerCase()) {
      const message = `Find a delivery: this link opens a delivery of another webhook (${target.webhookId}); open it from that webhook's page.`;
      throw new AppError("bad_request", message, { fields: { q: [message] } });
    }
    const { id: appId, apiKey } = await session.storeApp();
    const result = await findDelivery({ apiKey, appId, signal }, params.webhookId, target, cap);
    if (result.found) {
      return Response.json({
        log: result.log,
        position: result.position,
        read: result.read,
        total: result.total,
        source: result.source,
      });
    }
    if (result.partial?.reason === "failed") throw new AppError(result.partial.code, result.partial.message);
    const what =
      target.kind === "log"
        ? `No delivery with log ID ${target.id}`
        : `No delivery with log or message ID ${target.id}`;
    const where =
      result.partial?.reason === "cap"
        ? ` among the newest ${result.read.toLocaleString("en-US")} of ${result.total.toLocaleString("en-US")} deliveries of this webhook. ` +
          "It may be older: search again with a larger scan (Scan further)."
        : ` in the ${result.total.toLocaleString("en-US")} deliveries of this webhook. Check the ID, and that it belongs to this webhook.`;
    throw new AppError("not_found", what + where);
  },
});
