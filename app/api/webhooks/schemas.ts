import { z } from "zod";
import { logIdInput } from "@/lib/domain/inputs/uuid";
import { webhookIdSchema } from "@/lib/server/hub/path-params";

/** Path parameters of `/api/webhooks/{webhookId}/…`. Strict: a UUID, nothing else reaches the hub. */
export const webhookParamsSchema = z.strictObject({ webhookId: webhookIdSchema });

export const webhookLogParamsSchema = z.strictObject({ webhookId: webhookIdSchema, logId: logIdInput });
