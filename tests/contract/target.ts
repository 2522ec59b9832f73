/**
 * What the contract suite runs against.
 *
 * By default: an in-process sandbox (in memory, a free port, no demo data) set up through its
 * admin routes — an application with a channel and a webhook that has 25 logs (15 Success, 10
 * Failed), and a second application for the "another Application" rules.
 *
 * Against any API (the real one, to check it against the spec), set:
 *   HUB_CONTRACT_BASE_URL        base address, e.g. https://api.example.com
 *   HUB_CONTRACT_API_KEY         an application's API key
 *   HUB_CONTRACT_WEBHOOK_ID      a webhook of that application, ideally with some logs of each status
 * and optionally:
 *   HUB_CONTRACT_CHANNEL_KIND    a channel kind the API knows (default whatsapp), for the 404 rules
 *   HUB_CONTRACT_CHANNEL_ID      a channel of the application, of that kind ...
 *   HUB_CONTRACT_SEND_TO         ... and a recipient you own: only then does the suite send real
 *                                messages (and checks that each produces a log on the webhook)
 *   HUB_CONTRACT_FOREIGN_WEBHOOK_ID / HUB_CONTRACT_FOREIGN_CHANNEL_ID
 *                                a webhook / channel of ANOTHER application, for spec part 5.4
 *   HUB_CONTRACT_WAIT_MS         how long to wait for a delivery's log (default 60000)
 * Rules that need the sandbox's admin routes (rotating a key, webhooks at chosen endpoints) are
 * skipped there, each saying why.
 */
import { receiverUrl as receiverAt } from "../../lib/sandbox/receivers";
import { HubApi, SandboxAdmin } from "../sandbox/support/clients";
import { startTestSandbox } from "../sandbox/support/sandbox";

export interface SandboxPowers {
  admin: SandboxAdmin;
  /** URL of one of the sandbox's own receivers (`ok`, `error`, `hang`, ...). */
  receiverUrl(name: string): string;
  /** Resolves when every queued delivery has been attempted and logged. */
  whenIdle(): Promise<void>;
}

export interface ContractTarget {
  mode: "sandbox" | "external";
  baseUrl: string;
  apiKey: string;
  api: HubApi;
  webhookId: string;
  channelKind: string;
  /** A channel of the key's application, when messages may be sent. */
  channel?: { id: string; kind: string };
  /** A recipient messages may be sent to; sending tests skip without it. */
  sendTo?: string;
  foreignWebhookId?: string;
  foreignChannel?: { id: string; kind: string };
  waitMs: number;
  /** Only against the in-process sandbox. */
  sandbox?: SandboxPowers;
  close(): Promise<void>;
}

export const SKIP_NEEDS_ADMIN =
  "needs the sandbox's admin routes (webhooks at chosen endpoints, key rotation): runs against the sandbox only";
export const SKIP_NEEDS_SEND =
  "sends real messages: set HUB_CONTRACT_CHANNEL_ID, HUB_CONTRACT_CHANNEL_KIND and HUB_CONTRACT_SEND_TO (a recipient you own)";
export const SKIP_NEEDS_FOREIGN =
  "set HUB_CONTRACT_FOREIGN_WEBHOOK_ID / HUB_CONTRACT_FOREIGN_CHANNEL_ID (ids of another application)";

export const externalMode = Boolean(process.env.HUB_CONTRACT_BASE_URL);

export async function setUpTarget(): Promise<ContractTarget> {
  return externalMode ? externalTarget() : sandboxTarget();
}

function externalTarget(): ContractTarget {
  const env = process.env;
  const missing = ["HUB_CONTRACT_API_KEY", "HUB_CONTRACT_WEBHOOK_ID"].filter((name) => !env[name]);
  if (missing.length > 0) {
    throw new Error(
      `HUB_CONTRACT_BASE_URL is set, so the contract suite runs against it; also set ${missing.join(" and ")}.`,
    );
  }
  const baseUrl = (env.HUB_CONTRACT_BASE_URL ?? "").replace(/\/+$/, "");
  const apiKey = env.HUB_CONTRACT_API_KEY ?? "";
  const channelKind = env.HUB_CONTRACT_CHANNEL_KIND || "whatsapp";
  return {
    mode: "external",
    baseUrl,
    apiKey,
    api: new HubApi(baseUrl, apiKey),
    webhookId: env.HUB_CONTRACT_WEBHOOK_ID ?? "",
    channelKind,
    channel: env.HUB_CONTRACT_CHANNEL_ID ? { id: env.HUB_CONTRACT_CHANNEL_ID, kind: channelKind } : undefined,
    sendTo: env.HUB_CONTRACT_SEND_TO || undefined,
    foreignWebhookId: env.HUB_CONTRACT_FOREIGN_WEBHOOK_ID || undefined,
    foreignChannel: env.HUB_CONTRACT_FOREIGN_CHANNEL_ID
      ? { id: env.HUB_CONTRACT_FOREIGN_CHANNEL_ID, kind: channelKind }
      : undefined,
    waitMs: Number(env.HUB_CONTRACT_WAIT_MS) || 60_000,
    close: async () => {},
  };
}

async function sandboxTarget(): Promise<ContractTarget> {
  // 1.5 s: local receivers answer well within it even on a busy machine; the hang receiver waits it out.
  const { sandbox, admin } = await startTestSandbox({ deliveryTimeoutMs: 1500 });
  const receiverUrl = (name: string) => receiverAt(sandbox.url, name);
  const app = await admin.application("whatsapp");
  const webhook = await admin.createWebhook(app.id, { endpoint: receiverUrl("ok") });
  const api = new HubApi(sandbox.url, app.apiKey);
  const send = (text: string) =>
    api.send("whatsapp", { from: app.channel.id, to: "5511999990000", content: { text } });
  // 15 Success then 10 Failed, so paging and the status filter have something to show.
  for (let i = 0; i < 15; i++) await send(`ok ${i}`);
  await sandbox.whenIdle();
  await admin.patchWebhook(webhook.id, { endpoint: receiverUrl("error") });
  for (let i = 0; i < 10; i++) await send(`failing ${i}`);
  await sandbox.whenIdle();
  await admin.patchWebhook(webhook.id, { active: false });

  const other = await admin.application("whatsapp");
  const otherWebhook = await admin.createWebhook(other.id, { endpoint: receiverUrl("ok") });

  return {
    mode: "sandbox",
    baseUrl: sandbox.url,
    apiKey: app.apiKey,
    api,
    webhookId: webhook.id,
    channelKind: "whatsapp",
    channel: app.channel,
    sendTo: "5511999990000",
    foreignWebhookId: otherWebhook.id,
    foreignChannel: other.channel,
    waitMs: 10_000,
    sandbox: { admin, receiverUrl, whenIdle: () => sandbox.whenIdle() },
    close: () => sandbox.close({ graceMs: 0 }),
  };
}
