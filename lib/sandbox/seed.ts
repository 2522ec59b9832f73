/**
 * The demo data (SANDBOX_SEED=demo, loaded when the database is empty): one application with a
 * fixed key, two channels, one webhook per outcome of spec part 6 pointing at the sandbox's own
 * receivers (plus a closed port and an inactive one), and a deterministic history of past logs;
 * and a second, smaller application ("Staging", its own fixed key, channel and two webhooks), so
 * the console's several applications can be tried.
 *
 * The receivers live on this server, whose port may change between runs: `pointDemoAtReceivers`
 * rewrites the demo endpoints from the listening port at every start.
 */
import { notFoundHtml, receiverUrl, UNAUTHORIZED_BODY } from "./receivers";
import { Prng } from "./prng";
import type { Channel, Store } from "./store";

/** The demo application's key. Public on purpose: it opens only the sandbox's demo data. */
export const DEMO_API_KEY = "mh_demo_4f7d2c9a8b1e6f3d5a7c9e1b2d4f6a8c";
export const DEMO_APPLICATION_ID = "3f6c1a52-8d4e-4b7a-9c21-5e0d7b8a4f10";
export const DEMO_CHANNELS = [
  { id: "7b2e9d41-0c6a-4f58-8e13-2a9c4d6b1e01", kind: "whatsapp" },
  { id: "7b2e9d41-0c6a-4f58-8e13-2a9c4d6b1e02", kind: "sms" },
] as const;

/** The second demo application: another key, whose webhooks the first key cannot see. */
export const STAGING = {
  name: "Staging",
  apiKey: "mh_staging_8c1e5a3f7b9d2e4a6c8f0b1d3e5a7c9f",
  applicationId: "5a9e2c71-3b6d-4f8a-8e42-7c1d9b0f6a20",
  channel: { id: "7b2e9d41-0c6a-4f58-8e13-2a9c4d6b1e11", kind: "sms" },
  messages: 30,
  webhooks: [
    {
      id: "b3e8f1a0-6c2d-4e7f-9a15-0d4c8b2e6f01",
      label: "Staging: 200 OK",
      description: "Demo (Staging): the sandbox receiver that answers 200 OK.",
      receiver: "ok",
      statuses: [
        [200, 95],
        [503, 5],
      ],
    },
    {
      id: "b3e8f1a0-6c2d-4e7f-9a15-0d4c8b2e6f02",
      label: "Staging: 404 Not Found",
      description: "Demo (Staging): a route that does not exist on the customer server.",
      receiver: "not-found",
      statuses: [
        [404, 90],
        [200, 10],
      ],
    },
  ],
} as const;

/** Where the closed-port demo webhook points: nothing listens on port 1, so it is refused (statusCode 0). */
export const CLOSED_PORT_ENDPOINT = "http://127.0.0.1:1/webhooks/messages";

type StatusWeights = ReadonlyArray<readonly [number, number]>;

export const BUSY_LABEL = "Busy shop (thousands of deliveries, failing now)";

/**
 * The busy demo webhook's history: BUSY.logs deliveries over BUSY.days, mostly 200 with a mix
 * of failures, ending in a failing streak of BUSY.streak attempts over the last BUSY.streakMinutes
 * (its live endpoint answers 500, so new deliveries carry the streak on).
 */
export const BUSY = {
  logs: 3000,
  days: 6,
  streak: 37,
  streakMinutes: 90,
  statuses: [
    [200, 930],
    [500, 25],
    [0, 15],
    [502, 8],
    [503, 8],
    [504, 4],
    [429, 5],
    [404, 3],
    [401, 2],
  ],
  streakStatuses: [
    [500, 80],
    [503, 12],
    [0, 8],
  ],
} as const;

interface DemoWebhookPlan {
  id: string;
  label: string;
  description: string;
  /** Receiver route (under RECEIVERS_PATH), or null for a fixed endpoint. */
  receiver: string | null;
  endpoint?: string;
  active: boolean;
  /** Past messages [from, to) of the history this webhook received a log for. */
  history: readonly [number, number];
  /** How likely each statusCode is in its history. */
  statuses: StatusWeights;
}

/** Number of past messages in the seeded history, spread over HISTORY_DAYS. */
const HISTORY_MESSAGES = 120;
const HISTORY_DAYS = 7;

export const DEMO_WEBHOOKS: readonly DemoWebhookPlan[] = [
  {
    id: "9d7c1e20-4b3a-4c8e-a1f5-6e2d8b0c3a01",
    label: "200 OK",
    description: "Demo: the sandbox receiver that answers 200 OK.",
    receiver: "ok",
    active: true,
    history: [0, 120],
    statuses: [
      [200, 88],
      [500, 4],
      [0, 3],
      [503, 2],
      [302, 1],
      [429, 2],
    ],
  },
  {
    id: "9d7c1e20-4b3a-4c8e-a1f5-6e2d8b0c3a02",
    label: "401 Unauthorized (secret header rejected)",
    description: "Demo: a receiver that expects another secret, so it answers 401.",
    receiver: "unauthorized",
    active: true,
    history: [40, 120],
    statuses: [
      [401, 85],
      [200, 10],
      [403, 5],
    ],
  },
  {
    id: "9d7c1e20-4b3a-4c8e-a1f5-6e2d8b0c3a03",
    label: "404 Not Found",
    description: "Demo: a route that does not exist on the customer server.",
    receiver: "not-found",
    active: true,
    history: [60, 120],
    statuses: [
      [404, 92],
      [200, 5],
      [405, 3],
    ],
  },
  {
    id: "9d7c1e20-4b3a-4c8e-a1f5-6e2d8b0c3a04",
    label: "500 Internal Server Error",
    description: "Demo: a customer server that fails while processing the payload.",
    receiver: "error",
    active: true,
    history: [60, 120],
    statuses: [
      [500, 80],
      [502, 10],
      [200, 10],
    ],
  },
  {
    id: "9d7c1e20-4b3a-4c8e-a1f5-6e2d8b0c3a05",
    label: "Timeout (statusCode 0)",
    description: "Demo: a receiver that never answers, so the delivery times out.",
    receiver: "hang",
    active: true,
    history: [80, 120],
    statuses: [
      [0, 90],
      [504, 5],
      [200, 5],
    ],
  },
  {
    id: "9d7c1e20-4b3a-4c8e-a1f5-6e2d8b0c3a06",
    label: "Connection refused (statusCode 0)",
    description: "Demo: an address where nothing listens.",
    receiver: null,
    endpoint: CLOSED_PORT_ENDPOINT,
    active: true,
    history: [80, 120],
    statuses: [[0, 100]],
  },
  {
    id: "9d7c1e20-4b3a-4c8e-a1f5-6e2d8b0c3a07",
    label: "Inactive (its endpoint would answer 200 OK)",
    description: "Demo: an inactive webhook; it gets no new deliveries.",
    receiver: "ok",
    active: false,
    history: [0, 20],
    statuses: [
      [410, 50],
      [400, 30],
      [301, 20],
    ],
  },
  {
    id: "9d7c1e20-4b3a-4c8e-a1f5-6e2d8b0c3a08",
    label: BUSY_LABEL,
    description: "Demo: a busy endpoint with days of deliveries, failing for the last hour and a half.",
    receiver: "error",
    active: true,
    // Its history is its own (seedBusyHistory), not one log per message of the shared history.
    history: [0, 0],
    statuses: [[500, 1]],
  },
];

const META_DEMO_APPLICATION = "demo_application_id";
const META_STAGING_APPLICATION = "demo_staging_application_id";
const PRNG_SEED = 20240611;

export interface DemoApplicationInfo {
  name: string;
  apiKey: string;
  applicationId: string;
  /** False when the key was rotated away: the key above no longer works. */
  keyIsCurrent: boolean;
  channels: Array<{ id: string; kind: string }>;
  webhooks: Array<{ id: string; endpoint: string; eventType: string; active: boolean; label: string }>;
}

/** The first demo application, and every demo application (the first, then Staging). */
export interface DemoInfo extends DemoApplicationInfo {
  applications: DemoApplicationInfo[];
}

/** The demo applications as they are now, or undefined when this database has no demo data. */
export function demoInfo(store: Store): DemoInfo | undefined {
  const first = demoApplicationInfo(store, META_DEMO_APPLICATION, "Demo application", DEMO_API_KEY);
  if (!first) return undefined;
  const staging = demoApplicationInfo(store, META_STAGING_APPLICATION, STAGING.name, STAGING.apiKey);
  return { ...first, applications: staging ? [first, staging] : [first] };
}

function demoApplicationInfo(
  store: Store,
  meta: string,
  name: string,
  apiKey: string,
): DemoApplicationInfo | undefined {
  const applicationId = store.getMeta(meta);
  if (!applicationId) return undefined;
  return {
    name,
    apiKey,
    applicationId,
    keyIsCurrent: store.applicationIdForKey(apiKey) === applicationId,
    channels: store.listChannels(applicationId).map(({ id, kind }) => ({ id, kind })),
    webhooks: store
      .listWebhooks(applicationId)
      .filter((w) => w.demoLabel !== null)
      .map((w) => ({
        id: w.id,
        endpoint: w.endpoint,
        eventType: w.eventType,
        active: w.active,
        label: w.demoLabel ?? "",
      })),
  };
}

/** Points the demo webhooks at the receivers of the server listening at `baseUrl` (any port). */
export function pointDemoAtReceivers(store: Store, baseUrl: string): void {
  for (const meta of [META_DEMO_APPLICATION, META_STAGING_APPLICATION]) {
    const applicationId = store.getMeta(meta);
    if (applicationId) store.rewriteDemoEndpoints(applicationId, receiverUrl(baseUrl, ""));
  }
}

/** Loads the demo data into an empty database. `baseUrl` is where this server's receivers listen. */
export function seedDemo(store: Store, baseUrl: string, now: Date = new Date()): void {
  store.db.transaction(() => {
    store.createApplication("Demo application", DEMO_API_KEY, DEMO_APPLICATION_ID);
    store.setMeta(META_DEMO_APPLICATION, DEMO_APPLICATION_ID);
    const channels = DEMO_CHANNELS.map((c) => store.createChannel(DEMO_APPLICATION_ID, c.kind, c.id));
    const historyStart = now.getTime() - HISTORY_DAYS * 24 * 3600_000;
    for (const plan of DEMO_WEBHOOKS) {
      store.createWebhook({
        id: plan.id,
        applicationId: DEMO_APPLICATION_ID,
        endpoint: plan.endpoint ?? receiverUrl(baseUrl, plan.receiver ?? "ok"),
        eventType: "Message",
        active: plan.active,
        description: plan.description,
        demoLabel: plan.label,
        demoReceiver: plan.receiver,
        createdDate: new Date(historyStart - 3600_000).toISOString(),
      });
    }
    seedHistory(store, channels, historyStart, now.getTime());
    seedBusyHistory(store, channels, now.getTime());
    seedStaging(store, baseUrl, historyStart, now.getTime());
  })();
}

/** Staging: one channel, two webhooks, STAGING.messages past messages each delivered to both. */
function seedStaging(store: Store, baseUrl: string, start: number, end: number): void {
  store.createApplication(STAGING.name, STAGING.apiKey, STAGING.applicationId);
  store.setMeta(META_STAGING_APPLICATION, STAGING.applicationId);
  const channel = store.createChannel(STAGING.applicationId, STAGING.channel.kind, STAGING.channel.id);
  for (const plan of STAGING.webhooks) {
    store.createWebhook({
      id: plan.id,
      applicationId: STAGING.applicationId,
      endpoint: receiverUrl(baseUrl, plan.receiver),
      eventType: "Message",
      active: true,
      description: plan.description,
      demoLabel: plan.label,
      demoReceiver: plan.receiver,
      createdDate: new Date(start - 3600_000).toISOString(),
    });
  }
  const prng = new Prng(PRNG_SEED + 2);
  const step = (end - start) / STAGING.messages;
  for (let i = 0; i < STAGING.messages; i++) {
    const createdAt = Math.floor(start + i * step + prng.next() * step * 0.5);
    const message = pastMessage(store, prng, STAGING.applicationId, channel, createdAt);
    for (const plan of STAGING.webhooks) {
      const statusCode = prng.weighted(plan.statuses);
      const sendAt = createdAt + prng.int(5, 400);
      const duration = prng.int(2, 900);
      pastLog(store, prng, { webhookId: plan.id, messageId: message.id, statusCode, sendAt, duration }, () =>
        historyBody(plan, statusCode, false, prng),
      );
    }
  }
}

const TEXTS = [
  "Your order #4821 has shipped.",
  "Your verification code is 381 204.",
  "Reminder: your appointment is tomorrow at 10:30.",
  "Payment received, thank you!",
  "Olá! Seu pedido saiu para entrega.",
];

/** A past message of the history (no deliveries queued: its logs are recorded by the seed). */
function pastMessage(store: Store, prng: Prng, applicationId: string, channel: Channel, createdAt: number) {
  return store.createMessage({
    id: prng.uuid(),
    applicationId,
    channel,
    to: `55119${prng.int(10_000_000, 99_999_999)}`,
    content: { text: prng.pick(TEXTS) },
    createdDate: new Date(createdAt).toISOString(),
    queueDeliveries: false,
  });
}

/** A past delivery's log: sent at `sendAt`, answered `duration` ms later with `body()` (drawn after its id). */
function pastLog(
  store: Store,
  prng: Prng,
  log: { webhookId: string; messageId: string; statusCode: number; sendAt: number; duration: number },
  body: () => string,
): void {
  const { webhookId, messageId, statusCode, sendAt, duration } = log;
  store.recordLog({
    id: prng.uuid(),
    webhookId,
    deliveryId: null,
    messageId,
    statusCode,
    responseBody: body(),
    status: statusCode >= 200 && statusCode < 300 ? "Success" : "Failed",
    sendAt: new Date(sendAt).toISOString(),
    createdDate: new Date(sendAt + duration).toISOString(),
  });
}

function seedHistory(store: Store, channels: Channel[], start: number, end: number): void {
  const prng = new Prng(PRNG_SEED);
  const step = (end - start) / HISTORY_MESSAGES;
  const newestIndex = new Map(DEMO_WEBHOOKS.map((p) => [p.id, p.history[1] - 1]));
  for (let i = 0; i < HISTORY_MESSAGES; i++) {
    const channel = channels[i % channels.length];
    if (!channel) throw new Error("no demo channel");
    const createdAt = Math.floor(start + i * step + prng.next() * step * 0.5);
    const message = pastMessage(store, prng, DEMO_APPLICATION_ID, channel, createdAt);
    for (const plan of DEMO_WEBHOOKS) {
      if (i < plan.history[0] || i >= plan.history[1]) continue;
      const newest = newestIndex.get(plan.id) === i;
      const drawn = prng.weighted(plan.statuses);
      const statusCode = (newest && SPECIAL_NEWEST[plan.receiver ?? ""]?.statusCode) || drawn;
      const sendAt = createdAt + prng.int(5, 400);
      const duration = statusCode === 0 && plan.receiver === "hang" ? 5000 : prng.int(2, 900);
      pastLog(store, prng, { webhookId: plan.id, messageId: message.id, statusCode, sendAt, duration }, () =>
        historyBody(plan, statusCode, newest, prng),
      );
    }
  }
}

function seedBusyHistory(store: Store, channels: Channel[], end: number): void {
  const plan = DEMO_WEBHOOKS.find((p) => p.label === BUSY_LABEL);
  if (!plan) throw new Error("no busy demo webhook");
  const prng = new Prng(PRNG_SEED + 1);
  const streakStart = end - BUSY.streakMinutes * 60_000;
  const start = end - BUSY.days * 24 * 3600_000;
  const before = BUSY.logs - BUSY.streak;
  for (let i = 0; i < BUSY.logs; i++) {
    const inStreak = i >= before;
    const [from, span, index, count] = inStreak
      ? [streakStart, end - 60_000 - streakStart, i - before, BUSY.streak]
      : [start, streakStart - start, i, before];
    const step = span / count;
    const sendAt = Math.floor(from + index * step + prng.next() * step * 0.8);
    // The attempt just before the streak succeeded, so the streak is exactly BUSY.streak long.
    const statusCode = inStreak
      ? prng.weighted(BUSY.streakStatuses)
      : i === before - 1
        ? 200
        : prng.weighted(BUSY.statuses);
    const channel = channels[i % channels.length];
    if (!channel) throw new Error("no demo channel");
    const message = store.createMessage({
      id: prng.uuid(),
      applicationId: DEMO_APPLICATION_ID,
      channel,
      to: `55119${prng.int(10_000_000, 99_999_999)}`,
      content: { text: prng.pick(TEXTS) },
      createdDate: new Date(sendAt - prng.int(5, 400)).toISOString(),
      queueDeliveries: false,
    });
    store.recordLog({
      id: prng.uuid(),
      webhookId: plan.id,
      deliveryId: null,
      messageId: message.id,
      statusCode,
      responseBody: historyBody(plan, statusCode, false, prng),
      status: statusCode >= 200 && statusCode < 300 ? "Success" : "Failed",
      sendAt: new Date(sendAt).toISOString(),
      createdDate: new Date(sendAt + (statusCode === 0 ? 5000 : prng.int(2, 900))).toISOString(),
    });
  }
}

/** ~200 KB: an endpoint that dumps a whole page and stack trace (kept whole in the history, unlike live logs). */
function largeBody(): string {
  const frame =
    "    at Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)\n";
  const head = "<!DOCTYPE html>\n<html><head><title>500 Internal Server Error</title></head><body><pre>\n";
  const tail = "</pre></body></html>\n";
  return head + frame.repeat(Math.ceil((200 * 1024) / frame.length)) + tail;
}

const XSS_BODY =
  '<!DOCTYPE html><html><head><title>Not Found</title></head><body><h1>Not Found</h1><script>alert(1)</script><img src="x" onerror="alert(2)"></body></html>';

/** The newest history log of these demo webhooks has a body meant to test the console's rendering. */
const SPECIAL_NEWEST: Record<string, { statusCode: number; body: () => string }> = {
  "not-found": { statusCode: 404, body: () => XSS_BODY },
  error: { statusCode: 500, body: largeBody },
};

function historyBody(
  plan: Pick<DemoWebhookPlan, "receiver">,
  statusCode: number,
  newest: boolean,
  prng: Prng,
): string {
  const special = newest ? SPECIAL_NEWEST[plan.receiver ?? ""] : undefined;
  if (special) return special.body();
  switch (statusCode) {
    case 0:
      return plan.receiver === "hang"
        ? "[sandbox] No answer from the endpoint: no complete answer within 5000 ms (SANDBOX_DELIVERY_TIMEOUT_MS)."
        : plan.receiver === null
          ? "[sandbox] No answer from the endpoint: connection refused by 127.0.0.1:1 (ECONNREFUSED): nothing listens there."
          : "[sandbox] No answer from the endpoint: the TLS handshake with hooks.example.com failed (CERT_HAS_EXPIRED): " +
            "the certificate is invalid or not trusted.";
    case 200:
      return prng.pick(['{"received":true}', `{"ok":true,"id":"evt_${prng.hex(16)}"}`, "OK", ""]);
    case 301:
    case 302:
      return "Moved. Redirecting to https://hooks.example.com/v2/messages";
    case 400:
      return '{"error":"bad_request","message":"unexpected payload: content.body is required"}';
    case 401:
      return JSON.stringify(UNAUTHORIZED_BODY);
    case 403:
      return '{"error":"forbidden","message":"IP address not allowed"}';
    case 404:
      return notFoundHtml("/webhooks/messages");
    case 405:
      return "Method Not Allowed";
    case 410:
      return "Gone: this endpoint was retired on 2024-05-01.";
    case 429:
      return '{"error":"rate_limited","message":"Too many requests, retry in 30 seconds","retryAfter":30}';
    case 500:
      return prng.pick([
        "<!DOCTYPE html>\n<html><head><title>500 Internal Server Error</title></head>\n<body><h1>Internal Server Error</h1><p>TypeError: " +
          "Cannot read properties of undefined (reading 'text')</p></body></html>\n",
        '{"error":"internal","message":"database connection lost","requestId":"req_' + prng.hex(12) + '"}',
      ]);
    case 502:
      return (
        "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 " +
        "Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
      );
    case 503:
      return "Service Unavailable";
    case 504:
      return (
        "<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 " +
        "Gateway Time-out</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
      );
    default:
      return `HTTP ${statusCode}`;
  }
}
