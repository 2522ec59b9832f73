import type { HourlyCounts } from "@/lib/domain/watch/hourly-counts";

const BAR = 4;
const GAP = 1;
const HEIGHT = 20;

/** To a tenth of a pixel: enough for a 20-high bar. */
function tenths(value: number): number {
  return Math.round(value * 10) / 10;
}

/** A bar from `bottom` up to `top`: a vertical line as wide as the bar (its ends are square). */
function bar(x: number, bottom: number, top: number): string {
  return `M${x + BAR / 2} ${tenths(bottom)}V${tenths(top)}`;
}

/**
 * Deliveries of the last 24 h, one bar per hour (oldest left): its height the hour's attempts,
 * failed ones red on top of the successful ones. One path per colour, so 200 rows stay light. One
 * image for assistive technology, labelled with the totals the row's text also gives.
 */
export function Sparkline({
  hours,
  label,
}: {
  hours: Pick<HourlyCounts, "success" | "failed">;
  label: string;
}) {
  const totals = hours.success.map((success, index) => success + (hours.failed[index] ?? 0));
  const max = Math.max(1, ...totals);
  const width = totals.length * (BAR + GAP);
  let empty = "";
  let succeeded = "";
  let failed = "";
  totals.forEach((total, index) => {
    const x = index * (BAR + GAP);
    if (!total) {
      empty += bar(x, HEIGHT, HEIGHT - 1);
      return;
    }
    const height = Math.max(2, (total / max) * HEIGHT);
    const red = ((hours.failed[index] ?? 0) / total) * height;
    if (red) failed += bar(x, HEIGHT - height + red, HEIGHT - height);
    if (red < height) succeeded += bar(x, HEIGHT, HEIGHT - height + red);
  });
  return (
    <svg
      viewBox={`0 0 ${width} ${HEIGHT}`}
      width={width}
      height={HEIGHT}
      role="img"
      aria-label={label}
      className="shrink-0"
    >
      <g fill="none" strokeWidth={BAR}>
        {empty ? <path d={empty} className="stroke-zinc-300 dark:stroke-zinc-700" /> : null}
        {succeeded ? <path d={succeeded} className="stroke-emerald-600 dark:stroke-emerald-400" /> : null}
        {failed ? <path d={failed} className="stroke-red-600 dark:stroke-red-400" /> : null}
      </g>
    </svg>
  );
}
