import { Notice } from "@/components/ui/notice";
import { RefreshButton } from "@/components/errors/refresh-button";
import { LocalTime } from "@/components/ui/local-time";

/**
 * Above a watched webhook's page when the hub does not answer: what is shown comes from the
 * watch's last read, and which parts still need the hub.
 */
export function StoredWebhookNotice({ message, asOf }: { message: string; asOf: string }) {
  return (
    <Notice tone="warning" title="The Messaging Hub is not answering" className="mb-4">
      <p>{message}</p>
      <p>
        Shown instead: this webhook as the watch last read it, at <LocalTime iso={asOf} />. Delivery health
        answers from the watch while its copy is recent; the delivery log and sending need the hub.
      </p>
      <p className="mt-2">
        <RefreshButton />
      </p>
    </Notice>
  );
}
