import { z } from "zod";
import { isUuidShape } from "@/lib/domain/api-limits";
import { BULK_LINES_MAX, WATCH_NAME_MAX } from "@/lib/domain/watching/bulk-input";
import { webhookIdSchema } from "@/lib/server/hub/path-params";
import { apiKeySchema } from "@/app/api/session/schema";
import { applicationIdSchema } from "@/app/api/applications/schema";

/** The name of a watch (a customer's, say): trimmed, may be empty, at most WATCH_NAME_MAX characters. */
export const watchNameSchema = z
  .string({ error: "Name must be text" })
  .trim()
  .max(WATCH_NAME_MAX, `Name may be at most ${WATCH_NAME_MAX} characters`);

/** A webhook ID as a person types it: surrounding spaces trimmed. */
const webhookIdField = z
  .string({ error: "Webhook ID is required" })
  .trim()
  .refine(isUuidShape, "Webhook ID must be a UUID (8-4-4-4-12 hex digits), as the webhook's page shows it")
  .transform((id) => webhookIdSchema.parse(id));

export const watchOneSchema = z.strictObject({
  webhookId: webhookIdField,
  name: watchNameSchema.default(""),
});

/** What the Watch page pastes: IDs one per line, or a CSV of id,name. */
export const watchManySchema = z.strictObject({
  text: z
    .string({ error: "Webhook IDs are required" })
    .refine((text) => text.trim() !== "", "Webhook IDs are required: paste one ID per line, or id,name")
    .refine(
      (text) => text.split(/\r?\n/).filter((line) => line.trim() !== "").length <= BULK_LINES_MAX + 1,
      `Webhook IDs may hold at most ${BULK_LINES_MAX} lines at once; paste the rest in another round`,
    ),
});

export const renameWatchSchema = z.strictObject({
  name: watchNameSchema.pipe(
    z.string().min(1, "Name is required: give the watch a name, e.g. the customer's"),
  ),
});

export const watchParamsSchema = z.strictObject({ webhookId: webhookIdSchema });

/** A new key handed over for an application whose stored key the hub rejects. */
export const handOverSchema = z.strictObject({ app: applicationIdSchema, apiKey: apiKeySchema });
