import { FIND_INPUT_MAX } from "@/lib/domain/api-limits";
import { capHint } from "@/lib/domain/inputs/field-message";

/**
 * "Find a delivery": a message ID, a log ID or a pasted console link. A plain GET form, rendered
 * on the server and working without the page's script: the page reads `?find=`, then opens the
 * delivery (`?log=`) over the view it was asked from (`view`: the page's own parameters, sent
 * along), which finds it wherever it is in the history. Closing it goes back to that view.
 */
export function FindDelivery({
  webhookId,
  view,
  error,
}: {
  webhookId: string;
  /** The page's parameters (its application first): a GET form replaces the whole query. */
  view: ReadonlyArray<[string, string]>;
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
      {view.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <label htmlFor="find-delivery" className="field-label whitespace-nowrap">
          Find a delivery
        </label>
        <input
          id="find-delivery"
          name="find"
          required
          autoComplete="off"
          spellCheck={false}
          aria-keyshortcuts="/"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="field-input w-auto min-w-0 flex-1 basis-24 font-mono"
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
        A message ID, log ID or console link, anywhere in the history. {capHint(FIND_INPUT_MAX)}
      </p>
    </form>
  );
}
