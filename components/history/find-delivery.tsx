import { FIND_INPUT_MAX } from "@/lib/domain/api-limits";
import { capHint } from "@/lib/domain/inputs/field-message";

/**
 * "Find a delivery": a message ID, a log ID or a pasted console link. A plain GET form, rendered
 * on the server and working without the page's script: the page reads `?find=`, then opens the
 * delivery (`?log=`), which the log view finds wherever it is in the history.
 */
export function FindDelivery({
  webhookId,
  app,
  error,
}: {
  webhookId: string;
  app: string;
  error: string | null;
}) {
  const describedBy = error ? "find-delivery-error find-delivery-hint" : "find-delivery-hint";
  return (
    <form
      method="get"
      action={`/webhooks/${encodeURIComponent(webhookId)}`}
      aria-label="Find a delivery"
      className="space-y-1 text-sm"
    >
      {/* A GET form replaces the whole query: the page's application goes with it. */}
      <input type="hidden" name="app" value={app} />
      <label htmlFor="find-delivery" className="field-label">
        Find a delivery
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          id="find-delivery"
          name="find"
          required
          autoComplete="off"
          spellCheck={false}
          aria-keyshortcuts="/"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="field-input min-w-0 flex-1 font-mono"
        />
        <button type="submit" className="btn btn-secondary">
          Find
        </button>
      </div>
      {error ? (
        <p id="find-delivery-error" className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <p id="find-delivery-hint" className="field-hint">
        A message ID, a log ID or a console link: opens its details, wherever it is in the history.{" "}
        {capHint(FIND_INPUT_MAX)}
      </p>
    </form>
  );
}
