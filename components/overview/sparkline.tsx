import type { HealthBucket } from "@/lib/domain/history/health";

const BAR = 4;
const GAP = 1;
const HEIGHT = 20;

/**
 * Deliveries of the last 24 h, one bar per hour (oldest left): its height the hour's attempts,
 * failed ones red on top of the successful ones. One image for assistive technology, labelled with
 * the totals the row's text also gives.
 */
export function Sparkline({ buckets, label }: { buckets: HealthBucket[]; label: string }) {
  const max = Math.max(1, ...buckets.map((bucket) => bucket.success + bucket.failed));
  const width = buckets.length * (BAR + GAP);
  return (
    <svg
      viewBox={`0 0 ${width} ${HEIGHT}`}
      width={width}
      height={HEIGHT}
      role="img"
      aria-label={label}
      className="shrink-0"
    >
      {buckets.map((bucket, index) => {
        const x = index * (BAR + GAP);
        const total = bucket.success + bucket.failed;
        const height = total ? Math.max(2, (total / max) * HEIGHT) : 1;
        const failed = total ? (bucket.failed / total) * height : 0;
        return (
          <g key={bucket.start}>
            <rect
              x={x}
              y={HEIGHT - height}
              width={BAR}
              height={height - failed}
              className={
                total ? "fill-emerald-600 dark:fill-emerald-400" : "fill-zinc-300 dark:fill-zinc-700"
              }
            />
            {failed ? (
              <rect
                x={x}
                y={HEIGHT - height}
                width={BAR}
                height={failed}
                className="fill-red-600 dark:fill-red-400"
              />
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
