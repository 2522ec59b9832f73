import { formatCount } from "@/lib/domain/format-count";

/**
 * The words of every input error: the field's label as the person sees it, then what to do
 * ("API key: enter at least 8 characters."). The same text reaches the form and the API's 400.
 */
export function fieldMessage(label: string, what: string): string {
  return `${label}: ${what}`;
}

/** A cap refused, never cut: how far over the input is. */
export function tooLongMessage(label: string, max: number, length: number): string {
  return fieldMessage(
    label,
    `shorten it to ${formatCount(max)} characters or fewer (it has ${formatCount(length)}).`,
  );
}

/** The field's hint for a cap ("Up to 4,096 characters."). */
export function capHint(max: number): string {
  return `Up to ${formatCount(max)} characters.`;
}
