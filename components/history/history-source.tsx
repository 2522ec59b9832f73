"use client";

import { historySourceText, type HistorySource } from "@/lib/domain/history/answer-source";
import { formatExactUtc, timeStyleAt } from "@/lib/domain/format-time";
import { useClock } from "@/components/overview/use-clock";

/**
 * What the answer covers: "From the watch, as of 12 s ago; all 1,204 deliveries" (its age kept
 * current), or the console's copy, and whether the answer is exact.
 */
export function HistorySourceLine({ source }: { source: HistorySource }) {
  const now = useClock(5000);
  return (
    <p className="text-xs text-zinc-600 dark:text-zinc-400">
      <time dateTime={source.asOf} title={formatExactUtc(source.asOf, timeStyleAt(now))}>
        {/* Before mount there is no clock: the age counts from the answer's own time. */}
        {historySourceText(source, now || Date.parse(source.asOf))}
      </time>
    </p>
  );
}
