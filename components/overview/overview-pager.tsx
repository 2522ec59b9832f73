"use client";

import { useQueryStates } from "nuqs";
import { formatCount } from "@/lib/domain/format-count";
import type { OverviewAnswer } from "@/lib/domain/watching/overview";
import { overviewSearchParams } from "@/components/overview/search-params";

/** Previous/next page of the overview's rows and where you are; each page is an entry of the browser's history. */
export function OverviewPager({ page, matched }: { page: OverviewAnswer["page"]; matched: number }) {
  const [, setView] = useQueryStates(overviewSearchParams, { history: "push" });
  const first = (page.number - 1) * page.size + 1;
  const last = Math.min(page.number * page.size, matched);
  const go = (number: number) => void setView({ page: number === 1 ? null : number });
  return (
    <nav aria-label="Overview pages" className="flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-zinc-700 dark:text-zinc-300">{`Showing ${first}–${last} of ${formatCount(matched)}`}</p>
      <div className="flex items-center gap-1.5">
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => go(page.number - 1)}
          disabled={page.number <= 1}
        >
          <span aria-hidden="true">‹</span> Previous page
        </button>
        <span className="px-2 whitespace-nowrap tabular-nums" aria-live="polite">
          Page {page.number} of {page.count}
        </span>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => go(page.number + 1)}
          disabled={page.number >= page.count}
        >
          Next page <span aria-hidden="true">›</span>
        </button>
      </div>
    </nav>
  );
}
