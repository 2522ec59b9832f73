"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState, type ReactNode } from "react";
import type { FollowTarget } from "@/lib/domain/follow";
import { fetchWebhook, webhookQueryOptions } from "@/lib/browser/queries";
import { useAutoRefresh } from "@/lib/browser/use-auto-refresh";
import { webhookKeys } from "@/lib/domain/query-keys";
import { WebhookLogs } from "@/components/logs/webhook-logs";
import { useLogView } from "@/components/logs/use-log-view";
import type { DemoChannelOption } from "@/components/send/send-message-form";
import { SendMessagePart } from "@/components/send/send-message-part";
import { useFollowDeliveries } from "@/components/send/use-follow-deliveries";
import { WebhookHeader } from "@/components/webhook/webhook-header";
import { HealthRegion } from "@/components/health/health-region";
import { WebhookIssuesPanel } from "@/components/issues/webhook-issues-panel";
import { isHistoryView } from "@/lib/domain/log-view";
import { NO_HISTORY_FILTERS } from "@/lib/domain/search-params";

/**
 * The webhook page's interactive part: header, logs and send form share the live state
 * (auto-refresh, the test message being followed). Its data was prefetched by the server page
 * and arrives hydrated, so the first render already holds the header and the rows.
 */
export function WebhookView({
  webhookId,
  demoChannels,
  findBox,
}: {
  webhookId: string;
  demoChannels: DemoChannelOption[];
  /** The "Find a delivery" form, rendered on the server. */
  findBox: ReactNode;
}) {
  const [autoRefresh, setAutoRefresh] = useState(false);
  const [followTarget, setFollowTarget] = useState<FollowTarget | null>(null);
  const follow = useFollowDeliveries(webhookId, followTarget);
  const queryClient = useQueryClient();
  const [view, setView] = useLogView();
  const { data: webhook } = useQuery(webhookQueryOptions(webhookId));
  useAutoRefresh(autoRefresh, webhookId, async (signal) => {
    const fresh = await fetchWebhook(webhookId, { signal, poll: true });
    queryClient.setQueryData(webhookKeys.webhook(webhookId), fresh);
  });

  const highlightIds = useMemo(() => new Set(follow.deliveries.map((log) => log.id)), [follow.deliveries]);

  function onSent(target: FollowTarget) {
    setFollowTarget(target);
    // Show the newest deliveries of every status, where this message's will land.
    if (view.page !== 1 || view.status !== null || isHistoryView(view)) {
      void setView({ status: null, ...NO_HISTORY_FILTERS, page: null, log: null });
    }
  }

  return (
    <div className="space-y-5">
      {/* On a phone the rows are far below the header, health and filters. */}
      <a href="#deliveries" className="btn btn-secondary w-full sm:hidden">
        Skip to deliveries
      </a>
      <WebhookHeader webhookId={webhookId} webhook={webhook} />
      <HealthRegion webhookId={webhookId} />
      <WebhookIssuesPanel webhookId={webhookId} />
      <div className="grid items-start gap-5 2xl:grid-cols-[minmax(0,1fr)_22rem]">
        <WebhookLogs
          webhookId={webhookId}
          autoRefresh={autoRefresh}
          onAutoRefreshChange={setAutoRefresh}
          highlightIds={highlightIds}
          findBox={findBox}
        />
        <SendMessagePart
          webhookId={webhookId}
          webhookActive={webhook?.active ?? true}
          demoChannels={demoChannels}
          follow={follow}
          onSent={onSent}
          onShowDelivery={(logId) => void setView({ log: logId }, { history: "replace" })}
        />
      </div>
    </div>
  );
}
