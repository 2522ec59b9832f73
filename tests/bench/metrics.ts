/**
 * /metrics at scale (issue 37; the rows are built in metrics-figures.ts): a console over a store
 * of 200 watches and 1 M logs ÷ one over 10 and 10 k, and for reference ÷ one over 200 and 10 k,
 * each scraped in turns as Prometheus does, from this machine without a token, and the hub calls
 * they made meanwhile, counted at the node:http hop in front of the sandbox. Stores are filled by
 * watch-store.ts, as for the overview.
 */
import type { Server } from "../support/server-process";
import { metricsFigures, type ScrapeSide } from "./metrics-figures";
import type { Figure } from "./report";
import { rotationOrder } from "./stats";
import { consoleOverFilledStore, proxyCalls, total, type StoreScaleOptions } from "./watching";

async function scrape(url: string, headers: Record<string, string> = {}) {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const body = await response.text();
  return { status: response.status, body, totalMs: performance.now() - started };
}

/**
 * `options.ports` names the small and large sides' consoles; `fewLogsPort` the third, over as
 * many watches as the large store with as many logs as the small one.
 */
export async function measureMetrics(options: StoreScaleOptions, fewLogsPort: number): Promise<Figure[]> {
  const { env } = options;
  const names = ["small", "large", "fewLogs"] as const;
  const sides = {
    ...options.sides,
    fewLogs: { webhooks: options.sides.large.webhooks, logs: options.sides.small.logs },
  };
  const ports = [...options.ports, fewLogsPort];
  const consoles: Array<{ server: Server; name: (typeof names)[number] }> = [];
  try {
    const measured = {} as Record<(typeof names)[number], ScrapeSide>;
    for (const [i, name] of names.entries()) {
      const side = sides[name];
      // No METRICS_TOKEN: it answers this machine, as a Prometheus beside it scrapes.
      const { server } = await consoleOverFilledStore(
        options,
        ports[i]!,
        side,
        { file: `metrics-${name}`, server: `console over the ${name} metrics store` },
        { METRICS_TOKEN: "" },
      );
      consoles.push({ server, name });
      const url = `${server.url}/metrics`;
      const first = await scrape(url);
      const watched = `hubconsole_watcher_watched_webhooks ${side.webhooks}\n`;
      if (first.status !== 200 || !first.body.includes(watched))
        throw new Error(
          `the ${name} console's /metrics answered ${first.status} without "${watched.trim()}"`,
        );
      const proxied = await scrape(url, { "x-forwarded-for": "203.0.113.7" });
      if (proxied.status !== 403)
        throw new Error(`the ${name} console's /metrics answered ${proxied.status} to a caller from outside`);
      for (let n = 0; n < 5; n++) await scrape(url);
      measured[name] = {
        ...side,
        totalMs: [],
        series: first.body.split("\n").filter((line) => line !== "" && !line.startsWith("#")).length,
      };
    }
    const before = await proxyCalls(options.proxyUrl);
    env.log(`metrics: ${options.samples} scrapes per side, in turns`);
    for (const index of rotationOrder(names.length, options.samples)) {
      const c = consoles[index]!;
      const answer = await scrape(`${c.server.url}/metrics`);
      if (answer.status !== 200)
        throw new Error(`the ${c.name} console's /metrics answered ${answer.status}`);
      measured[c.name].totalMs.push(answer.totalMs);
    }
    const upstreamCalls = total(await proxyCalls(options.proxyUrl)) - total(before);
    return metricsFigures({ ...measured, upstreamCalls });
  } finally {
    await Promise.all(consoles.map((c) => c.server.stop()));
  }
}
