import type { ReactNode } from "react";
import type { Webhook } from "@/lib/domain/hub-schemas";
import type { FailingStreak } from "@/lib/domain/history/health";
import { streakText } from "@/lib/domain/health-text";
import { formatCount } from "@/lib/domain/format-count";
import { webhookName } from "@/lib/domain/webhook-name";
import { HiddenValue } from "@/components/webhook/later-parts";
import { LocalTime } from "@/components/ui/local-time";

const SENSITIVE_KEY = /secret|token|password|passphrase|api[-_]?key|signature/i;
const MUTED = "text-zinc-600 dark:text-zinc-400";

/**
 * The top of a webhook's page: its name (the watch's, else the webhook's own, else its endpoint),
 * the endpoint beneath, one line of state (Active, Errors, and `failing`: since when it fails),
 * the page's links (`actions`), and every field the API returned, folded.
 */
export function WebhookHeading({
  webhook,
  watchName,
  failing,
  actions,
}: {
  webhook: Webhook;
  watchName: string | null;
  /** "Failing since …": streamed once the copy answers. */
  failing: ReactNode;
  actions: ReactNode;
}) {
  const name = watchName || webhookName(webhook) || webhook.endpoint;
  return (
    <section aria-labelledby="webhook-heading" className="space-y-2">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0 space-y-0.5">
          <h1 id="webhook-heading" className="text-xl leading-snug font-semibold break-words">
            {name}
          </h1>
          <p className="font-mono text-xs break-all text-zinc-700 dark:text-zinc-300">
            <span className="sr-only">Endpoint: </span>
            {webhook.endpoint}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm">{actions}</div>
      </div>
      <dl className="flex flex-wrap items-baseline gap-x-5 gap-y-1 text-sm">
        <div className="flex gap-1.5">
          <dt className="sr-only">State</dt>
          <dd className="font-semibold">
            {webhook.active ? (
              <span className="text-emerald-800 dark:text-emerald-300">Active</span>
            ) : (
              <span>Inactive</span>
            )}
          </dd>
        </div>
        <div className="flex gap-1.5">
          <dt className={MUTED}>Errors</dt>{" "}
          <dd
            className={`font-semibold tabular-nums ${webhook.numberOfErrors > 0 ? "text-red-800 dark:text-red-300" : ""}`}
          >
            {formatCount(webhook.numberOfErrors)}
          </dd>
        </div>
        {failing}
      </dl>
      {!webhook.active ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          This webhook is inactive: the hub does not call its endpoint, so new messages cause no deliveries
          here.
        </p>
      ) : null}
      <AllFields webhook={webhook} />
    </section>
  );
}

/**
 * "Failing since 09:12 — 37 attempts in a row", in the state line; nothing when the newest attempt
 * succeeded. `asOf`: when the answer was made (ms since the epoch).
 */
export function FailingSince({ streak, asOf }: { streak: FailingStreak | null; asOf: number }) {
  if (!streak) return null;
  return (
    <div className="flex flex-wrap gap-x-1.5">
      {/* "before" when the read stopped (its cap) before reaching the streak's start. */}
      <dt className="font-semibold text-red-800 dark:text-red-300">Failing since</dt>{" "}
      <dd>
        {streak.atLeast ? "before " : ""}
        <LocalTime iso={streak.since} form="short" asOf={asOf} /> — {streakText(streak)}
      </dd>
    </div>
  );
}

function AllFields({ webhook }: { webhook: Webhook }) {
  const entries = Object.entries(webhook);
  return (
    <details className="group text-sm">
      <summary className="w-fit cursor-pointer rounded-sm text-xs font-medium text-blue-700 select-none dark:text-blue-400">
        All fields{" "}
        <span className={`font-normal ${MUTED}`}>({entries.length}, as the API returned them)</span>
      </summary>
      <dl className="mt-2 grid gap-x-6 gap-y-2 rounded-lg bg-zinc-50 p-3 sm:grid-cols-[max-content_1fr] dark:bg-zinc-800/60">
        {entries.map(([key, value]) => (
          <div key={key} className="contents">
            <dt className="font-mono text-xs font-semibold text-zinc-700 dark:text-zinc-300">{key}</dt>
            <dd className="min-w-0 font-mono text-xs break-all">
              {SENSITIVE_KEY.test(key) && value !== null && value !== "" ? (
                <HiddenValue>
                  <FieldValue value={value} />
                </HiddenValue>
              ) : (
                <FieldValue value={value} />
              )}
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

function FieldValue({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className={MUTED}>null</span>;
  if (typeof value === "object")
    return <pre className="whitespace-pre-wrap">{JSON.stringify(value, null, 2)}</pre>;
  return <>{String(value)}</>;
}
