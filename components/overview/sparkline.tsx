import type { HealthBucket } from "@/lib/domain/history/health";

const BAR = 4;
const GAP = 1;
const HEIGHT = 20;

/** A bar from `bottom` up to `top`: a vertical line as wide as the bar (its ends are square). */
function bar(x: number, bottom: number, top: number): string {
  return `M${x + BAR / 2} ${+bottom.toFixed(1)}V${+top.toFixed(1)}`;
}

/**
 * Deliveries of the last 24 h, one bar per hour (oldest left): its height the hour's attempts,
 * failed ones red on top of the successful ones. One path per colour, so 200 rows stay light. One
 * image for assistive technology, labelled with the totals the row's text also gives.
 */
export function Sparkline({ buckets, label }: { buckets: HealthBucket[]; label: string }) {
  const max = Math.max(1, ...buckets.map((bucket) => bucket.success + bucket.failed));
  const width = buckets.length * (BAR + GAP);
  let empty = "";
  let succeeded = "";
  let failed = "";
  buckets.forEach((bucket, index) => {
    const x = index * (BAR + GAP);
    const total = bucket.success + bucket.failed;
    if (!total) {
      empty += bar(x, HEIGHT, HEIGHT - 1);
      return;
    }
    const height = Math.max(2, (total / max) * HEIGHT);
    const red = (bucket.failed / total) * height;
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
