/**
 * The Messaging Hub API's limits and shapes, in plain TypeScript. The hub's resource schemas
 * (`hub-schemas.ts`, console and sandbox) and the input schemas (`inputs/`) both read them here.
 */

/** Webhook log `status` values (spec part 3). */
export const LOG_STATUSES = ["Success", "Failed"] as const;
export type LogStatus = (typeof LOG_STATUSES)[number];

/** `limit` of the log list: 20 by default, at most 50 (spec parts 4.2 and 8). */
export const LOG_LIMIT_DEFAULT = 20;
export const LOG_LIMIT_MAX = 50;

/** Longest recipient and text the console sends in a test message. */
export const MESSAGE_TO_MAX = 64;
export const MESSAGE_TEXT_MAX = 4096;
/** Longest text Find reads (a console link with its query fits easily); the header's box states it without loading the schema. */
export const FIND_INPUT_MAX = 2048;

/** A channel kind path segment: 1-32 lowercase letters, digits or dashes, starting with a letter. */
export const CHANNEL_KIND_PATTERN = "[a-z][a-z0-9\\-]{0,31}";
const CHANNEL_KIND = new RegExp(`^${CHANNEL_KIND_PATTERN}$`);

export function isChannelKind(value: string): boolean {
  return CHANNEL_KIND.test(value);
}

/** 8-4-4-4-12 hex digits. Not a strict RFC 9562 check: the real API's ids pass whatever their version nibble. */
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

export function isUuidShape(value: string): boolean {
  return UUID_SHAPE.test(value);
}

/** The first UUID-shaped run in a text (a pasted link), or null. */
export function findUuid(text: string): string | null {
  return UUID_ANYWHERE.exec(text)?.[0] ?? null;
}
