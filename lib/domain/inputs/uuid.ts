import { z } from "zod/mini";
import { findUuid, isUuidShape } from "@/lib/domain/api-limits";
import { fieldMessage } from "@/lib/domain/inputs/field-message";
import { notBlank, textInput } from "@/lib/domain/inputs/text";

const EXAMPLE = "3f2b6c1e-8d4a-4f0b-9c2d-1a2b3c4d5e6f";

/**
 * An ID the hub gives (a UUID) as a person types, pastes or links it: any case, with spaces
 * around it. The value is trimmed and lowercase, so one ID has one spelling everywhere.
 */
export function uuidInput(label: string) {
  return textInput(label, "enter it.").check(
    z.trim(),
    z.toLowerCase(),
    notBlank(label, "enter it."),
    z.refine<string>(isUuidShape, {
      error: fieldMessage(
        label,
        `enter a UUID: 32 hexadecimal digits in groups of 8-4-4-4-12, like ${EXAMPLE}.`,
      ),
    }),
  );
}

export const webhookIdInput = uuidInput("Webhook ID");
export const logIdInput = uuidInput("Log ID");

/** A pasted console or dashboard link stands for the first UUID in it. */
function idOfLink(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  const value = raw.trim();
  const isLink = /^https?:\/\//i.test(value) || value.startsWith("/");
  return isLink ? (findUuid(value) ?? value) : value;
}

/** What the Open box takes: a webhook ID, or a link whose path holds one. */
export const webhookIdOrLinkInput = z.pipe(z.transform(idOfLink), webhookIdInput);
