/**
 * How a delivery's `responseBody` is shown. It is whatever the customer endpoint answered:
 * JSON, HTML (with scripts), plain text, or hundreds of kilobytes of any of them. It is only
 * ever rendered as text; these helpers decide which text.
 */

/** Bodies above this are shown raw: pretty-printing them would block the page. */
export const PRETTY_PRINT_MAX_CHARS = 1_000_000;
const PREVIEW_MAX_CHARS = 120;

interface FormattedBody {
  /** What to show. */
  text: string;
  /** "json" when it parsed and was pretty-printed; "empty" for no body; else "raw". */
  kind: "json" | "raw" | "empty";
  /** Size of the body as the endpoint sent it, in UTF-8 bytes. */
  bytes: number;
  /** True when the body looked like JSON but was too large to pretty-print. */
  tooLargeToFormat: boolean;
}

export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

function looksLikeJson(trimmed: string): boolean {
  const first = trimmed[0];
  const last = trimmed[trimmed.length - 1];
  return (first === "{" && last === "}") || (first === "[" && last === "]");
}

export function formatBody(body: string): FormattedBody {
  const bytes = utf8Length(body);
  const trimmed = body.trim();
  if (trimmed === "") return { text: body, kind: "empty", bytes, tooLargeToFormat: false };
  if (!looksLikeJson(trimmed)) return { text: body, kind: "raw", bytes, tooLargeToFormat: false };
  if (body.length > PRETTY_PRINT_MAX_CHARS) return { text: body, kind: "raw", bytes, tooLargeToFormat: true };
  try {
    return {
      text: JSON.stringify(JSON.parse(trimmed), null, 2),
      kind: "json",
      bytes,
      tooLargeToFormat: false,
    };
  } catch {
    return { text: body, kind: "raw", bytes, tooLargeToFormat: false };
  }
}

/** One line for the table: whitespace collapsed, cut at `max` characters with an ellipsis. */
export function previewBody(body: string, max = PREVIEW_MAX_CHARS): string {
  // Only look at a bounded head of the body: a 1 MB body must not cost 1 MB of work per row.
  const head = body
    .slice(0, max * 4)
    .replace(/\s+/g, " ")
    .trim();
  if (head.length <= max && body.length <= max * 4) return head;
  return `${head.slice(0, max - 1).trimEnd()}…`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
