import { scaleBand, scaleLinear } from "d3-scale";
import { useId } from "react";
import type { HealthBucket } from "@/lib/domain/history/health";
import { BucketTime, BucketTitle } from "@/components/health/bucket-time";

const WIDTH = 640;
const HEIGHT = 130;
const MARGIN = { top: 8, right: 8, bottom: 22, left: 32 };

/**
 * Attempts over time, Success and Failed stacked per bucket, drawn on the server (plain SVG, no
 * script). Readable without colour: Failed is hatched and drawn above Success, and the legend says
 * so. Each bar links to its deliveries in the table. For assistive technology the chart is one
 * sentence (its summary); the numbers and the same links are in the table beside it.
 */
export function AttemptsChart({
  buckets,
  bucketMs,
  summary,
  bucketHref,
}: {
  buckets: HealthBucket[];
  bucketMs: number;
  /** The chart's text alternative. */
  summary: string;
  /** The table's view of a bucket's deliveries. */
  bucketHref: (bucket: HealthBucket) => string;
}) {
  const hatch = useId();
  const x = scaleBand<string>()
    .domain(buckets.map((bucket) => bucket.start))
    .rangeRound([MARGIN.left, WIDTH - MARGIN.right])
    .paddingInner(0.15);
  const max = Math.max(1, ...buckets.map((bucket) => bucket.success + bucket.failed));
  const y = scaleLinear()
    .domain([0, max])
    .nice(4)
    .rangeRound([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const ticks = y.ticks(4).filter(Number.isInteger);
  const labelled = [buckets[0], buckets[Math.floor(buckets.length / 2)], buckets[buckets.length - 1]];

  return (
    <figure className="space-y-1">
      {/* Read as one sentence; the bars' links are the mouse's way to the table's own links. */}
      <p className="sr-only">{summary}</p>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        aria-hidden="true"
        className="h-auto w-full text-zinc-500 dark:text-zinc-400"
      >
        <defs>
          <pattern
            id={hatch}
            width="6"
            height="6"
            patternUnits="userSpaceOnUse"
            patternTransform="rotate(45)"
          >
            <rect width="6" height="6" className="fill-red-600 dark:fill-red-400" />
            <line
              x1="0"
              y1="0"
              x2="0"
              y2="6"
              strokeWidth="3"
              className="stroke-red-900 dark:stroke-red-950"
            />
          </pattern>
        </defs>
        {ticks.map((tick) => (
          <g key={tick} aria-hidden="true">
            <line
              x1={MARGIN.left}
              x2={WIDTH - MARGIN.right}
              y1={y(tick)}
              y2={y(tick)}
              stroke="currentColor"
              strokeOpacity={0.25}
            />
            <text
              x={MARGIN.left - 4}
              y={y(tick)}
              dy="0.32em"
              textAnchor="end"
              fontSize="10"
              fill="currentColor"
            >
              {tick}
            </text>
          </g>
        ))}
        {buckets.map((bucket) => {
          const left = x(bucket.start) ?? 0;
          const width = x.bandwidth();
          const successTop = y(bucket.success);
          // A bucket with failures shows at least a pixel of them, however few.
          const failedTop = Math.min(
            y(bucket.success + bucket.failed),
            successTop - (bucket.failed > 0 ? 1 : 0),
          );
          return (
            <a
              key={bucket.start}
              href={bucketHref(bucket)}
              tabIndex={-1}
              className="hover:opacity-80"
              data-bucket={bucket.start}
            >
              <BucketTitle
                start={bucket.start}
                bucketMs={bucketMs}
                success={bucket.success}
                failed={bucket.failed}
              />
              <rect
                x={left}
                width={width}
                y={MARGIN.top}
                height={HEIGHT - MARGIN.bottom - MARGIN.top}
                fill="transparent"
              />
              {bucket.success > 0 ? (
                <rect
                  x={left}
                  width={width}
                  y={successTop}
                  height={y(0) - successTop}
                  className="fill-emerald-600 dark:fill-emerald-400"
                />
              ) : null}
              {bucket.failed > 0 ? (
                <rect
                  x={left}
                  width={width}
                  y={failedTop}
                  height={successTop - failedTop}
                  fill={`url(#${hatch})`}
                />
              ) : null}
            </a>
          );
        })}
        {labelled.map((bucket, index) =>
          bucket ? (
            <text
              key={`${index}-${bucket.start}`}
              x={(x(bucket.start) ?? 0) + x.bandwidth() / 2}
              y={HEIGHT - 6}
              fontSize="10"
              textAnchor={index === 0 ? "start" : index === 2 ? "end" : "middle"}
              fill="currentColor"
              aria-hidden="true"
            >
              <BucketTime start={bucket.start} bucketMs={bucketMs} form="label" />
            </text>
          ) : null,
        )}
      </svg>
      <figcaption className="flex flex-wrap gap-x-4 text-xs text-zinc-700 dark:text-zinc-300">
        <span className="inline-flex items-center gap-1.5">
          <span
            aria-hidden="true"
            className="inline-block size-3 rounded-sm bg-emerald-600 dark:bg-emerald-400"
          />
          Success (solid, below)
        </span>
        <span className="inline-flex items-center gap-1.5">
          <svg aria-hidden="true" className="size-3" viewBox="0 0 12 12">
            <rect width="12" height="12" fill={`url(#${hatch})`} />
          </svg>
          Failed (hatched, above)
        </span>
        <span className="max-sm:hidden">A bar lists its deliveries.</span>
      </figcaption>
    </figure>
  );
}

/** The chart's box while its answer is being made: the chart's proportions and its legend's line. */
export function ChartPlaceholder() {
  return (
    <div className="space-y-1">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-auto w-full rounded-sm bg-zinc-100 dark:bg-zinc-800/60"
      />
      <p className="text-xs">&nbsp;</p>
    </div>
  );
}
