"use client";

import dynamic from "next/dynamic";
import { useAfterLoad } from "@/lib/browser/use-after-load";
import { PartBoundary, PartUnavailable } from "@/components/ui/part-boundary";
import type { SendMessageFormProps } from "@/components/send/send-message-form";

const loading = <p className="text-sm">Loading the form…</p>;

/** The form with its schema and its mutation: a chunk of their own, rendered in the browser only. */
const SendMessageForm = dynamic(
  () => import("@/components/send/send-message-form").then((loaded) => loaded.SendMessageForm),
  { ssr: false, loading: () => loading },
);

/** "Send a test message": the section and its heading come with the page, the form follows. */
export function SendMessagePart(props: SendMessageFormProps) {
  // Asked for when hydrating, its chunk (zod included) takes first-load JS past its budget (bench row "page weight").
  const afterLoad = useAfterLoad();
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
          <SendMessageForm {...props} />
        </PartBoundary>
      ) : (
        loading
      )}
    </section>
  );
}
