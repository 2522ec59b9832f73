/**
 * Zod schemas of the Messaging Hub API's resources (spec part 2) and request bodies (part 4).
 *
 * This is the one module the console and the sandbox share. Upstream answers are parsed with
 * these, never cast; objects are `looseObject` so fields the spec does not show are kept.
 * Limits and id shapes come from `api-limits.ts`, which the browser's checks read too.
 */
import { z } from "zod";
import {
  CHANNEL_KIND_PATTERN,
  LOG_LIMIT_DEFAULT,
  LOG_LIMIT_MAX,
  LOG_STATUSES,
  MESSAGE_TEXT_MAX,
  MESSAGE_TO_MAX,
  isUuidShape,
} from "./api-limits";
import { fieldMessage } from "./inputs/field-message";

export const logStatusSchema = z.enum(LOG_STATUSES);

const NOT_A_UUID = "must be a UUID (8-4-4-4-12 hex digits)";
export const idSchema = z.string({ error: NOT_A_UUID }).refine(isUuidShape, NOT_A_UUID);

export const webhookSummarySchema = z.looseObject({
  id: idSchema,
  endpoint: z.string(),
  eventType: z.string(),
});
export type WebhookSummary = z.infer<typeof webhookSummarySchema>;

export const webhookSchema = z.looseObject({
  id: idSchema,
  endpoint: z.string(),
  eventType: z.string(),
  numberOfErrors: z.number().int().nonnegative(),
  active: z.boolean(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookLogSchema = z.looseObject({
  id: idSchema,
  webhookId: idSchema,
  /** HTTP status returned by the endpoint; 0 when no connection could be made. */
  statusCode: z.number().int().nonnegative(),
  responseBody: z.string(),
  status: logStatusSchema,
  sendAt: z.string(),
  createdDate: z.string(),
  /** Present when applicable (spec part 2). */
  messageId: idSchema.nullish(),
  webhook: webhookSummarySchema,
});
export type WebhookLog = z.infer<typeof webhookLogSchema>;

export const paginationSchema = z.looseObject({
  offset: z.number().int().nonnegative(),
  limit: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  totalPages: z.number().int().nonnegative(),
});
export type Pagination = z.infer<typeof paginationSchema>;

export const webhookLogPageSchema = z.looseObject({
  data: z.array(webhookLogSchema),
  pagination: paginationSchema,
});
export type WebhookLogPage = z.infer<typeof webhookLogPageSchema>;

/** Query of `GET /v1/organization/webhook/{id}/webhook-log` (spec part 4.2), strict. */
const OFFSET_WHAT = "give a whole number of 0 or more (how many logs to skip).";
const LIMIT_WHAT = `give a whole number from 1 to ${LOG_LIMIT_MAX} (logs per page).`;

export const webhookLogQuerySchema = z.strictObject({
  offset: z.coerce
    .number({ error: fieldMessage("offset", OFFSET_WHAT) })
    .int(fieldMessage("offset", OFFSET_WHAT))
    .min(0, fieldMessage("offset", OFFSET_WHAT))
    .max(Number.MAX_SAFE_INTEGER, fieldMessage("offset", `give a number up to ${Number.MAX_SAFE_INTEGER}.`))
    .default(0),
  limit: z.coerce
    .number({ error: fieldMessage("limit", LIMIT_WHAT) })
    .int(fieldMessage("limit", LIMIT_WHAT))
    .min(1, fieldMessage("limit", LIMIT_WHAT))
    .max(LOG_LIMIT_MAX, fieldMessage("limit", LIMIT_WHAT))
    .default(LOG_LIMIT_DEFAULT),
  status: z
    .enum(LOG_STATUSES, { error: fieldMessage("status", "give Success or Failed, or leave it out.") })
    .optional(),
});
export type WebhookLogQuery = z.infer<typeof webhookLogQuerySchema>;

/** The path segment naming a channel kind: lowercase letters, digits and dashes. */
export const channelKindSchema = z
  .string()
  .regex(
    new RegExp(`^${CHANNEL_KIND_PATTERN}$`),
    fieldMessage("channel_kind", "give 1-32 lowercase letters, digits or dashes, e.g. whatsapp."),
  );

/** Body of `POST /v1/communication/{channel_kind}/message` (spec part 4.1). */
export const sendMessageSchema = z.looseObject({
  from: idSchema,
  to: z
    .string({ error: fieldMessage("to", "give the recipient, e.g. a phone number.") })
    .trim()
    .min(1, fieldMessage("to", "give the recipient, e.g. a phone number."))
    .max(MESSAGE_TO_MAX, fieldMessage("to", `shorten it to ${MESSAGE_TO_MAX} characters or fewer.`)),
  content: z.looseObject({
    text: z
      .string({ error: fieldMessage("content.text", "give the message text.") })
      .max(
        MESSAGE_TEXT_MAX,
        fieldMessage("content.text", `shorten it to ${MESSAGE_TEXT_MAX} characters or fewer.`),
      )
      .refine(
        (text) => text.trim() !== "",
        fieldMessage("content.text", "give the message text (it is blank)."),
      ),
  }),
});
export type SendMessage = z.infer<typeof sendMessageSchema>;
