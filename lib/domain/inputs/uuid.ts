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

/** What a page or an API error says of an address whose ID is no ID: what it is not, and what one looks like. */
export function notAnIdMessage(label: string, noun: string): string {
  return fieldMessage(
    label,
    `not a valid ${noun}, which is a UUID such as ${EXAMPLE}. Check the link, or copy it again from the console.`,
  );
}

/**
 * An ID in an address (a path segment of a page or of the API), taken in any case and with spaces
 * around it as `uuidInput` takes it. Nobody typed it into a field: what is wrong is the link.
 */
export function uuidParam(label: string, noun: string) {
  const message = notAnIdMessage(label, noun);
  return z
    .string({ error: message })
    .check(z.trim(), z.toLowerCase(), z.refine<string>(isUuidShape, { error: message }));
}

export const webhookIdParam = uuidParam("Webhook ID", "webhook ID");
export const logIdParam = uuidParam("Log ID", "log ID");

/** A pasted console or dashboard link stands for the first UUID in it. */
function idOfLink(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  const value = raw.trim();
  const isLink = /^https?:\/\//i.test(value) || value.startsWith("/");
  return isLink ? (findUuid(value) ?? value) : value;
}

/** What the Open box takes: a webhook ID, or a link whose path holds one. */
export const webhookIdOrLinkInput = z.pipe(z.transform(idOfLink), webhookIdInput);
