"use client";

import { historySourceText, type HistorySource } from "@/lib/domain/history/answer-source";
import { formatExactUtc, timeStyleAt } from "@/lib/domain/format-time";
import { useClock } from "@/components/overview/use-clock";

/**
 * Which part of the console answered: "From the watch, as of 12 s ago" (its age kept current),
 * or "Scanned from the hub: …" with why the watch did not answer.
 */
export function HistorySourceLine({ source }: { source: HistorySource }) {
  const now = useClock(5000);
  const asOf = source.from === "watch" ? source.asOf : null;
  return (
    <p className="text-xs text-zinc-600 dark:text-zinc-400">
      {asOf ? (
        <time dateTime={asOf} title={formatExactUtc(asOf, timeStyleAt(now))}>
          {/* Before mount there is no clock: the age counts from the answer's own time. */}
          {historySourceText(source, now || Date.parse(asOf))}
        </time>
      ) : (
        historySourceText(source, now)
      )}
    </p>
  );
}
