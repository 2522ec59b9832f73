/**
 * Which part of the console answered a history question (delivery health, the filtered table,
 * Find, an export): the watch's store, as of its last poll of the webhook, or a scan of the hub's
 * pages, with why the watch did not answer. Plain data, safe for client components.
 */
import { formatAge } from "@/lib/domain/watching/format-age";

export type HistorySource =
  /** `asOf`: ISO time of the watcher's last answered poll of the webhook. */
  | { from: "watch"; asOf: string }
  /** `why`: why the watch's store did not answer, said for a person. */
  | { from: "scan"; why: string };

/** The source as one line: "From the watch, as of 12 s ago" or "Scanned from the hub: …". */
export function historySourceText(source: HistorySource, now: number): string {
  if (source.from === "watch") return `From the watch, as of ${formatAge(source.asOf, now)} ago`;
  return `Scanned from the hub: ${source.why}`;
}

/** The header an export carries its source in (`watch; as-of=<ISO>` or `scan`). */
export const HISTORY_SOURCE_HEADER = "x-history-source";

export function historySourceHeader(source: HistorySource): string {
  return source.from === "watch" ? `watch; as-of=${source.asOf}` : "scan";
}

/** The time an export's header says the watch's store answered as of; null when a scan answered. */
export function watchAsOfInHeader(header: string | null): string | null {
  const asOf = header?.match(/^watch; as-of=(\S+)$/)?.[1];
  return asOf && !Number.isNaN(Date.parse(asOf)) ? asOf : null;
}
