import "server-only";
import type { z } from "zod";
import { channelKindSchema, idSchema } from "@/lib/domain/hub-schemas";

/**
 * The path segments the hub client puts into upstream URLs. Each type can only come out of its
 * schema's parse (a route's params, or `parseWebhookId` on a page), so the client takes them as
 * checked and only encodes them: ids are UUIDs, channel kinds `[a-z][a-z0-9-]*`.
 */
export const webhookIdSchema = idSchema.brand<"WebhookId">();
export type WebhookId = z.infer<typeof webhookIdSchema>;

export const channelKindParamSchema = channelKindSchema.brand<"ChannelKind">();
export type ChannelKind = z.infer<typeof channelKindParamSchema>;

/** The webhook id of a page's URL, or null when it is not a UUID. */
export function parseWebhookId(value: string): WebhookId | null {
  const result = webhookIdSchema.safeParse(value);
  return result.success ? result.data : null;
}
