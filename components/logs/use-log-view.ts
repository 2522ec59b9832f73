import { useQueryStates } from "nuqs";
import { useMemo } from "react";
import { logViewParsers, withoutConflicts } from "@/lib/domain/search-params";

/**
 * The log view's state and its setter, in the URL (the only copy) through nuqs. A change shows at
 * once in every reader and is a new history entry; opening or closing a delivery's details
 * replaces the entry instead (`setView({ log }, { history: "replace" })`).
 */
export function useLogView() {
  const [values, setView] = useQueryStates(logViewParsers, { history: "push" });
  const view = useMemo(() => withoutConflicts(values), [values]);
  return [view, setView] as const;
}
