"use client";

import { useNow } from "@/lib/browser/use-now";
import { timeStyleAt } from "@/lib/domain/format-time";
import { formatBucketLabel, formatBucketRange } from "@/lib/domain/health-text";

/**
 * A bucket's time as text, in the viewer's zone once mounted (UTC before): an axis `label` (the
 * clock, or the day) or the `range` it covers. Text only, so it fits in an SVG `<text>`.
 */
export function BucketTime({
  start,
  bucketMs,
  form,
}: {
  start: string;
  bucketMs: number;
  form: "label" | "range";
}) {
  const style = timeStyleAt(useNow());
  return form === "label"
    ? formatBucketLabel(start, bucketMs, style)
    : formatBucketRange(start, bucketMs, style);
}

/** A bar's SVG `<title>` (its tooltip): what it covers and its counts, as one string (a `<title>` holds only text). */
export function BucketTitle({
  start,
  bucketMs,
  success,
  failed,
}: {
  start: string;
  bucketMs: number;
  success: number;
  failed: number;
}) {
  const range = formatBucketRange(start, bucketMs, timeStyleAt(useNow()));
  return <title>{`${range}: ${success} succeeded, ${failed} failed`}</title>;
}
