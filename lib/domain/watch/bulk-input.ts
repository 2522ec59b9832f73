/**
 * What a person pastes on the Watch page: webhook IDs one per line, or a CSV of `id,name` (a
 * header line `id,name` is allowed; a name with a comma is quoted, as spreadsheets write it).
 * Each line is read on its own, so one bad line is reported and the others still count.
 */
import { isUuidShape } from "@/lib/domain/api-limits";

/** Longest name of a watch (a customer's name, say), in characters. */
export const WATCH_NAME_MAX = 120;
/** Most lines one paste may hold: each is checked with the hub. */
export const BULK_LINES_MAX = 200;

export type BulkLine =
  | { line: number; ok: true; webhookId: string; name: string }
  | { line: number; ok: false; text: string; problem: string };

/** The cells of one CSV line: commas split, double quotes group, `""` is a quote. */
function csvCells(text: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      cells.push(cell);
      cell = "";
    } else cell += char;
  }
  cells.push(cell);
  return cells.map((value) => value.trim());
}

const HEADER = /^(webhook[ _-]?)?id$/i;

/** The non-empty lines of a paste, numbered as the person sees them (from 1). */
export function parseBulkInput(text: string): BulkLine[] {
  const lines: BulkLine[] = [];
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    const [first = "", ...rest] = csvCells(raw);
    if (lines.length === 0 && HEADER.test(first)) return;
    const name = rest.join(", ").trim();
    const bad = (problem: string) => lines.push({ line, ok: false, text: raw.trim(), problem });
    if (!isUuidShape(first)) return bad("is not a webhook ID (a UUID, 8-4-4-4-12 hex digits)");
    if (name.length > WATCH_NAME_MAX) return bad(`has a name over ${WATCH_NAME_MAX} characters`);
    const webhookId = first.toLowerCase();
    const earlier = seen.get(webhookId);
    if (earlier !== undefined) return bad(`repeats the webhook of line ${earlier}`);
    seen.set(webhookId, line);
    lines.push({ line, ok: true, webhookId, name });
  });
  return lines;
}
/** What the Watch page's paste did, line by line. */
export interface BulkOutcome {
  /** The line's number in the paste (from 1). */
  line: number;
  /** The webhook ID, or the line as pasted when it is not one. */
  text: string;
  /** watched: kept now; already: was watched (its name updated when one was given); refused: not kept. */
  status: "watched" | "already" | "refused";
  /** Why it was refused, or the name it is watched under (and, when renamed, what it was). */
  message: string;
  /** already: the name it had, when the line gave it another. */
  renamedFrom?: string;
  webhookId?: string;
  appId?: string;
}

/**
 * What a paste changed, counted apart: "1 newly watched, 2 already watched (1 renamed), 0 refused".
 * A webhook watched before is not counted as watched now, even when its name changed.
 */
export function bulkSummary(outcomes: readonly BulkOutcome[]): string {
  const count = (status: BulkOutcome["status"]) => outcomes.filter((o) => o.status === status).length;
  const renamed = outcomes.filter((o) => o.renamedFrom !== undefined).length;
  return (
    `${count("watched")} newly watched, ${count("already")} already watched` +
    `${renamed ? ` (${renamed} renamed)` : ""}, ${count("refused")} refused`
  );
}
