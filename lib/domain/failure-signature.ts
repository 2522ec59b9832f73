/**
 * The cause of a failed delivery, as failure issues group them: its status code (0 apart, as "no
 * connection") plus a signature of its response body with the volatile parts replaced, so that
 * "database connection lost, requestId req_3f2a…" and "…req_9b1c…" are one cause, not two.
 *
 * Pure and bounded: only the first SIGNATURE_INPUT_MAX characters of a body are read, and every
 * pattern is linear, so a huge or hostile body costs the same as a page of HTML.
 */

/** Characters of a body the signature reads; the rest of a long body does not change its cause. */
export const SIGNATURE_INPUT_MAX = 4096;
/** Characters of the normalized body kept to show a person. */
export const SIGNATURE_TEXT_MAX = 160;

/** Volatile parts with a shape of their own, replaced first (a UUID before its groups, a time before its numbers). */
const VOLATILE: ReadonlyArray<readonly [RegExp, string]> = [
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>"],
  // ISO 8601 times and dates: 2024-06-11T08:12:31.123Z, 2024-06-11 08:12, 2024-06-11.
  [/\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?/gi, "<time>"],
  // HTTP dates: Tue, 11 Jun 2024 08:12:31 GMT.
  [/\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT\b/g, "<time>"],
];

const ENTITY = /&(?:[a-z]{2,8}|#\d{1,7}|#x[0-9a-f]{1,6});/gi;
const TAG = /<[^<>]*>/g;
const SCRIPT_OR_STYLE = /<(script|style)\b[^<>]*>[^<]*<\/\1\s*>/gi;
/** A word of letters, digits, `_` and `-`: matched whole, so the test of each word stays linear. */
const WORD = /[A-Za-z0-9_-]+/g;

/** An id (8+ characters mixing letters and digits: req_3f2a9c1b, evt_01HZX…, a hex hash) or a word whose numbers vary. */
function volatileWord(word: string): string {
  if (!/\d/.test(word)) return word;
  if (word.length >= 8 && /[A-Za-z]/.test(word)) return "<id>";
  return word.replace(/\d+/g, "<n>");
}

/**
 * The body with markup and volatile parts removed and spaces collapsed: what two failures of one
 * cause have in common. HTML keeps its text only; an empty body is "".
 */
export function normalizeBody(body: string): string {
  let text = body.slice(0, SIGNATURE_INPUT_MAX);
  text = text.replace(SCRIPT_OR_STYLE, " ").replace(TAG, " ").replace(ENTITY, " ");
  for (const [pattern, replacement] of VOLATILE) text = text.replace(pattern, replacement);
  return text.replace(WORD, volatileWord).replace(/\s+/g, " ").trim();
}

/** A 53-bit string hash (cyrb53), as 14 hex digits: short enough for an index, wide enough for causes. */
function hash53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, "0");
}

export interface FailureCause {
  statusCode: number;
  /** Hash of the normalized body: with the status code, the key of one failure issue of a webhook. */
  signature: string;
  /** The normalized body, cut to SIGNATURE_TEXT_MAX characters, to show a person ("" when empty). */
  text: string;
}

/** The cause of one failed delivery. */
export function failureCause(statusCode: number, body: string): FailureCause {
  const normalized = normalizeBody(body);
  const text =
    normalized.length > SIGNATURE_TEXT_MAX ? `${normalized.slice(0, SIGNATURE_TEXT_MAX - 1)}…` : normalized;
  return { statusCode, signature: hash53(normalized), text };
}
