"use client";

import { useNow } from "@/lib/browser/use-now";
import { Moment, type MomentForm } from "@/components/ui/moment";

/**
 * A moment, written the console's one way (lib/domain/format-time.ts) in the viewer's locale and
 * zone (forms: components/ui/moment.tsx). The exact UTC time is its `title`. The server and the
 * hydration pass write UTC, which the server can know; the viewer's form replaces it after mount.
 */
export function LocalTime({
  iso,
  form = "full",
  asOf,
  className,
}: {
  iso: string;
  form?: MomentForm;
  /** When the answer holding it was made (ms since the epoch): see Moment. */
  asOf?: number;
  className?: string;
}) {
  return <Moment iso={iso} form={form} now={useNow()} asOf={asOf} className={className} />;
}
