import { z } from "zod";
import { defineRoute } from "@/lib/server/http/route";
import { BUNDLE_FORMATS, bundleFileName } from "@/lib/domain/handover/bundle";
import { parseBundleRequest } from "@/lib/domain/handover/bundle-request";
import { BUNDLE_CONTENT_TYPES, renderBundle } from "@/lib/domain/handover/render";
import { supportBundle } from "@/lib/server/handover/support-bundle";
import { webhookParamsSchema } from "@/app/api/webhooks/schemas";

const optionalText = z.string().optional();

/** `from`, `to`, `tz` (see bundle-request.ts) and `format` (md, html or json). */
const bundleQuerySchema = z
  .strictObject({
    from: optionalText,
    to: optionalText,
    tz: optionalText,
    format: z.enum(BUNDLE_FORMATS, { error: "Format must be md, html or json" }),
  })
  .transform((value, ctx) => {
    const parsed = parseBundleRequest(
      { get: (name) => (value as Record<string, string | undefined>)[name] ?? null },
      Date.now(),
    );
    if (!parsed.ok) {
      for (const [field, messages] of Object.entries(parsed.errors))
        for (const message of messages) ctx.addIssue({ code: "custom", message, path: [field] });
      return z.NEVER;
    }
    return { ...parsed.value, format: value.format };
  });

/**
 * A redacted support bundle of the webhook over a window, as a file in the asked format. Made
 * from the history the scan reads; nothing is sent when redaction fails (the error names the
 * pattern).
 */
export const GET = defineRoute({
  params: webhookParamsSchema,
  query: bundleQuerySchema,
  async handle({ params, query, session, signal }) {
    const apiKey = await session.apiKey();
    const bundle = await supportBundle({ apiKey, signal }, params.webhookId, query);
    return new Response(renderBundle(bundle, query.format), {
      headers: {
        "content-type": BUNDLE_CONTENT_TYPES[query.format],
        "content-disposition": `attachment; filename="${bundleFileName(params.webhookId, query.from, query.format)}"`,
        "x-content-type-options": "nosniff",
      },
    });
  },
});
