import { z } from "zod/mini";
import { fieldMessage, tooLongMessage } from "@/lib/domain/inputs/field-message";

/** A check that refuses text longer than `max` characters, saying by how much. */
export function maxChars(label: string, max: number) {
  return z.maxLength(max, {
    error: (issue) =>
      tooLongMessage(label, max, typeof issue.input === "string" ? issue.input.length : max + 1),
  });
}

/** A check that refuses blank text (empty or only spaces) with `what` to do. */
export function notBlank(label: string, what: string) {
  return z.refine<string>((value) => value.trim() !== "", { error: fieldMessage(label, what), abort: true });
}

/** A text input that must be given: not a string at all reads as missing. */
export function textInput(label: string, whenMissing: string) {
  return z.string({ error: fieldMessage(label, whenMissing) });
}
