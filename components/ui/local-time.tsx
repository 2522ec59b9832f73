"use client";

import { useNow } from "@/lib/browser/use-now";
import {
  formatExactUtc,
  formatRelative,
  formatShortTime,
  formatTimestamp,
  timeStyleAt,
} from "@/lib/domain/format-time";

/**
 * A moment, written the console's one way (lib/domain/format-time.ts) in the viewer's locale and
 * zone: `full` (date, time with seconds, zone), `short` (the time alone today), or `relative`
 * (how long ago when under a day, else the full form). The exact UTC time is its `title`. The
 * server and the hydration pass write UTC, which the server can know; the viewer's form replaces
 * it after mount.
 */
export function LocalTime({
  iso,
  form = "full",
  className,
}: {
  iso: string;
  form?: "full" | "short" | "relative";
  className?: string;
}) {
  const now = useNow();
  const style = timeStyleAt(now);
  const text =
    form === "short"
      ? formatShortTime(iso, now, style)
      : (form === "relative" && now && formatRelative(iso, now)) || formatTimestamp(iso, style);
  return (
    <time dateTime={iso} title={formatExactUtc(iso, style)} className={className}>
      {text}
    </time>
  );
}
