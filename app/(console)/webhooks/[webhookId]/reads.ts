import "server-only";
import { cache } from "react";
import type { WebhookLog } from "@/lib/domain/hub-schemas";
import type { HealthWindow } from "@/lib/domain/history/health";
import { HEALTH_WINDOWS } from "@/lib/domain/history/health";
import type { ScanResultLine } from "@/lib/domain/scan-answer";
import type { FailureIssue } from "@/lib/domain/watch/failure-issue";
import type { Watch } from "@/lib/domain/watch/overview";
import { historyScanPath, isHistoryView, questionOfView, toApiQuery } from "@/lib/domain/log-view";
import { loadLogView } from "@/lib/domain/search-params";
import { AppError, isAppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { beginAnswer, beginHealth, findDelivery, narrowToIssue } from "@/lib/server/history/answer";
import { capPartial, copyReaches } from "@/lib/server/history/copy";
import { isAutoRefresh } from "@/lib/server/http/auto-refresh";
import { getWebhook, listWebhookLogs } from "@/lib/server/hub/client";
import type { WebhookId } from "@/lib/server/hub/path-params";
import { getSession } from "@/lib/server/session/session";
import { withStore } from "@/lib/server/store/context";
import { listIssues } from "@/lib/server/watch/failure-issues";
import { keyRejected, storeAccess } from "@/lib/server/watch/store-access";
import { getWatch } from "@/lib/server/watch/watches";
import { findInput } from "@/lib/domain/inputs/find-delivery";

/**
 * What the webhook page reads, once per request each (React's `cache`): the page and the parts
 * it streams (Suspense) share one read. Each answer says how it failed instead of throwing, so a
 * part that cannot be read says why in its place and the rest of the page stands.
 */

/** An error as a part of the page shows it. */
export interface PartFailure {
  status: number;
  message: string;
  retryAfter: number | null;
}

function failureOf(error: unknown): PartFailure {
  if (isAppError(error))
    return { status: error.status, message: error.message, retryAfter: error.retryAfter ?? null };
  console.error("[console] a part of the webhook page failed", error);
  return {
    status: 500,
    message: "The console failed while reading this part of the page.",
    retryAfter: null,
  };
}

/** The page's questions run to their end: a person leaving the page leaves what was copied for next time. */
const NEVER = new AbortController().signal;

const callOf = (appId: string, apiKey: string) => ({ apiKey, appId, signal: NEVER });

/** The webhook from the hub (an Auto-refresh's read is a poll). Throws the hub's AppError. */
export const readWebhook = cache(async (apiKey: string, webhookId: WebhookId) =>
  getWebhook({ apiKey, poll: await isAutoRefresh() }, webhookId),
);

/**
 * The ids of the session's applications whose stored data the page may read: not those whose key
 * is known rejected (store-access.ts).
 */
const storeAppIds = cache(async (): Promise<string[]> => {
  const session = await getSession();
  if (session.status !== "signed_in") return [];
  return (await storeAccess(session.data.applications)).allowed.map((app) => app.id);
});

/** Throws the hub's 401 when the stored data of `appId` (its history copy) may not be read. */
async function assertStoreApp(appId: string): Promise<void> {
  if ((await storeAppIds()).includes(appId)) return;
  const session = await getSession();
  const app =
    session.status === "signed_in" ? session.data.applications.find(({ id }) => id === appId) : null;
  throw app
    ? keyRejected(app)
    : new AppError("unauthorized", "Sign in again to read this webhook's history.");
}

/**
 * The webhook's watch under one of the session's applications whose stored data it may read, and
 * its failure issues; what the store could not say.
 */
export const readWatch = cache(
  async (
    webhookId: WebhookId,
  ): Promise<{ watch: Watch | null; issues: FailureIssue[]; failure: string | null }> => {
    try {
      const appIds = await storeAppIds();
      const [watch, issues] = await withStore((ctx) =>
        Promise.all([getWatch(ctx, appIds, webhookId), listIssues(ctx, appIds, { webhookId })]),
      );
      return { watch, issues, failure: null };
    } catch (error) {
      return { watch: null, issues: [], failure: failureOf(error).message };
    }
  },
);

/**
 * The answer as it says what it covers: a copy that already reached the question answers without
 * reading, and says nothing of the cap that stopped it when it was read; said here, once for all.
 */
async function withCap(
  webhookId: WebhookId,
  since: number | null,
  result: ScanResultLine,
): Promise<ScanResultLine> {
  if (result.partial || (await copyReaches(webhookId, { since, cap: Number.POSITIVE_INFINITY })))
    return result;
  return { ...result, partial: capPartial(result, result.cap, result.source.logs) };
}

/** A history answer, or the route to read the copy through first (with progress), or why it failed. */
export type HistoryRead<T> =
  | { kind: "answer"; answer: T }
  | { kind: "reading"; path: string }
  | { kind: "failed"; failure: PartFailure };

/**
 * How long the page waits for a history answer before it shows what it has. A copy that already
 * reaches the question is first brought up to date with the hub (its newest page); past this
 * time (the copy may be waiting for another reading of the same webhook, the watcher's first read
 * of it, say, or the hub may be slow) it answers as it is, and says as of when, while the reading
 * goes on for the next question. A copy that must first read older pages reads them on the page's
 * time; past it, that reading stops (what was copied stays) and the browser goes on with it, with
 * progress and Cancel.
 */
const PAGE_ANSWER_MS = 2500;

/** A history question answered within the page's time: `read` answers it (as it is, with `asIs`), or throws. */
async function answerWithin<T>(
  webhookId: WebhookId,
  reach: { since: number | null; cap: number },
  path: string,
  read: (asIs: boolean, signal: AbortSignal) => Promise<HistoryRead<T>>,
): Promise<HistoryRead<T>> {
  if (!(await copyReaches(webhookId, reach))) {
    const signal = AbortSignal.timeout(PAGE_ANSWER_MS);
    try {
      return await read(false, signal);
    } catch (error) {
      if (signal.aborted) return { kind: "reading", path };
      throw error;
    }
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), PAGE_ANSWER_MS);
  });
  const fresh = read(false, NEVER);
  // An answer that comes too late is still made (and put in the copy); its failure is no one's to see.
  fresh.catch(() => undefined);
  try {
    const first = await Promise.race([fresh, late]);
    return first === "late" ? await read(true, NEVER) : first;
  } finally {
    clearTimeout(timer);
  }
}

/** Delivery health of the most recent `window`, when the console's copy reaches that far. */
export const readHealth = cache(
  async (
    appId: string,
    apiKey: string,
    webhookId: WebhookId,
    window: HealthWindow,
  ): Promise<HistoryRead<ScanResultLine>> => {
    const now = Date.now();
    const cap = serverConfig().history.cap;
    const path = `/api/webhooks/${encodeURIComponent(webhookId)}/history/health?window=${window}`;
    const since = now - HEALTH_WINDOWS[window];
    try {
      await assertStoreApp(appId);
      return await answerWithin(webhookId, { since, cap }, path, async (asIs, signal) => {
        const answer = await beginHealth({ apiKey, appId, signal }, webhookId, window, cap, now, asIs);
        return { kind: "answer", answer: await withCap(webhookId, since, await answer.run()) };
      });
    } catch (error) {
      return { kind: "failed", failure: failureOf(error) };
    }
  },
);

/** The rows a view shows: a page of the hub's (live), or of the matches in the copy (`result` says what it covers). */
export interface TableRows {
  rows: WebhookLog[];
  total: number;
  result: ScanResultLine | null;
}

/**
 * The table of the view `search` names (its canonical query): a live page of the API, or, with
 * history filters, a page of the copy's matches once the copy reaches as far back as they ask.
 */
export const readTable = cache(
  async (
    appId: string,
    apiKey: string,
    webhookId: WebhookId,
    search: string,
  ): Promise<HistoryRead<TableRows>> => {
    const view = loadLogView(new URLSearchParams(search));
    try {
      if (!isHistoryView(view)) {
        const page = await listWebhookLogs(
          { apiKey, poll: await isAutoRefresh() },
          webhookId,
          toApiQuery(view),
        );
        return { kind: "answer", answer: { rows: page.data, total: page.pagination.total, result: null } };
      }
      const { cap, capMax } = serverConfig().history;
      const options = {
        cap: Math.min(view.cap ?? cap, capMax),
        offset: (view.page - 1) * view.limit,
        limit: view.limit,
      };
      await assertStoreApp(appId);
      const question = await narrowToIssue(appId, webhookId, questionOfView(view), view.issue ?? undefined);
      const reach = { since: question.since, cap: options.cap };
      return await answerWithin(webhookId, reach, historyScanPath(webhookId, view), async (asIs, signal) => {
        const answer = await beginAnswer({ apiKey, appId, signal }, webhookId, question, {
          ...options,
          asIs,
        });
        const result = await withCap(webhookId, question.since, await answer.run());
        return { kind: "answer", answer: { rows: result.rows, total: result.matches, result } };
      });
    } catch (error) {
      return { kind: "failed", failure: failureOf(error) };
    }
  },
);

/** The delivery a `?log=` names (a log ID or a message ID): from the page's rows, else from the copy. */
export async function readOpenLog(
  appId: string,
  apiKey: string,
  webhookId: WebhookId,
  logId: string,
  shown: readonly WebhookLog[],
): Promise<{ log: WebhookLog | null; missing: string | null }> {
  const onPage = shown.find((log) => log.id === logId || log.messageId === logId);
  if (onPage) return { log: onPage, missing: null };
  const target = findInput.safeParse(logId);
  if (!target.success) return { log: null, missing: target.error.issues[0]?.message ?? null };
  try {
    await assertStoreApp(appId);
    const found = await findDelivery(
      callOf(appId, apiKey),
      webhookId,
      target.data,
      serverConfig().history.cap,
    );
    if (found.found) return { log: found.log, missing: null };
    if (found.partial?.reason === "failed") return { log: null, missing: found.partial.message };
    const count = (n: number) => n.toLocaleString("en-US");
    const where =
      found.partial?.reason === "cap"
        ? `among the newest ${count(found.read)} of ${count(found.total)} deliveries of this webhook: it may be older.`
        : `in the ${count(found.total)} deliveries of this webhook. Check the ID, and that it belongs to this webhook.`;
    return { log: null, missing: `No delivery with log or message ID ${logId} ${where}` };
  } catch (error) {
    return { log: null, missing: failureOf(error).message };
  }
}
