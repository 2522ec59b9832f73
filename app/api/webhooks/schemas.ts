import { z } from "zod";
import { idSchema } from "@/lib/domain/hub-schemas";

/** Path parameters of `/api/webhooks/{webhookId}/…`. Strict: a UUID, nothing else reaches the hub. */
export const webhookParamsSchema = z.strictObject({ webhookId: idSchema });

export const webhookLogParamsSchema = z.strictObject({ webhookId: idSchema, logId: idSchema });
