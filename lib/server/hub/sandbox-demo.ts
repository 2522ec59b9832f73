import "server-only";
import { serverConfig } from "@/lib/server/config";
import type { SandboxDemo } from "@/lib/domain/sandbox-demo";
import { fetchSandboxDemo } from "@/lib/server/hub/client";

/**
 * The sandbox's demo data (`GET /_sandbox/demo`, a loopback-only admin route), for the links to
 * the demo webhooks and the send form's prefill. Only in sandbox mode; any failure is `null`, as
 * the console works without it. The demo key it returns never leaves this module.
 */

const TIMEOUT_MS = 2000;

export async function getSandboxDemo(): Promise<SandboxDemo | null> {
  if (!serverConfig().sandboxMode) return null;
  try {
    const demo = await fetchSandboxDemo(AbortSignal.timeout(TIMEOUT_MS));
    return {
      channels: demo.channels.map(({ id, kind }) => ({ id, kind })),
      webhooks: demo.webhooks.map(({ id, endpoint, eventType, active, label }) => ({
        id,
        endpoint,
        eventType,
        active,
        label: label ?? endpoint,
      })),
    };
  } catch {
    return null;
  }
}
