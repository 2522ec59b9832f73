/**
 * Viewers with Auto-refresh on: browser contexts, each signed in on its own, watch a webhook's
 * page with Auto-refresh switched on, and the bench counts the upstream calls they cause (at the
 * proxy in front of the hub, which counts what it forwards by path).
 */
import type { Browser, BrowserContext } from "playwright-core";
import { signedInContext } from "../support/signed-in-context";
import { signIn } from "../support/hub";
import { logRows } from "./browser";

export interface ViewerGroup {
  webhookId: string;
  viewers: number;
}

export interface ViewerCalls {
  webhookId: string;
  viewers: number;
  /** Upstream calls for this webhook during the watch, by path. */
  calls: Record<string, number>;
  total: number;
}

/** Upstream calls by path (GET /_bare/calls of bare-proxy.ts). */
export async function upstreamCalls(proxyUrl: string): Promise<Record<string, number>> {
  const response = await fetch(`${proxyUrl}/_bare/calls`);
  if (!response.ok) throw new Error(`GET ${proxyUrl}/_bare/calls → HTTP ${response.status}`);
  return (await response.json()) as Record<string, number>;
}

/** The calls of `after` not yet in `before`, for paths that name the webhook. */
export function callsFor(
  webhookId: string,
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [path, count] of Object.entries(after)) {
    const added = count - (before[path] ?? 0);
    if (added > 0 && path.split("/").includes(webhookId)) out[path] = added;
  }
  return out;
}

/**
 * Opens every group's viewers (each its own context and session), switches Auto-refresh on in
 * each, then counts the upstream calls per group over `durationMs`. The groups watch at the same
 * time, each on its own webhook, so their calls never mix.
 */
export async function watchWithAutoRefresh(
  browser: Browser,
  input: { consoleUrl: string; apiKey: string; proxyUrl: string; groups: ViewerGroup[]; durationMs: number },
): Promise<ViewerCalls[]> {
  const contexts: BrowserContext[] = [];
  try {
    for (const group of input.groups) {
      for (let i = 0; i < group.viewers; i++) {
        const context = await signedInContext(
          browser,
          input.consoleUrl,
          await signIn(input.consoleUrl, input.apiKey),
        );
        contexts.push(context);
        const page = await context.newPage();
        await page.goto(`${input.consoleUrl}/webhooks/${group.webhookId}`);
        await logRows(page).first().waitFor();
        // The page's own loads (its Delivery health region copies the history) end before the count starts.
        await page.waitForLoadState("networkidle");
        await page.getByRole("switch", { name: "Auto-refresh" }).check();
      }
    }
    const before = await upstreamCalls(input.proxyUrl);
    await new Promise((resolve) => setTimeout(resolve, input.durationMs));
    const after = await upstreamCalls(input.proxyUrl);
    return input.groups.map((group) => {
      const calls = callsFor(group.webhookId, before, after);
      const total = Object.values(calls).reduce((sum, n) => sum + n, 0);
      return { webhookId: group.webhookId, viewers: group.viewers, calls, total };
    });
  } finally {
    await Promise.all(contexts.map((context) => context.close()));
  }
}
