/**
 * The hand-over's measurements (issue 27; the rows are built in handover-figures.ts): two watch
 * stores filled by watch-store.ts (200 watched webhooks and 1 M logs; one webhook of 10 k), then
 * handover-store.ts timing Find on each and support bundles of two incident sizes.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { bundleGrowthFigure, findAcrossFigure, type BundleSide } from "./handover-figures";
import type { Figure } from "./report";
import { runStoreScript, runWatchStore, type StoreTarget, type WatchEnv } from "./watching";

export async function measureHandover(options: {
  env: WatchEnv;
  apiKey: string;
  large: { webhooks: number; logs: number };
  smallLogs: number;
  samples: number;
  failures: [number, number];
}): Promise<Figure[]> {
  const { env } = options;
  const stores = {
    large: { kind: "sqlite", path: path.join(env.tmp, "handover-large.sqlite") },
    small: { kind: "sqlite", path: path.join(env.tmp, "handover-small.sqlite") },
  } satisfies Record<string, StoreTarget>;
  const webhooks = (count: number) =>
    Array.from({ length: count }, (_, n) => ({
      id: randomUUID(),
      endpoint: `https://hooks.example.com/handover/${n + 1}`,
    }));
  env.log(
    `hand-over: filling stores of ${options.large.logs} logs (${options.large.webhooks} webhooks) and ${options.smallLogs} (one)`,
  );
  await runWatchStore(env, stores.large, "fill", {
    apiKey: options.apiKey,
    webhooks: webhooks(options.large.webhooks),
    logsPerWebhook: options.large.logs / options.large.webhooks,
    spacingMs: 60_000,
  });
  await runWatchStore(env, stores.small, "fill", {
    apiKey: options.apiKey,
    webhooks: webhooks(1),
    logsPerWebhook: options.smallLogs,
    spacingMs: 60_000,
  });
  env.log(`hand-over: ${options.samples} finds and bundles per side, in turns`);
  const measured = await runStoreScript<{
    find: { acrossMs: number[]; insideMs: number[] };
    bundle: [BundleSide, BundleSide];
  }>(env, stores.large, "handover-store.ts", [
    JSON.stringify({
      apiKey: options.apiKey,
      large: stores.large.path,
      small: stores.small.path,
      samples: options.samples,
      failures: options.failures,
    }),
  ]);
  return [
    findAcrossFigure({
      large: { ...options.large, ms: measured.find.acrossMs },
      small: { logs: options.smallLogs, ms: measured.find.insideMs },
    }),
    bundleGrowthFigure(measured.bundle),
  ];
}
