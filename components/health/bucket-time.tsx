import { timeStyleAt } from "@/lib/domain/format-time";
import { formatBucketLabel, formatBucketRange } from "@/lib/domain/health-text";

type BucketForm = "label" | "range";

function bucketText(start: string, bucketMs: number, form: BucketForm, now: number): string {
  const style = timeStyleAt(now);
  return form === "label"
    ? formatBucketLabel(start, bucketMs, style)
    : formatBucketRange(start, bucketMs, style);
}

/**
 * What `localizeBucketTimes` reads to write a bucket's time again in the viewer's zone: its start,
 * its length, its form, and the text that follows the time (`after`).
 */
function bucketData(start: string, bucketMs: number, form: BucketForm, after = "") {
  return {
    "data-bucket-time": form,
    "data-start": start,
    "data-bucket-ms": bucketMs,
    ...(after ? { "data-after": after } : {}),
  };
}

/**
 * A bucket's time, written on the server in UTC and again in the viewer's zone by the region
 * (`localizeBucketTimes`): an axis `label` (the clock, or the day; an SVG `<tspan>`) or the
 * `range` it covers.
 */
export function BucketTime({ start, bucketMs, form }: { start: string; bucketMs: number; form: BucketForm }) {
  const text = bucketText(start, bucketMs, form, 0);
  const data = bucketData(start, bucketMs, form);
  // The SVG's axis takes a <tspan>; a range is no one moment, so not a <time>.
  return form === "label" ? <tspan {...data}>{text}</tspan> : <span {...data}>{text}</span>;
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
  const after = `: ${success} succeeded, ${failed} failed`;
  return (
    <title {...bucketData(start, bucketMs, "range", after)}>
      {`${bucketText(start, bucketMs, "range", 0)}${after}`}
    </title>
  );
}

/** Writes every BucketTime and BucketTitle inside `container` as it is written on `now`. */
export function localizeBucketTimes(container: ParentNode, now: number): void {
  for (const element of container.querySelectorAll<HTMLElement | SVGElement>("[data-bucket-time]")) {
    const { bucketTime, start, bucketMs, after } = element.dataset;
    element.textContent = bucketText(start!, Number(bucketMs), bucketTime as BucketForm, now) + (after ?? "");
  }
}
