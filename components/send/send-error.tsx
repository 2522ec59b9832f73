import { ApiError } from "@/lib/browser/api";
import { Notice } from "@/components/ui/notice";

/** What the send form shows when a send failed. In the page's first chunk: it must show even when the network is gone. */
export function SendError({ error }: { error: unknown }) {
  const message = error instanceof ApiError ? error.message : "The message could not be sent. Try again.";
  const retryAfter = error instanceof ApiError ? error.retryAfter : null;
  return (
    <Notice tone="error" title="Not sent">
      <p>{message}</p>
      {retryAfter ? <p>Try again in about {retryAfter} seconds.</p> : null}
    </Notice>
  );
}
