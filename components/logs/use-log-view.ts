import { useQueryState, useQueryStates } from "nuqs";
import { useMemo } from "react";
import { logViewParsers, shownRowsParsers, withoutConflicts } from "@/lib/domain/search-params";

const PUSH = { history: "push" } as const;

/**
 * The log view's state and its setter, in the URL (the only copy) through nuqs. A change shows at
 * once in every reader and is a new history entry; opening or closing a delivery's details
 * replaces the entry instead (`setView({ log }, { history: "replace" })`). Its reader re-renders
 * on any change of the view: a part that needs less reads less (below).
 */
export function useLogView() {
  const [values, setView] = useQueryStates(logViewParsers, PUSH);
  const view = useMemo(() => withoutConflicts(values), [values]);
  return [view, setView] as const;
}

/**
 * The keys that choose which rows the table shows, and their setter: for a part that filters or
 * opens rows without showing them. What a callback needs of the view it reads when it runs
 * (`setView((view) => …)`), so the part re-renders only when one of these keys changes.
 */
export function useShownRows() {
  return useQueryStates(shownRowsParsers, PUSH);
}

/** The application the page shows (`?app=`): a reader of it alone does not re-render on a filter. */
export function useViewApplication() {
  return useQueryState("app", logViewParsers.app)[0];
}
