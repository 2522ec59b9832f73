"use client";

import { useHydrated } from "@/lib/browser/use-hydrated";
import { formatLocal, formatUtc } from "@/lib/domain/format-time";

/**
 * A timestamp in the viewer's time zone, with the exact UTC time on hover. The server (and the
 * hydration pass) render UTC, which the server can know; the local time replaces it after mount.
 */
export function LocalTime({ iso, className }: { iso: string; className?: string }) {
  const hydrated = useHydrated();
  const utc = formatUtc(iso);
  return (
    <time dateTime={iso} title={utc} className={className}>
      {hydrated ? formatLocal(iso) : utc}
    </time>
  );
}
