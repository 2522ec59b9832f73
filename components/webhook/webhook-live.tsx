"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState, type ReactNode } from "react";
import type { DemoChannelOption } from "@/components/send/send-message-form";
import { SendMessagePart } from "@/components/send/send-message-part";
import { Highlighted } from "@/components/webhook/highlighted";

/** The view's parameters that narrow the table from the newest deliveries of every status. */
const NARROWING = ["status", "code", "since", "until", "contains", "issue"];

const NONE: ReadonlySet<string> = new Set();

/**
 * What the log table and the send form share on a webhook's page: the deliveries of the test
 * message followed (the form follows it, in its own chunk). They are highlighted in the table
 * (rendered on the server, as `children`), and once they land the page asks the server for its
 * answer again (the rows and the Errors count now differ). Sending shows the newest deliveries of
 * every status (`newestHref`), where they land, unless the URL shows them already (this part is
 * rendered once for every view of the table).
 */
export function WebhookLive({
  webhookId,
  webhookActive,
  demoChannels,
  newestHref,
  children,
}: {
  webhookId: string;
  webhookActive: boolean;
  demoChannels: DemoChannelOption[];
  newestHref: string;
  children: ReactNode;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const [highlighted, setHighlighted] = useState(NONE);

  function onSent() {
    setHighlighted(NONE);
    const showingNewest = (search.get("page") ?? "1") === "1" && !NARROWING.some((name) => search.has(name));
    if (!showingNewest) router.push(newestHref, { scroll: false });
  }

  return (
    <Highlighted value={highlighted}>
      <div className="grid items-start gap-5 2xl:grid-cols-[minmax(0,1fr)_22rem]">
        {children}
        <SendMessagePart
          webhookId={webhookId}
          webhookActive={webhookActive}
          demoChannels={demoChannels}
          onSent={onSent}
          onLanded={(deliveries) => {
            setHighlighted(new Set(deliveries.map((log) => log.id)));
            router.refresh();
          }}
          onShowDelivery={(logId) => {
            // Over the view shown: closing the delivery comes back to it.
            const query = new URLSearchParams(search);
            query.set("log", logId);
            router.replace(`${pathname}?${query}`, { scroll: false });
          }}
        />
      </div>
    </Highlighted>
  );
}
