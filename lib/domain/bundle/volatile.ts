/**
 * Values that change on every delivery (ids, UUIDs, timestamps, counters that look like ids):
 * a difference in them says nothing about what broke, so the comparison marks them for the UI
 * to dim.
 */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO_TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
/** Epoch seconds or milliseconds (10 or 13 digits), long hex ids, and other runs of 6+ digits. */
const ID_NUMBER = /\b(?:\d{13}|\d{10}|[0-9a-f]{16,}|\d{6,})\b/gi;
const VOLATILE_KEY = new RegExp(
  "^(?:id|.*[_-]id|.*Id|.*ID|uuid|guid|nonce|etag|timestamp|time|ts|date|created|updated|expires?|" +
    ".*[_-]at|.*At|(?:request|trace|span|correlation)[_-]?id)$",
);

/** True when the key names something that changes on every delivery (`id`, `requestId`, `createdAt`). */
export function isVolatileKey(key: string): boolean {
  return VOLATILE_KEY.test(key);
}

/** The text with every volatile token replaced by a placeholder, so two texts can be compared without them. */
export function withoutVolatile(text: string): string {
  return text.replace(UUID, "<uuid>").replace(ISO_TIME, "<time>").replace(ID_NUMBER, "<id>");
}

/** True when the value as a whole is an id or a timestamp. */
export function isVolatileValue(value: unknown): boolean {
  if (typeof value === "number") return Number.isInteger(value) && Math.abs(value) >= 100_000;
  if (typeof value !== "string" || value === "") return false;
  const placeholder = withoutVolatile(value);
  return placeholder !== value && placeholder.replace(/<(?:uuid|time|id)>/g, "").trim().length <= 2;
}
