/**
 * The alert engine's measurements (issue 26; the rows are built in alert-figures.ts): a real
 * `npm run watcher` over the sandbox, its engine judging each poll, sending signed-webhook alerts
 * to receivers on loopback that note when each arrived.
 *
 * - Latency: webhooks, each of its own application (so no summary merges them), pointed at the
 *   sandbox's failing receiver and sent 5 messages; from the hub's createdDate of the 5th failing
 *   log to the firing alert's arrival. Incidents start spread over one interval, so they meet
 *   the poll at every phase.
 * - Outage: many webhooks of one application, then the hub failing on /v1 (fault injection);
 *   what each of two destinations received.
 * - Fairness: the latency of the first, while another application's alert is being sent to 100
 *   receivers that never answer.
 * - The demo: the sandbox demo's applications watched as `npm start` watches them, and messages
 *   sent to each as a person trying it does; the firing incidents once the engine has judged
 *   every webhook's new deliveries, against the demo webhooks that fail.
 * - Recovery: a webhook fails long enough for its failure rate to hold, then its endpoint is
 *   fixed; from the hub's time of the success that makes WATCH_ISSUE_RESOLVE_AFTER in a row to
 *   the "recovered" alert's arrival.
 */
import path from "node:path";
import { DEFAULT_RULES } from "@/lib/domain/alerts/rules";
import { DEFAULT_RESOLVE_AFTER } from "@/lib/domain/watch/failure-issue";
import { createApplication, createChannel, createWebhook, type CreatedWebhook } from "../support/hub";
import type { ServerProcess } from "../support/server-process";
import { startReceiver, type TestReceiver } from "../sandbox/support/receiver";
import {
  alertLatencyFigure,
  demoIncidentsFigure,
  fairnessFigure,
  latencyGoalMs,
  outageFigure,
  recoveryFigure,
  type OutageReceived,
} from "./alert-figures";
import type { Figure } from "./report";
import {
  runStoreScript,
  sendMessages,
  startWatcherProcess,
  storeReader,
  type StoreReader,
  type StoreTarget,
  type WatchEnv,
} from "./watching";

const SECRET = `whsec_${Buffer.from("the bench's signing secret, 32 b").toString("base64")}`;
const STREAK = DEFAULT_RULES.streak.min;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A receiver that answers 204 and notes when each request arrived. */
interface TimedReceiver {
  receiver: TestReceiver;
  alerts(): Array<{ at: number; type: string; data: AlertData }>;
}

interface AlertData {
  kind: string;
  incident: { id: string; scope: string } | null;
  webhook: { id: string } | null;
  webhooks: Array<{ webhook: { id: string } }>;
}

async function timedReceiver(): Promise<TimedReceiver> {
  const arrivedAt: number[] = [];
  const receiver = await startReceiver(() => {
    arrivedAt.push(Date.now());
    return { status: 204 };
  });
  return {
    receiver,
    alerts: () =>
      receiver.requests.map((request, i) => {
        const body = JSON.parse(request.body) as { type: string; data: AlertData };
        return { at: arrivedAt[i]!, type: body.type, data: body.data };
      }),
  };
}

async function patchWebhook(sandboxUrl: string, id: string, endpoint: string): Promise<void> {
  const response = await fetch(`${sandboxUrl}/_sandbox/webhooks/${id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ endpoint }),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`PATCH /_sandbox/webhooks/${id} → HTTP ${response.status}`);
}

async function setFaults(sandboxUrl: string, faults: object | null): Promise<void> {
  const response = await fetch(`${sandboxUrl}/_sandbox/faults`, {
    method: faults ? "PUT" : "DELETE",
    headers: { "content-type": "application/json" },
    body: faults ? JSON.stringify(faults) : undefined,
  });
  await response.arrayBuffer();
  if (!response.ok)
    throw new Error(`${faults ? "PUT" : "DELETE"} /_sandbox/faults → HTTP ${response.status}`);
}

/** The hub's createdDate of the newest of `count` failed logs, once the hub holds that many. */
async function failedAt(sandboxUrl: string, apiKey: string, webhookId: string, count: number) {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(100)) {
    const response = await fetch(
      `${sandboxUrl}/v1/organization/webhook/${webhookId}/webhook-log?limit=${count + 5}`,
      { headers: { "x-api-key": apiKey } },
    );
    if (!response.ok) throw new Error(`the hub's logs of ${webhookId} → HTTP ${response.status}`);
    const { data } = (await response.json()) as { data: Array<{ statusCode: number; createdDate: string }> };
    const failed = data.filter((log) => log.statusCode >= 500);
    if (failed.length >= count) return Math.max(...failed.map((log) => Date.parse(log.createdDate)));
  }
  throw new Error(`the hub did not log ${count} failures of ${webhookId} within 30 s`);
}

async function untilAllPolled(reader: StoreReader, count: number, timeoutMs: number): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; ; await sleep(250)) {
    const [row] = await reader.all<{ n: number | string }>(
      "select count(*) as n from watch_state where polled_at is not null and tail_offset is null",
    );
    if (Number(row?.n) >= count) return;
    if (Date.now() > deadline)
      throw new Error(`the watcher read ${row?.n} of ${count} webhooks within ${timeoutMs / 1000} s`);
  }
}

async function withWatcher<T>(
  env: WatchEnv,
  name: string,
  options: { sandboxUrl: string; intervalSeconds: number; webhooks: number },
  applications: Array<{
    apiKey: string;
    webhooks: Array<{ id: string; endpoint: string }>;
    destinations: Array<{ label: string; url: string }>;
  }>,
  measure: (reader: StoreReader) => Promise<T>,
): Promise<T> {
  const store: StoreTarget = { kind: "sqlite", path: path.join(env.tmp, `${name}.sqlite`) };
  await runStoreScript(env, store, "alert-watch-store.ts", [
    JSON.stringify({ secret: SECRET, applications }),
  ]);
  let watcher: ServerProcess | undefined;
  let reader: StoreReader | undefined;
  try {
    watcher = await startWatcherProcess(
      env,
      store,
      {
        hubBaseUrl: options.sandboxUrl,
        intervalSeconds: options.intervalSeconds,
        leaseSeconds: 30,
        concurrency: 8,
        backfill: "10000,7d",
      },
      `${name} watcher`,
      { ALERTS_ALLOW_PRIVATE: "1" },
    );
    reader = await storeReader(store);
    await untilAllPolled(reader, options.webhooks, 120_000);
    return await measure(reader);
  } finally {
    await reader?.close();
    await watcher?.stop();
  }
}

/** A webhook of an application of its own, healthy so far, whose streak a test starts. */
interface LatencyApp {
  apiKey: string;
  channel: { id: string; kind: string };
  webhook: CreatedWebhook;
}

/** `count` applications of one webhook each, pointed at the sandbox's receiver that answers 200. */
async function latencyApps(sandboxUrl: string, count: number, name: string): Promise<LatencyApp[]> {
  const apps: LatencyApp[] = [];
  for (let i = 0; i < count; i++) {
    const app = await createApplication(sandboxUrl, `${name} ${i + 1}`);
    const channel = await createChannel(sandboxUrl, app.id, "sms");
    const webhook = await createWebhook(sandboxUrl, app.id, `${sandboxUrl}/_sandbox/receivers/ok`);
    // A success first: the streak starts from a healthy webhook.
    await sendMessages(sandboxUrl, { apiKey: app.apiKey, channel }, 1, 1);
    apps.push({ apiKey: app.apiKey, channel, webhook });
  }
  return apps;
}

/** Points the webhook at the failing receiver and sends a streak; answers the hub's time of its last failure. */
async function startStreak(sandboxUrl: string, app: LatencyApp): Promise<number> {
  await patchWebhook(sandboxUrl, app.webhook.id, `${sandboxUrl}/_sandbox/receivers/error`);
  await sendMessages(sandboxUrl, app, STREAK, 1);
  return failedAt(sandboxUrl, app.apiKey, app.webhook.id, STREAK);
}

/**
 * Starts each app's streak, spread over one interval so they meet the poll at every phase, and
 * answers each firing alert's latency from its last failure (null when none came in time).
 */
async function timeIncidents(
  sandboxUrl: string,
  apps: LatencyApp[],
  intervalSeconds: number,
  timed: TimedReceiver,
): Promise<Array<number | null>> {
  const spacingMs = (intervalSeconds * 1000) / apps.length;
  const lastFailedAt = await Promise.all(
    apps.map(async (app, i) => {
      await sleep(i * spacingMs);
      return startStreak(sandboxUrl, app);
    }),
  );
  const firingOf = (id: string) =>
    timed.alerts().find((alert) => alert.data.kind === "firing" && alert.data.webhook?.id === id);
  const deadline = Math.max(...lastFailedAt) + 3 * latencyGoalMs(intervalSeconds);
  while (Date.now() < deadline && !apps.every((app) => firingOf(app.webhook.id))) await sleep(100);
  return apps.map((app, i) => {
    const alert = firingOf(app.webhook.id);
    return alert ? alert.at - lastFailedAt[i]! : null;
  });
}

export async function measureAlertLatency(options: {
  env: WatchEnv;
  sandboxUrl: string;
  intervalSeconds: number;
  incidents: number;
}): Promise<Figure[]> {
  const { env, sandboxUrl, intervalSeconds } = options;
  const timed = await timedReceiver();
  try {
    const apps = await latencyApps(sandboxUrl, options.incidents, "alert latency");
    env.log(
      `alert latency: ${options.incidents} webhooks of their own applications, interval ${intervalSeconds} s`,
    );
    const latenciesMs = await withWatcher(
      env,
      "alert-latency",
      { sandboxUrl, intervalSeconds, webhooks: apps.length },
      apps.map((app) => ({
        apiKey: app.apiKey,
        webhooks: [app.webhook],
        destinations: [{ label: "on-call", url: `${timed.receiver.url}/hook` }],
      })),
      () => timeIncidents(sandboxUrl, apps, intervalSeconds, timed),
    );
    return [alertLatencyFigure({ intervalSeconds, latenciesMs, alerts: timed.alerts().length })];
  } finally {
    await timed.receiver.close();
  }
}

/** The slow application's deliveries, by the label its destinations share. */
const SLOW_ROWS = "from alert_deliveries where destination_label like 'slow %'";

/**
 * Fairness: one application whose alert goes to `slowDestinations` receivers that never answer
 * (each attempt held to ALERTS_TIMEOUT_MS, 10 s), firing first; then the alert latency of the
 * others, each an application of its own with one healthy destination, while the slow one's
 * deliveries are in flight.
 */
export async function measureFairness(options: {
  env: WatchEnv;
  sandboxUrl: string;
  intervalSeconds: number;
  incidents: number;
  slowDestinations: number;
}): Promise<Figure[]> {
  const { env, sandboxUrl, intervalSeconds, slowDestinations } = options;
  const timed = await timedReceiver();
  const slow = await startReceiver(() => ({ status: 204, delayMs: 600_000 }));
  try {
    const [noisy] = await latencyApps(sandboxUrl, 1, "slow receivers");
    const apps = await latencyApps(sandboxUrl, options.incidents, "alert fairness");
    env.log(
      `alert fairness: one application with ${slowDestinations} destinations that never answer, ` +
        `${options.incidents} others, interval ${intervalSeconds} s`,
    );
    return await withWatcher(
      env,
      "alert-fairness",
      { sandboxUrl, intervalSeconds, webhooks: apps.length + 1 },
      [
        {
          apiKey: noisy!.apiKey,
          webhooks: [noisy!.webhook],
          destinations: Array.from({ length: slowDestinations }, (_, i) => ({
            label: `slow ${i + 1}`,
            url: `${slow.url}/hook/${i + 1}`,
          })),
        },
        ...apps.map((app) => ({
          apiKey: app.apiKey,
          webhooks: [app.webhook],
          destinations: [{ label: "on-call", url: `${timed.receiver.url}/hook` }],
        })),
      ],
      async (reader) => {
        await startStreak(sandboxUrl, noisy!);
        const counts = async () => {
          const [row] = await reader.all<Record<"rows" | "sending" | "unsettled", number | string | null>>(
            "select count(*) as rows, sum(case when state = 'sending' then 1 else 0 end) as sending, " +
              `sum(case when state in ('pending', 'sending') then 1 else 0 end) as unsettled ${SLOW_ROWS}`,
          );
          return {
            rows: Number(row?.rows),
            sending: Number(row?.sending ?? 0),
            unsettled: Number(row?.unsettled ?? 0),
          };
        };
        for (const deadline = Date.now() + 6 * latencyGoalMs(intervalSeconds); ; await sleep(250)) {
          const { rows, sending } = await counts();
          if (rows >= slowDestinations && sending > 0) break;
          if (Date.now() > deadline)
            throw new Error(
              `the slow application's alert was not being sent (${rows} rows, ${sending} sending)`,
            );
        }
        // While the others are timed: the slow application's deliveries still to send, and in flight.
        const samples: Array<{ sending: number; unsettled: number }> = [];
        let timing = true;
        const sampling = (async () => {
          while (timing) {
            samples.push(await counts());
            await sleep(250);
          }
        })();
        const latenciesMs = await timeIncidents(sandboxUrl, apps, intervalSeconds, timed);
        timing = false;
        await sampling;
        return [
          fairnessFigure({
            intervalSeconds,
            latenciesMs,
            alerts: timed.alerts().length,
            slowDestinations,
            slow: {
              fewestUnsettled: Math.min(...samples.map((sample) => sample.unsettled)),
              mostInFlight: Math.max(...samples.map((sample) => sample.sending)),
            },
          }),
        ];
      },
    );
  } finally {
    await Promise.all([timed.receiver.close(), slow.close()]);
  }
}

export async function measureOutage(options: {
  env: WatchEnv;
  sandboxUrl: string;
  intervalSeconds: number;
  webhooks: number;
}): Promise<Figure[]> {
  const { env, sandboxUrl, intervalSeconds } = options;
  const labels = ["on-call", "team"] as const;
  const receivers = { "on-call": await timedReceiver(), team: await timedReceiver() };
  try {
    const app = await createApplication(sandboxUrl, "alert outage");
    const webhooks = [];
    for (let i = 0; i < options.webhooks; i++)
      webhooks.push(await createWebhook(sandboxUrl, app.id, `https://hooks.example.com/outage/${i + 1}`));
    const ids = new Set(webhooks.map((w) => w.id));
    env.log(`alert outage: ${options.webhooks} webhooks of one application, interval ${intervalSeconds} s`);
    return await withWatcher(
      env,
      "alert-outage",
      { sandboxUrl, intervalSeconds, webhooks: webhooks.length },
      [
        {
          apiKey: app.apiKey,
          webhooks,
          destinations: labels.map((label) => ({ label, url: `${receivers[label].receiver.url}/hook` })),
        },
      ],
      async (reader) => {
        const startedAt = Date.now();
        let unreadable = 0;
        try {
          await setFaults(sandboxUrl, { errorRate: 1 });
          // Until every webhook is unreadable, then two intervals more for any alert after the first.
          const allDeadline = startedAt + 20 * intervalSeconds * 1000;
          for (; Date.now() < allDeadline; await sleep(250)) {
            const [row] = await reader.all<{ n: number | string }>(
              "select count(distinct webhook_id) as n from alert_incidents " +
                `where scope = 'webhook' and detail like '%"rule":"watchUnreadable"%'`,
            );
            unreadable = Number(row?.n);
            if (unreadable >= webhooks.length) break;
          }
          const anyAlert = () => labels.every((label) => receivers[label].alerts().length > 0);
          while (Date.now() < allDeadline && !anyAlert()) await sleep(250);
          await sleep(2 * intervalSeconds * 1000);
        } finally {
          await setFaults(sandboxUrl, null);
        }
        const observedSeconds = (Date.now() - startedAt) / 1000;
        const during = Object.fromEntries(labels.map((label) => [label, receivers[label].alerts().length]));
        const resolvedDeadline = Date.now() + 6 * intervalSeconds * 1000;
        const recovered = () =>
          labels.every((label) => receivers[label].alerts().some((a) => a.data.kind === "recovered"));
        while (Date.now() < resolvedDeadline && !recovered()) await sleep(250);
        const destinations: Record<string, OutageReceived> = {};
        for (const label of labels) {
          const all = receivers[label].alerts();
          const told = all.slice(0, during[label]).filter((a) => ["firing", "updated"].includes(a.data.kind));
          const isSummary = (a: (typeof all)[number]) => a.data.incident?.scope === "summary";
          const summary = told.find(isSummary);
          destinations[label] = {
            firing: told.length,
            summaries: told.filter(isSummary).length,
            listed: new Set(
              (summary?.data.webhooks ?? []).map((item) => item.webhook.id).filter((id) => ids.has(id)),
            ).size,
            firstAfterSeconds: told[0] ? (told[0].at - startedAt) / 1000 : null,
            resolved: all.filter((a) => a.data.kind === "recovered").length,
          };
        }
        return [
          outageFigure({
            webhooks: webhooks.length,
            destinations,
            unreadable,
            observedSeconds,
            cooldownMinutes: DEFAULT_RULES.cooldownMinutes,
          }),
        ];
      },
    );
  } finally {
    await Promise.all(labels.map((label) => receivers[label].receiver.close()));
  }
}

/** A demo application as `GET /_sandbox/demo` lists it. */
interface DemoApplication {
  apiKey: string;
  channels: Array<{ id: string; kind: string }>;
  webhooks: Array<{ id: string; endpoint: string; active: boolean }>;
}

/** Messages sent to each demo application: enough for every rule about deliveries to hold on its failing webhooks. */
const DEMO_MESSAGES = 12;

/** Whether a demo webhook fails now: inactive, or its endpoint is not the receiver that answers 200. */
const failingDemo = (webhook: DemoApplication["webhooks"][number]) =>
  !webhook.active || !webhook.endpoint.endsWith("/_sandbox/receivers/ok");

/**
 * The sandbox demo (`demoSandboxUrl`: a sandbox seeded with it) watched as `npm start` watches
 * it, every webhook of every demo application, each application with one destination; once its
 * history is read, DEMO_MESSAGES messages to each application; the firing incidents once the
 * watch holds their deliveries and the alert pass has told them.
 */
export async function measureDemoIncidents(options: {
  env: WatchEnv;
  demoSandboxUrl: string;
  intervalSeconds: number;
}): Promise<Figure[]> {
  const { env, demoSandboxUrl, intervalSeconds } = options;
  const response = await fetch(`${demoSandboxUrl}/_sandbox/demo`);
  if (!response.ok) throw new Error(`GET /_sandbox/demo → HTTP ${response.status}`);
  const { applications } = (await response.json()) as { applications: DemoApplication[] };
  const webhooks = applications.flatMap((app) => app.webhooks);
  const failing = new Set(webhooks.filter(failingDemo).map((webhook) => webhook.id));
  const timed = await timedReceiver();
  try {
    env.log(
      `alert demo: ${webhooks.length} demo webhooks of ${applications.length} applications, ${failing.size} failing, interval ${intervalSeconds} s`,
    );
    return await withWatcher(
      env,
      "alert-demo",
      { sandboxUrl: demoSandboxUrl, intervalSeconds, webhooks: webhooks.length },
      applications.map((app) => ({
        apiKey: app.apiKey,
        webhooks: app.webhooks,
        destinations: [{ label: "on-call", url: `${timed.receiver.url}/hook` }],
      })),
      async (reader) => {
        const sentAt = Date.now();
        for (const app of applications)
          await sendMessages(
            demoSandboxUrl,
            { apiKey: app.apiKey, channel: app.channels[0]! },
            DEMO_MESSAGES,
            4,
          );
        const active = webhooks.filter((webhook) => webhook.active).map((webhook) => webhook.id);
        for (const deadline = Date.now() + 180_000; ; await sleep(500)) {
          const [row] = await reader.all<{ n: number | string }>(
            "select count(*) as n from (select webhook_id from watch_logs " +
              `where send_at >= ${sentAt} and webhook_id in (${active.map((id) => `'${id}'`).join(",")}) ` +
              `group by webhook_id having count(*) >= ${DEMO_MESSAGES})`,
          );
          if (Number(row?.n) === active.length) break;
          if (Date.now() > deadline)
            throw new Error(`the watch holds the messages of ${row?.n} of ${active.length} demo webhooks`);
        }
        // Each webhook is judged at its polls and the pass tells what settled: a summary waits two intervals at most.
        await sleep(3 * intervalSeconds * 1000);
        const rows = await reader.all<{ webhook_id: string; scope: string; detail: string }>(
          "select webhook_id, scope, detail from alert_incidents where state = 'firing'",
        );
        const ofWebhooks = rows.filter((row) => row.scope === "webhook");
        const ids = new Set(ofWebhooks.map((row) => row.webhook_id));
        return [
          demoIncidentsFigure({
            failing: failing.size,
            incidents: ofWebhooks.length,
            webhooks: ids.size,
            ofFailing: [...ids].filter((id) => failing.has(id)).length,
            conditions: ofWebhooks.reduce(
              (sum, row) => sum + (JSON.parse(row.detail) as { conditions: unknown[] }).conditions.length,
              0,
            ),
            summaries: rows.filter((row) => row.scope === "summary").length,
            alerts: timed.alerts().length,
          }),
        ];
      },
    );
  } finally {
    await timed.receiver.close();
  }
}

/** Failures before the fix: enough for the failure rate to hold over its window after every success sent. */
const RECOVERY_FAILURES = 14;
/** Successes sent after the fix, as in issue 38 (12 in a row sent no "recovered" within a minute). */
const RECOVERY_SUCCESSES = 12;
/** How long the recovery is waited for after the success that should end the incident. */
const RECOVERY_WAIT_MS = 60_000;

/** The hub's createdDate of the `nth` success of a webhook logged after `after` (epoch ms). */
async function succeededAt(
  sandboxUrl: string,
  apiKey: string,
  webhookId: string,
  nth: number,
  after: number,
) {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(100)) {
    const response = await fetch(`${sandboxUrl}/v1/organization/webhook/${webhookId}/webhook-log?limit=50`, {
      headers: { "x-api-key": apiKey },
    });
    if (!response.ok) throw new Error(`the hub's logs of ${webhookId} → HTTP ${response.status}`);
    const { data } = (await response.json()) as { data: Array<{ statusCode: number; createdDate: string }> };
    const times = data
      .filter((log) => log.statusCode === 200 && Date.parse(log.createdDate) > after)
      .map((log) => Date.parse(log.createdDate))
      .sort((a, b) => a - b);
    if (times.length >= nth) return times[nth - 1]!;
  }
  throw new Error(`the hub did not log ${nth} successes of ${webhookId} within 30 s`);
}

/**
 * Recovery: a webhook of its own application fails RECOVERY_FAILURES times (a streak and a
 * failure rate hold, and its alert fires), then its endpoint is fixed and RECOVERY_SUCCESSES
 * messages delivered; the "recovered" alert's arrival from the hub's time of success number
 * WATCH_ISSUE_RESOLVE_AFTER, with the failure rate's window as it stood.
 */
export async function measureRecovery(options: {
  env: WatchEnv;
  sandboxUrl: string;
  intervalSeconds: number;
}): Promise<Figure[]> {
  const { env, sandboxUrl, intervalSeconds } = options;
  const timed = await timedReceiver();
  try {
    const [app] = await latencyApps(sandboxUrl, 1, "alert recovery");
    const id = app!.webhook.id;
    env.log(
      `alert recovery: ${RECOVERY_FAILURES} failures, then ${RECOVERY_SUCCESSES} successes, interval ${intervalSeconds} s`,
    );
    return await withWatcher(
      env,
      "alert-recovery",
      { sandboxUrl, intervalSeconds, webhooks: 1 },
      [
        {
          apiKey: app!.apiKey,
          webhooks: [app!.webhook],
          destinations: [{ label: "on-call", url: `${timed.receiver.url}/hook` }],
        },
      ],
      async (reader) => {
        const kind = (name: string) => timed.alerts().find((alert) => alert.data.kind === name);
        await patchWebhook(sandboxUrl, id, `${sandboxUrl}/_sandbox/receivers/error`);
        await sendMessages(sandboxUrl, app!, RECOVERY_FAILURES, 1);
        for (
          const deadline = Date.now() + 6 * latencyGoalMs(intervalSeconds);
          !kind("firing");
          await sleep(100)
        )
          if (Date.now() > deadline) throw new Error("the failing webhook's alert did not fire");
        const fixedAt = Date.now();
        await patchWebhook(sandboxUrl, id, `${sandboxUrl}/_sandbox/receivers/ok`);
        await sendMessages(sandboxUrl, app!, RECOVERY_SUCCESSES, 1);
        const resolvedAt = await succeededAt(sandboxUrl, app!.apiKey, id, DEFAULT_RESOLVE_AFTER, fixedAt);
        while (!kind("recovered") && Date.now() < resolvedAt + RECOVERY_WAIT_MS) await sleep(100);
        const recovered = kind("recovered");
        const windowStart = Date.now() - DEFAULT_RULES.rate.windowMinutes * 60_000;
        const [window] = await reader.all<{ attempts: number | string; failures: number | string | null }>(
          "select count(*) as attempts, sum(case when status = 'Success' then 0 else 1 end) as failures " +
            `from watch_logs where webhook_id = '${id.replace(/[^0-9a-f-]/gi, "")}' and send_at >= ${windowStart}`,
        );
        return [
          recoveryFigure({
            intervalSeconds,
            resolveAfter: DEFAULT_RESOLVE_AFTER,
            successes: RECOVERY_SUCCESSES,
            window: { failures: Number(window?.failures ?? 0), attempts: Number(window?.attempts ?? 0) },
            afterMs: recovered ? recovered.at - resolvedAt : null,
            waitedSeconds: RECOVERY_WAIT_MS / 1000,
          }),
        ];
      },
    );
  } finally {
    await timed.receiver.close();
  }
}
