"use client";

import { useRouter } from "next/navigation";
import { PrefetchKind } from "next/dist/client/components/router-reducer/router-reducer-types";
import { useEffect } from "react";
import { useAfterLoad } from "@/lib/browser/use-after-load";

type Router = ReturnType<typeof useRouter>;

/**
 * Prefetches a view of the webhook's page in full, rows and all (the page is dynamic: Next's own
 * prefetch of it would stop at its first loading boundary), for `staleTimes.static`
 * (next.config.mjs), so that going there answers from the router's cache.
 */
export function prefetchView(router: Router, href: string): void {
  router.prefetch(href, { kind: PrefetchKind.FULL });
}

/**
 * Prefetches the view a person most likely opens next (the next page of the table) once this one
 * has loaded and the browser is idle, so that it takes nothing from the page's own first load. A
 * `<Link prefetch>` does the same only once scrolled into view, and the pager is below the rows.
 */
export function PrefetchView({ href }: { href: string }) {
  const router = useRouter();
  const afterLoad = useAfterLoad();
  useEffect(() => {
    if (afterLoad) prefetchView(router, href);
  }, [afterLoad, href, router]);
  return null;
}
