"use client";

import dynamic from "next/dynamic";
import { useAfterLoad } from "@/lib/browser/use-after-load";
import { isHistoryView } from "@/lib/domain/log-view";
import { NO_HISTORY_FILTERS } from "@/lib/domain/search-params";
import { useShownRows } from "@/components/logs/use-log-view";
import { PartBoundary, PartUnavailable } from "@/components/ui/part-boundary";
import type { SendMessageFormProps } from "@/components/send/send-message-form";
import type { FollowTarget } from "@/lib/domain/follow";

const loading = <p className="text-sm">Loading the form…</p>;

/** The form with its schema and its mutation: a chunk of their own, rendered in the browser only. */
const SendMessageForm = dynamic(
  () => import("@/components/send/send-message-form").then((loaded) => loaded.SendMessageForm),
  { ssr: false, loading: () => loading },
);

/**
 * "Send a test message": the section and its heading come with the page, the form follows. Once a
 * message is sent, the table shows the newest deliveries of every status, where its will land.
 */
export function SendMessagePart({ onSent, ...props }: Omit<SendMessageFormProps, "onShowDelivery">) {
  // Asked for when hydrating, its chunk (zod included) takes first-load JS past its budget (bench row "page weight").
  const afterLoad = useAfterLoad();
  const [, setView] = useShownRows();

  function showNewest(target: FollowTarget) {
    onSent(target);
    void setView((view) =>
      view.page !== 1 || view.status !== null || isHistoryView(view)
        ? { status: null, ...NO_HISTORY_FILTERS, page: null, log: null }
        : {},
    );
  }

  return (
    <section aria-labelledby="send-heading" className="card space-y-3 p-4">
      <div>
        <h2 id="send-heading" className="text-base font-semibold">
          Send a test message
        </h2>
        <p className="field-hint">
          The hub delivers a Message event to every active webhook of the key&apos;s application; this page
          then follows the delivery to this webhook.
        </p>
      </div>
      {afterLoad ? (
        <PartBoundary fallback={<PartUnavailable what="send form" />}>
          <SendMessageForm
            {...props}
            onSent={showNewest}
            onShowDelivery={(logId) => void setView({ log: logId }, { history: "replace" })}
          />
        </PartBoundary>
      ) : (
        loading
      )}
    </section>
  );
}
