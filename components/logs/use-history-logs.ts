import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { historyScanPath, isHistoryView } from "@/lib/domain/log-view";
import type { LogViewState } from "@/lib/domain/search-params";
import { useScan } from "@/lib/browser/use-scan";

const NO_ROWS: WebhookLog[] = [];

/**
 * The page of matches a view with history filters names, answered by the server from the
 * console's copy of the history (idle when the view has none, or until `ready`). While a new page
 * or question is answered, the last result's rows stay.
 */
export function useHistoryLogs(webhookId: string, view: LogViewState, ready = true) {
  const active = isHistoryView(view);
  const scan = useScan(active && ready ? historyScanPath(webhookId, view) : null);
  const result = scan.status === "done" ? scan.result : "previous" in scan ? scan.previous : null;
  return {
    active,
    scan,
    result,
    rows: result?.rows ?? NO_ROWS,
    total: result?.matches ?? 0,
    totalPages: result ? Math.ceil(result.matches / view.limit) : 0,
  };
}
