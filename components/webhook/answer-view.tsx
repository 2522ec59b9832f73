"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useEffect } from "react";

/**
 * The webhook's answer (heading, health, issues) is a layout, which Next does not render again
 * when only the URL's search parameters change. Once the URL's `?health=` or `?issue=` differs
 * from what the answer was rendered for (the values as they were written, null when absent), it
 * asks the server for the whole page again. The values are compared as written: the view's
 * parsers (nuqs) stay out of the page's first load.
 */
export function AnswerView({ health, issue }: { health: string | null; issue: string | null }) {
  const router = useRouter();
  const search = useSearchParams();
  const [shownHealth, shownIssue] = [search.get("health"), search.get("issue")];
  // Asked again for every change of either side while they differ, not only when they start to:
  // an answer that arrives for a view already left must not leave the next one unrefreshed.
  useEffect(() => {
    if (shownHealth !== health || shownIssue !== issue) router.refresh();
  }, [shownHealth, shownIssue, health, issue, router]);
  return null;
}
