"use client";

import dynamic from "next/dynamic";
import { useRef } from "react";
import { useAfterLoad } from "@/lib/browser/use-after-load";
import { PartBoundary, PartUnavailable } from "@/components/ui/part-boundary";
import type { SendMessageFormProps } from "@/components/send/send-message-form";
import { useReached } from "@/components/send/use-reached";

const loading = <p className="text-sm">Loading the form…</p>;

/** The form with its schema and its mutation: a chunk of their own, rendered in the browser only. */
const SendMessageForm = dynamic(
  () => import("@/components/send/send-message-form").then((loaded) => loaded.SendMessageForm),
  { ssr: false, loading: () => loading },
);

/**
 * "Send a test message": the section and its heading come with the page; the form follows once
 * the page has loaded and the person comes near it (below a long table, when they scroll to it).
 * Its chunk, zod included, is not needed before: asked for while the page's streamed parts
 * hydrate, it would weigh on the page's first load.
 */
export function SendMessagePart(props: SendMessageFormProps) {
  const section = useRef<HTMLElement>(null);
  const afterLoad = useAfterLoad();
  const reached = useReached(section, afterLoad);
  return (
    <section ref={section} aria-labelledby="send-heading" className="card space-y-3 p-4">
      <div>
        <h2 id="send-heading" className="text-base font-semibold">
          Send a test message
        </h2>
        <p className="field-hint">
          The hub delivers a Message event to every active webhook of the key&apos;s application; this page
          then follows the delivery to this webhook.
        </p>
      </div>
      {reached && afterLoad ? (
        <PartBoundary fallback={<PartUnavailable what="send form" />}>
          <SendMessageForm {...props} />
        </PartBoundary>
      ) : (
        loading
      )}
    </section>
  );
}
