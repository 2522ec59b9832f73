import { z } from "zod";
import { defineRoute } from "@/lib/server/http/route";
import { BUNDLE_FORMATS, bundleFileName } from "@/lib/domain/bundle/bundle";
import { bundleWindowShape, fromBeforeTo } from "@/lib/domain/bundle/bundle-request";
import { BUNDLE_CONTENT_TYPES, renderBundle } from "@/lib/domain/bundle/render";
import { supportBundle } from "@/lib/server/bundle/support-bundle";
import { webhookParamsSchema } from "@/app/api/webhooks/schemas";

/** `from`, `to`, `tz`, `issue` (see bundle-request.ts) and `format` (md, html or json). */
const bundleQuerySchema = z
  .strictObject({
    ...bundleWindowShape,
    format: z.enum(BUNDLE_FORMATS, { error: "Format: choose md, html or json." }),
  })
  .check(fromBeforeTo);

/**
 * A redacted support bundle of the webhook over a window (or of one of its failure issues), as a
 * file in the asked format. Made from the history the scan reads; nothing is sent when redaction
 * fails (the error names the pattern).
 */
export const GET = defineRoute({
  params: webhookParamsSchema,
  query: bundleQuerySchema,
  async handle({ params, query, session, signal }) {
    const { id: appId, apiKey } = await session.storeApp();
    const bundle = await supportBundle({ apiKey, appId, signal }, params.webhookId, {
      ...query,
      issue: query.issue ?? null,
    });
    return new Response(renderBundle(bundle, query.format), {
      headers: {
        "content-type": BUNDLE_CONTENT_TYPES[query.format],
        "content-disposition": `attachment; filename="${bundleFileName(params.webhookId, Date.parse(bundle.window.from), query.format)}"`,
        "x-content-type-options": "nosniff",
      },
    });
  },
});
