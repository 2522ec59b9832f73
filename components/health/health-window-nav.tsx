"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { DEFAULT_HEALTH_WINDOW, HEALTH_WINDOWS, type HealthWindow } from "@/lib/domain/history/health";

export const WINDOW_LABELS: Record<HealthWindow, string> = { "1h": "1 h", "24h": "24 h", "7d": "7 d" };

/**
 * The window picks of Delivery health: the page's `?health=`, keeping the table's view as the URL
 * has it now (status, filters, page), closing an open delivery. A client part because the
 * answer is a layout, which is not rendered again when only the table's view changes.
 */
export function HealthWindowNav({ window }: { window: HealthWindow }) {
  const pathname = usePathname();
  const search = useSearchParams();
  const hrefOf = (pick: HealthWindow) => {
    const next = new URLSearchParams(search);
    if (pick === DEFAULT_HEALTH_WINDOW) next.delete("health");
    else next.set("health", pick);
    next.delete("log");
    const query = next.toString();
    return query ? `${pathname}?${query}` : pathname;
  };
  return (
    <nav className="flex items-center gap-2 text-sm" aria-label="Health window">
      <span className="font-medium">Last</span>
      {(Object.keys(HEALTH_WINDOWS) as HealthWindow[]).map((pick) => (
        <Link
          key={pick}
          href={hrefOf(pick)}
          prefetch={false}
          scroll={false}
          aria-current={pick === window ? "true" : undefined}
          className="btn btn-small aria-[current=true]:border-blue-700 aria-[current=true]:bg-blue-700 aria-[current=true]:text-white dark:aria-[current=true]:border-blue-400 dark:aria-[current=true]:bg-blue-400 dark:aria-[current=true]:text-zinc-950"
        >
          {WINDOW_LABELS[pick]}
        </Link>
      ))}
    </nav>
  );
}
