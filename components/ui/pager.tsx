import Link from "next/link";
import type { ReactNode } from "react";
import { formatCount } from "@/lib/domain/format-count";

/**
 * First/previous/next/last page and where you are (on a phone, arrows only: `.pager` in
 * app/globals.css). Each is a link to its page (`hrefFor`, pages counting from 1); one that leads
 * nowhere is a disabled link. The next page is prefetched, so it shows at once.
 */
export function Pager({
  label,
  page,
  pageSize,
  total,
  noun,
  hrefFor,
}: {
  /** The navigation landmark's name, e.g. "Log pages". */
  label: string;
  page: number;
  pageSize: number;
  total: number;
  /** What is counted, in the plural: "Showing 1–20 of 312 deliveries". */
  noun: string;
  hrefFor: (page: number) => string;
}) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, total);
  const where =
    total === 0
      ? `No ${noun}`
      : first > total
        ? `Past the last page: ${formatCount(total)} ${noun} in all`
        : `Showing ${first}–${last} of ${formatCount(total)} ${noun}`;
  return (
    <nav aria-label={label} className="pager flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-zinc-700 dark:text-zinc-300">{where}</p>
      <div className="flex items-center gap-1.5">
        <PageLink href={hrefFor(1)} disabled={page <= 1}>
          <span aria-hidden="true">«</span> First page
        </PageLink>
        {/* Past the end, the page before is the last one. */}
        <PageLink href={hrefFor(Math.min(page - 1, pageCount))} disabled={page <= 1}>
          <span aria-hidden="true">‹</span> Previous page
        </PageLink>
        <span className="px-2 whitespace-nowrap tabular-nums" aria-live="polite">
          Page {page} of {pageCount}
        </span>
        <PageLink href={hrefFor(page + 1)} disabled={page >= pageCount} prefetch>
          Next page <span aria-hidden="true">›</span>
        </PageLink>
        <PageLink href={hrefFor(pageCount)} disabled={page === pageCount}>
          Last page <span aria-hidden="true">»</span>
        </PageLink>
      </div>
    </nav>
  );
}

function PageLink({
  href,
  disabled,
  prefetch = false,
  children,
}: {
  href: string;
  disabled: boolean;
  prefetch?: boolean;
  children: ReactNode;
}) {
  if (disabled) {
    return (
      <a role="link" aria-disabled="true" className="btn btn-secondary">
        {children}
      </a>
    );
  }
  return (
    <Link href={href} prefetch={prefetch} className="btn btn-secondary">
      {children}
    </Link>
  );
}
