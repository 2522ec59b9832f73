import "server-only";
import type { z } from "zod/mini";
import { channelKindInput } from "@/lib/domain/inputs/send-message";
import { webhookIdInput, webhookIdParam } from "@/lib/domain/inputs/uuid";

/**
 * The path segments the hub client puts into upstream URLs. Each type can only come out of its
 * schema's parse (a route's params, or `parseWebhookId` on a page), so the client takes them as
 * checked and only encodes them: ids are lowercase UUIDs (typed in any case, spaces around them
 * trimmed), channel kinds `[a-z][a-z0-9-]*`.
 */
export const webhookIdSchema = webhookIdInput.brand<"WebhookId">();
export type WebhookId = z.infer<typeof webhookIdSchema>;
/** The same ID in an address (`/api/webhooks/{webhookId}/…`): refused as "not a valid webhook ID". */
export const webhookIdParamSchema = webhookIdParam.brand<"WebhookId">();

export const channelKindParamSchema = channelKindInput.brand<"ChannelKind">();
export type ChannelKind = z.infer<typeof channelKindParamSchema>;

/** The webhook id of a page's URL (normalised), or null when it is not a UUID. */
export function parseWebhookId(value: string): WebhookId | null {
  const result = webhookIdParamSchema.safeParse(value);
  return result.success ? result.data : null;
}
