import { apiRequest } from "@/lib/browser/api";

/**
 * The browser's calls of the watch routes (`/api/watches/**`). Each names the page's application
 * through `apiRequest` (its `?app=`), so a watch is kept under the key the page reads with.
 */

/** A watch as the routes answer it: which webhook, under which application, and its name. */
export interface WatchSummary {
  webhookId: string;
  appId: string;
  name: string;
}

function watchPath(webhookId: string, rest = ""): string {
  return `/api/watches/${encodeURIComponent(webhookId)}${rest}`;
}

export async function startWatching(webhookId: string, name: string): Promise<WatchSummary> {
  return (
    await apiRequest<{ watch: WatchSummary }>("/api/watches", { method: "POST", body: { webhookId, name } })
  ).watch;
}

export async function renameWatch(webhookId: string, name: string): Promise<WatchSummary> {
  return (
    await apiRequest<{ watch: WatchSummary }>(watchPath(webhookId, "/name"), {
      method: "POST",
      body: { name },
    })
  ).watch;
}

export async function stopWatching(webhookId: string): Promise<void> {
  await apiRequest(watchPath(webhookId), { method: "DELETE" });
}
