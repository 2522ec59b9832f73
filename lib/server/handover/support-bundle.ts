import "server-only";
import { buildBundle, type SupportBundle } from "@/lib/domain/handover/bundle";
import type { BundleRequest } from "@/lib/domain/handover/bundle-request";
import { RedactionError } from "@/lib/domain/handover/redact";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { getWebhook } from "@/lib/server/hub/client";
import type { WebhookId } from "@/lib/server/hub/path-params";
import type { ScanCall } from "@/lib/server/history/scan";
import { readIncident } from "@/lib/server/handover/read-incident";

/**
 * The redacted support bundle of a webhook over a window, for the route and the preview page.
 * Besides the default rules and REDACT_PATTERNS, the session's own API key is masked wherever it
 * appears. A pattern that fails means no bundle: the error names it.
 */
export async function supportBundle(
  call: ScanCall,
  webhookId: WebhookId,
  request: BundleRequest,
  now = Date.now(),
): Promise<SupportBundle> {
  const config = serverConfig();
  const [webhook, { incident, partial }] = await Promise.all([
    getWebhook(call, webhookId),
    readIncident(call, webhookId, request, config.history.cap),
  ]);
  try {
    return buildBundle({
      webhook,
      incident,
      timeZone: request.timeZone,
      now,
      partial,
      redaction: { patterns: config.redactPatterns, literals: [call.apiKey] },
    });
  } catch (error) {
    if (error instanceof RedactionError) {
      throw new AppError(
        "internal",
        `No support bundle was produced, because redaction failed: ${error.message} ` +
          "Ask the console's operator to fix REDACT_PATTERNS.",
      );
    }
    throw error;
  }
}
