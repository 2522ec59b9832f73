import "server-only";
import { z } from "zod";
import { serverConfig } from "@/lib/config/server-config";

/**
 * The sandbox's demo data (`GET /_sandbox/demo`, a loopback-only admin route), for the links to
 * the demo webhooks and the send form's prefill. Only in sandbox mode; any failure is `null`, as
 * the console works without it. The demo key it returns never leaves this module.
 */

const demoSchema = z.looseObject({
  apiKey: z.string(),
  channels: z.array(z.looseObject({ id: z.string(), kind: z.string() })).default([]),
  webhooks: z
    .array(
      z.looseObject({
        id: z.string(),
        endpoint: z.string(),
        eventType: z.string().optional(),
        active: z.boolean().optional(),
        label: z.string().optional(),
      }),
    )
    .default([]),
});

export interface DemoChannel {
  id: string;
  kind: string;
}

export interface DemoWebhook {
  id: string;
  endpoint: string;
  eventType: string;
  active: boolean;
  label: string;
}

/** The demo data without its key: safe to hand to client components. */
export interface SandboxDemo {
  channels: DemoChannel[];
  webhooks: DemoWebhook[];
}

const TIMEOUT_MS = 2000;

export async function getSandboxDemo(): Promise<SandboxDemo | null> {
  const { sandboxMode, hubBaseUrl, sandboxAdminToken } = serverConfig();
  if (!sandboxMode || !hubBaseUrl) return null;
  try {
    const response = await fetch(`${hubBaseUrl}/_sandbox/demo`, {
      headers: { accept: "application/json", ...(sandboxAdminToken ? { authorization: `Bearer ${sandboxAdminToken}` } : {}) },
      signal: AbortSignal.timeout(TIMEOUT_MS),
      cache: "no-store",
      redirect: "error",
    });
    if (!response.ok) return null;
    const parsed = demoSchema.safeParse(await response.json());
    if (!parsed.success) return null;
    return {
      channels: parsed.data.channels.map(({ id, kind }) => ({ id, kind })),
      webhooks: parsed.data.webhooks.map((webhook) => ({
        id: webhook.id,
        endpoint: webhook.endpoint,
        eventType: webhook.eventType ?? "Message",
        active: webhook.active ?? true,
        label: webhook.label ?? webhook.endpoint,
      })),
    };
  } catch {
    return null;
  }
}
