/**
 * Delivery health of watched webhooks from the watch's store ÷ from reading the hub (issue 25):
 * two consoles, one over a store that holds every log of the webhooks (filled by watch-store.ts as
 * its watcher would, the watcher off), the other over an empty store, so its question first copies
 * the webhook's whole history from the sandbox. Each webhook is asked once of each side (the
 * second ask of the empty side would answer from the copy the first made), in turns.
 */
import path from "node:path";
import type { HistorySource } from "@/lib/domain/history/answer-source";
import type { CreatedWebhook } from "../support/hub";
import { signIn } from "../support/hub";
import { startConsoleProcess, type Server } from "../support/server-process";
import type { Figure } from "./report";
import { storeHealthFigure } from "./watch-figures";
import { baseEnv, proxyCalls, runWatchStore, timedGet, type StoreTarget, type WatchEnv } from "./watching";

export async function measureStoreHealth(options: {
  env: WatchEnv;
  apiKey: string;
  sandboxUrl: string;
  /** A counting proxy in front of the sandbox: the store's side's hub. */
  proxyUrl: string;
  ports: [number, number];
  /** Webhooks holding `logs` logs each in the sandbox, the newest a second apart. */
  webhooks: CreatedWebhook[];
  logs: number;
}): Promise<Figure> {
  const { env, logs } = options;
  const stored: StoreTarget = { kind: "sqlite", path: path.join(env.tmp, "health-stored.sqlite") };
  const empty: StoreTarget = { kind: "sqlite", path: path.join(env.tmp, "health-empty.sqlite") };
  env.log(`store health: filling a store with ${options.webhooks.length} webhooks of ${logs} logs`);
  await runWatchStore(env, stored, "fill", {
    apiKey: options.apiKey,
    webhooks: options.webhooks,
    logsPerWebhook: logs,
    spacingMs: 1000,
  });
  const consoles: Server[] = [];
  try {
    const sides = [
      { name: "store", store: stored, hub: options.proxyUrl, port: options.ports[0] },
      { name: "hub", store: empty, hub: options.sandboxUrl, port: options.ports[1] },
    ] as const;
    const started = [];
    for (const side of sides) {
      const server = await startConsoleProcess({
        port: side.port,
        hubBaseUrl: side.hub,
        sessionSecret: env.sessionSecret,
        name: `console answering health from the ${side.name}`,
        env: {
          ...baseEnv(env, side.store),
          HUB_SANDBOX: "1",
          WATCH_IN_CONSOLE: "0",
          // The key's budget stands for the hub's rate limit, which the sandbox does not impose:
          // the hub's side is measured reading, not waiting.
          HISTORY_KEY_REQUESTS_PER_MINUTE: "100000",
        },
      });
      consoles.push(server);
      started.push({ ...side, server, cookie: await signIn(server.url, options.apiKey), ms: [] as number[] });
    }
    const before = await proxyCalls(options.proxyUrl);
    for (const [i, webhook] of options.webhooks.entries()) {
      for (const side of i % 2 === 0 ? started : [...started].reverse()) {
        const answer = await timedGet(
          `${side.server.url}/api/webhooks/${webhook.id}/history/health?window=24h&cap=${logs}`,
          side.cookie,
        );
        const result = JSON.parse(answer.body.trim().split("\n").at(-1) ?? "{}") as {
          type?: string;
          source?: HistorySource;
          summary?: { attempts: number };
        };
        // The store's side answers from the watch; the hub's from the copy its question made.
        const watched = side.name === "store";
        if (
          answer.status !== 200 ||
          result.type !== "result" ||
          result.source?.watched !== watched ||
          !result.source.complete
        )
          throw new Error(
            `the ${side.name} side answered ${answer.status} from ${JSON.stringify(result.source)}, ` +
              `not from ${watched ? "the watch" : "a copy"} of the whole history`,
          );
        if (result.summary?.attempts !== logs)
          throw new Error(`the ${side.name} side counted ${result.summary?.attempts} of ${logs} attempts`);
        side.ms.push(answer.totalMs);
      }
    }
    const after = await proxyCalls(options.proxyUrl);
    const storeCalls = options.webhooks
      .map((w) => `/v1/organization/webhook/${w.id}`)
      .flatMap((p) => [p, `${p}/webhook-log`])
      .reduce((sum, p) => sum + (after[p] ?? 0) - (before[p] ?? 0), 0);
    return storeHealthFigure({ logs, storeMs: started[0]!.ms, hubMs: started[1]!.ms, storeCalls });
  } finally {
    await Promise.all(consoles.map((server) => server.stop()));
  }
}
