import {
  formatExactUtc,
  formatRelative,
  formatShortTime,
  formatTimestamp,
  timeStyleAt,
} from "@/lib/domain/format-time";

/**
 * How a moment is shown: `full` (date, time with seconds, zone), `short` (the time alone today), or
 * `relative` (how long ago when under a day, else the full form).
 */
export type MomentForm = "full" | "short" | "relative";

function momentText(iso: string, form: MomentForm, now: number, asOf = 0): string {
  const style = timeStyleAt(now);
  const clock = now || asOf;
  if (form === "short") return formatShortTime(iso, clock, style);
  return (form === "relative" && clock && formatRelative(iso, clock)) || formatTimestamp(iso, style);
}

/**
 * A moment as a `<time>` written on `now` (the browser's clock; 0 on the server and while
 * hydrating: UTC, which the server can know), the exact UTC time its `title`. Rendered by LocalTime
 * in the browser, and on the server for lists whose times `localizeMoments` rewrites in one pass.
 * `asOf`, when the answer holding it was made, stands for `now` until there is one: "how long ago"
 * needs no zone, and the short form leaves out the date of the answer's day (in UTC), so the text
 * keeps its length when the browser writes it again.
 */
export function Moment({
  iso,
  form,
  now,
  asOf,
  className,
}: {
  iso: string;
  form: MomentForm;
  now: number;
  asOf?: number;
  className?: string;
}) {
  return (
    <time dateTime={iso} data-form={form} title={formatExactUtc(iso, timeStyleAt(now))} className={className}>
      {momentText(iso, form, now, asOf)}
    </time>
  );
}

/**
 * Rewrites every Moment inside `container` as it is written on `now`: what a list of server-rendered
 * rows does once, in place of a client component per time.
 */
export function localizeMoments(container: ParentNode, now: number): void {
  for (const time of container.querySelectorAll<HTMLTimeElement>("time[data-form]")) {
    const form = time.dataset.form as MomentForm;
    time.textContent = momentText(time.dateTime, form, now);
    time.title = formatExactUtc(time.dateTime, timeStyleAt(now));
  }
}
