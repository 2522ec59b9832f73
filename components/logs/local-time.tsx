"use client";

import { useNow } from "@/lib/browser/use-now";
import { formatLocal, formatRelative, formatUtc } from "@/lib/domain/format-time";

/**
 * A timestamp in the viewer's time zone (with `relative`, how long ago when under a day), with the
 * exact UTC time on hover. The server (and the hydration pass) render UTC, which the server can
 * know; the viewer's time replaces it after mount.
 */
export function LocalTime({
  iso,
  className,
  relative,
}: {
  iso: string;
  className?: string;
  relative?: boolean;
}) {
  const now = useNow();
  const utc = formatUtc(iso);
  return (
    <time dateTime={iso} title={utc} className={className}>
      {now ? (relative && formatRelative(iso, now)) || formatLocal(iso) : utc}
    </time>
  );
}
