import "server-only";
import { headers } from "next/headers";

/** The header Next puts on a Server Action's request; the page rendered in its answer sees it too. */
const SERVER_ACTION_HEADER = "next-action";

/**
 * True while a page renders in answer to its Auto-refresh (the page's one Server Action, which
 * refreshes it): its hub reads are polls, which one read a few seconds old may answer for every
 * viewer (shared-reads.ts), as the browser's polls of the API are. A person's own navigation or
 * Refresh is never one.
 */
export async function isAutoRefresh(): Promise<boolean> {
  return (await headers()).has(SERVER_ACTION_HEADER);
}
