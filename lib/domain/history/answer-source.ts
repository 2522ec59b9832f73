/** What a history answer covers: the console's copy of the webhook's logs, as of when, and how much. */
import { formatAge } from "@/lib/domain/format-age";
import { formatCount } from "@/lib/domain/format-count";

export interface HistorySource {
  /** ISO time the copy was last brought up to date with the hub. */
  asOf: string;
  /** Watched: the watcher keeps the copy current; else the questions asked of it made it. */
  watched: boolean;
  /** Deliveries the copy holds from its newest on, without a gap. */
  logs: number;
  /** The copy holds every delivery back to the webhook's first (within the watch's retention). */
  complete: boolean;
  /** Responses cut at WATCH_BODY_CAP_BYTES where that could change the answer: not 0, it is not exact. */
  cutBodies: number;
}

/** The source as one line: "From the watch, as of 12 s ago; all 1,204 deliveries". */
export function historySourceText(source: HistorySource, now: number): string {
  const from = source.watched ? "From the watch" : "From the console's copy";
  const deliveries = source.logs === 1 ? "delivery" : "deliveries";
  const covers = source.complete
    ? `all ${formatCount(source.logs)} ${deliveries}`
    : `the ${formatCount(source.logs)} most recent ${deliveries}`;
  const cut =
    source.cutBodies > 0
      ? `; not exact: ${formatCount(source.cutBodies)} ${source.cutBodies === 1 ? "response is" : "responses are"} ` +
        "longer than the copy keeps (WATCH_BODY_CAP_BYTES), and text past the cut was not read"
      : "";
  return `${from}, as of ${formatAge(source.asOf, now)} ago; ${covers}${cut}`;
}

/** The header an export carries its source in, as JSON. */
export const HISTORY_SOURCE_HEADER = "x-history-source";

/** The source an export's header names; null when it names none. */
export function sourceInHeader(header: string | null): HistorySource | null {
  if (!header) return null;
  try {
    const source = JSON.parse(header) as HistorySource;
    return typeof source.asOf === "string" && !Number.isNaN(Date.parse(source.asOf)) ? source : null;
  } catch {
    return null;
  }
}
