import { z } from "zod";
import { logIdParam } from "@/lib/domain/inputs/uuid";
import { webhookIdParamSchema } from "@/lib/server/hub/path-params";

/** Path parameters of `/api/webhooks/{webhookId}/…`. Strict: a UUID, nothing else reaches the hub. */
export const webhookParamsSchema = z.strictObject({ webhookId: webhookIdParamSchema });

export const webhookLogParamsSchema = z.strictObject({ webhookId: webhookIdParamSchema, logId: logIdParam });
