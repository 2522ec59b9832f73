import { z } from "zod/mini";
import { apiKeyInput, NEW_API_KEY_LABEL } from "@/lib/domain/inputs/api-key";
import { applicationIdInput } from "@/lib/domain/inputs/application";
import { fieldMessage } from "@/lib/domain/inputs/field-message";

/** What the hand-over of an application's stored data to a new key takes (lib/domain/watch/hand-over.ts). */

/** The most destinations one choice may name (far above what an application has). */
export const KEEP_DESTINATIONS_MAX = 500;

export const KEEP_DESTINATIONS_LABEL = "Alert destinations to keep";

/** The destinations the person keeps: ids from the plan; the others are removed. */
export const keepDestinationsInput = z.array(z.string().check(z.maxLength(64))).check(
  z.maxLength(KEEP_DESTINATIONS_MAX, {
    error: fieldMessage(KEEP_DESTINATIONS_LABEL, `choose at most ${KEEP_DESTINATIONS_MAX}.`),
  }),
);

/**
 * Replace key and Hand over key `{ app, apiKey, keepDestinations? }`: without `keepDestinations`
 * the answer lists what the new key would take over and nothing changes; with it, it is done.
 */
export const keyHandOverSchema = z.strictObject({
  app: applicationIdInput,
  apiKey: apiKeyInput(NEW_API_KEY_LABEL),
  keepDestinations: z.optional(keepDestinationsInput),
});

/** `POST /api/watches/hand-over`: carry what application `from` kept over to the request's application. */
export const carryOverSchema = z.strictObject({
  from: applicationIdInput,
  keepDestinations: keepDestinationsInput,
});
