import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { AppError } from "@/lib/server/app-error";
import { serverConfig } from "@/lib/server/config";
import { isLocalCaller } from "@/lib/server/http/local-caller";

/**
 * Who may read /metrics: with METRICS_TOKEN set, whoever sends it as a bearer token (compared in
 * constant time); without it, callers on this machine only (local-caller.ts). Never the session
 * cookie: a person signed in to the console is no scraper. Refusals are 403 `forbidden`, not
 * `unauthorized`, which would end the session of a browser that opened the address.
 */
export function assertMetricsAccess(request: Request): void {
  const token = serverConfig().metricsToken;
  if (token === null) {
    if (isLocalCaller(request)) return;
    throw new AppError(
      "forbidden",
      "Metrics: without METRICS_TOKEN, /metrics answers callers on the console's own machine only, not through a proxy. " +
        "Set METRICS_TOKEN on the console and send it as 'Authorization: Bearer <METRICS_TOKEN>' to scrape from elsewhere.",
    );
  }
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (sent === undefined) {
    throw new AppError(
      "forbidden",
      "Metrics: send the console's METRICS_TOKEN as 'Authorization: Bearer <METRICS_TOKEN>' (in Prometheus, the scrape config's authorization credentials).",
    );
  }
  if (!tokensEqual(sent, token)) {
    throw new AppError(
      "forbidden",
      "Metrics: the bearer token is not this console's METRICS_TOKEN. Send the value the console was started with.",
    );
  }
}

/** Equal strings, compared in a time that tells nothing of where they differ (their hashes have one length). */
function tokensEqual(sent: string, token: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(sent), digest(token));
}
