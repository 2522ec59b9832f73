import type { WebhookLog } from "@/lib/domain/hub-schemas";
import { FOLLOW_TIMEOUT_MS } from "@/lib/domain/follow";
import { statusMeaning } from "@/lib/domain/status-meaning";
import type { FollowState } from "@/components/send/use-follow-deliveries";
import type { SendOutcome } from "@/components/send/use-send-message";
import { StatusBadge } from "@/components/logs/status-badge";

/* What the send form shows after a send went through: the hub's answer and where its delivery is. A chunk of its own. */

export function SendResult({
  outcome,
  follow,
  webhookActive,
  onShowDelivery,
}: {
  outcome: SendOutcome;
  follow: FollowState;
  webhookActive: boolean;
  onShowDelivery: (logId: string) => void;
}) {
  const current = follow.target === outcome.target;
  return (
    <div className="space-y-2 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-emerald-950 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-50">
      <p>
        <span className="font-semibold">Sent.</span>{" "}
        {outcome.messageId ? (
          <>
            The Messaging Hub accepted it as message{" "}
            <span className="font-mono text-xs break-all">{outcome.messageId}</span>.
          </>
        ) : (
          "The Messaging Hub accepted it (its answer named no message ID)."
        )}
      </p>
      <details className="text-xs">
        <summary className="w-fit cursor-pointer">What the API answered</summary>
        <pre className="mt-1 overflow-x-auto whitespace-pre-wrap">
          {JSON.stringify(outcome.answer, null, 2) ?? "(no body)"}
        </pre>
      </details>
      {current && follow.phase === "waiting" ? (
        <p>
          Waiting for its delivery to this webhook (up to {FOLLOW_TIMEOUT_MS / 1000} s)…
          {!webhookActive ? " This webhook is inactive, so none may come." : ""}
        </p>
      ) : null}
      {current && follow.phase === "landed" ? (
        <Landed deliveries={follow.deliveries} onShowDelivery={onShowDelivery} />
      ) : null}
      {current && follow.phase === "timed_out" ? (
        <p className="text-amber-900 dark:text-amber-200">
          No delivery of this message reached this webhook&apos;s log within {FOLLOW_TIMEOUT_MS / 1000}{" "}
          seconds.{" "}
          {webhookActive
            ? "The hub may still be trying (a slow endpoint takes until its delivery timeout); turn on Auto-refresh to keep watching."
            : "This webhook is inactive, so the hub does not deliver to it."}
        </p>
      ) : null}
    </div>
  );
}

function Landed({
  deliveries,
  onShowDelivery,
}: {
  deliveries: WebhookLog[];
  onShowDelivery: (logId: string) => void;
}) {
  return (
    <div className="space-y-1">
      <p className="font-semibold">
        {deliveries.length === 1 ? "Its delivery has landed" : `${deliveries.length} deliveries have landed`};
        highlighted in the log table.
      </p>
      <ul className="space-y-1">
        {deliveries.map((log) => {
          const meaning = statusMeaning(log.statusCode);
          return (
            <li key={log.id} className="flex flex-wrap items-center gap-2">
              <StatusBadge status={log.status} />
              <span>
                {meaning.title}
                {log.status === "Failed" ? ` — ${meaning.cause}` : ""}
              </span>
              <button type="button" className="btn btn-small" onClick={() => onShowDelivery(log.id)}>
                Details<span className="sr-only"> of this delivery</span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
