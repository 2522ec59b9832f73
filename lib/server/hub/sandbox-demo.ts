import "server-only";
import { serverConfig } from "@/lib/server/config";
import type { DemoWebhook, SandboxDemo } from "@/lib/domain/sandbox-demo";
import { fetchSandboxDemo, type SandboxDemoAnswer } from "@/lib/server/hub/client";
import { applicationId } from "@/lib/server/session/key-hash";

/**
 * The sandbox's demo data (`GET /_sandbox/demo`, a loopback-only admin route), for the links to
 * the demo webhooks and the send form's prefill. Only in sandbox mode; any failure is `null`, as
 * the console works without it. The demo keys it returns never leave this module (each demo
 * application is named by the console's id of its key instead).
 */

const TIMEOUT_MS = 2000;

function webhooksOf(app: Pick<SandboxDemoAnswer, "webhooks">): DemoWebhook[] {
  return app.webhooks.map(({ id, endpoint, eventType, active, label }) => ({
    id,
    endpoint,
    eventType,
    active,
    label: label ?? endpoint,
  }));
}

function channelsOf(app: Pick<SandboxDemoAnswer, "channels">) {
  return app.channels.map(({ id, kind }) => ({ id, kind }));
}

export async function getSandboxDemo(): Promise<SandboxDemo | null> {
  if (!serverConfig().sandboxMode) return null;
  try {
    const demo = await fetchSandboxDemo(AbortSignal.timeout(TIMEOUT_MS));
    return {
      channels: channelsOf(demo),
      webhooks: webhooksOf(demo),
      applications: demo.applications.map((app) => ({
        appId: applicationId(app.apiKey),
        name: app.name,
        channels: channelsOf(app),
        webhooks: webhooksOf(app),
      })),
    };
  } catch {
    return null;
  }
}
