import "server-only";
import { serverConfig } from "@/lib/server/config";
import type { MessageContext } from "@/lib/domain/alerts/incident-message";
import { evaluateWebhook } from "@/lib/server/alerts/incidents";
import { alertPass } from "@/lib/server/alerts/notify";
import type { StoreContext } from "@/lib/server/store/context";

/**
 * The alert engine as the watcher runs it: the rules judged after each poll of a webhook, and the
 * alert pass every few seconds. A failure is logged (once until it changes) and never stops
 * the watcher: the next poll or pass tries again.
 */
export interface AlertEngine {
  afterPoll(appId: string, webhookId: string): Promise<void>;
  /** Runs the alert pass when the last one is old enough and none is running. */
  pass(): Promise<void>;
}

const PASS_EVERY_MS = 2000;

/**
 * The console's address for links in alerts (PUBLIC_ORIGIN, else http://HOST:PORT), and the
 * operator's REDACT_PATTERNS, masked in every alert.
 */
export function alertLinks(): MessageContext {
  const { publicOrigins, redactPatterns } = serverConfig();
  if (publicOrigins[0]) return { origin: publicOrigins[0], redactPatterns };
  const host = process.env.HOST && process.env.HOST !== "0.0.0.0" ? process.env.HOST : "localhost";
  return { origin: `http://${host}:${process.env.PORT || 3000}`, redactPatterns };
}

export function alertEngine(ctx: StoreContext, intervalSeconds: number, links = alertLinks()): AlertEngine {
  let lastPass = 0;
  let passing = false;
  let lastError = "";
  const report = (what: string) => (error: unknown) => {
    const text = `${what}: ${error instanceof Error ? error.message : String(error)}`;
    if (text !== lastError) console.warn(`[alerts] ${text}`);
    lastError = text;
  };
  return {
    afterPoll: (appId, webhookId) =>
      evaluateWebhook(ctx, links, appId, webhookId, Date.now()).catch(
        report(`the rules of webhook ${webhookId} could not be judged`),
      ),
    async pass() {
      if (passing || Date.now() - lastPass < PASS_EVERY_MS) return;
      passing = true;
      lastPass = Date.now();
      try {
        await alertPass(ctx, { links, intervalSeconds }, Date.now());
      } catch (error) {
        report("the alert pass failed")(error);
      } finally {
        passing = false;
      }
    },
  };
}
