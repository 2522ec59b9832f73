import Link from "next/link";
import { Notice } from "@/components/ui/notice";
import type { FieldErrors } from "@/lib/domain/api-error";

const FIELDS = [
  {
    name: "from",
    label: "From",
    hint: "ISO 8601, e.g. 2026-01-31T09:00:00Z (UTC unless it has an offset); a day ago, or the issue's first failure, when empty",
  },
  { name: "to", label: "To", hint: "ISO 8601; now, or the issue's last failure, when empty" },
  {
    name: "tz",
    label: "Time zone",
    hint: "The customer's, e.g. Europe/Berlin; the bundle's times are said in it",
  },
] as const;

/**
 * The window and time zone of a bundle: a plain GET form, so the choice lives in the URL. A failure
 * issue's bundle keeps its issue; its window defaults to the issue's span. An issue the URL names
 * wrongly is said, with the ways on, and not sent again: the form then prepares the window's bundle.
 */
export function BundleForm({
  app,
  issue,
  values,
  errors,
  webhookHref,
}: {
  app: string;
  issue: string | null;
  values: Record<(typeof FIELDS)[number]["name"], string>;
  errors: FieldErrors;
  /** The webhook's page, whose failure issues each hand over their own bundle. */
  webhookHref: string;
}) {
  const issueError = errors.issue?.[0];
  return (
    <form method="get" className="card grid gap-3 p-4 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end">
      <input type="hidden" name="app" value={app} />
      {issue && !issueError ? <input type="hidden" name="issue" value={issue} /> : null}
      {issueError ? (
        <Notice tone="error" title="This link's failure issue cannot be read" className="sm:col-span-4">
          <p id="bundle-issue-error">{issueError}</p>
          <p>
            Open the bundle again from the issue&apos;s Hand over link on{" "}
            <Link href={webhookHref} className="btn-link">
              the webhook&apos;s page
            </Link>
            , or prepare it without the issue: Prepare bundle covers every failure of the window.
          </p>
        </Notice>
      ) : null}
      {FIELDS.map(({ name, label, hint }) => {
        const error = errors[name]?.[0];
        return (
          <div key={name} className="space-y-1 self-start">
            <label htmlFor={`bundle-${name}`} className="field-label">
              {label}
            </label>
            <input
              id={`bundle-${name}`}
              name={name}
              defaultValue={values[name]}
              className="field-input w-full"
              aria-invalid={error ? true : undefined}
              aria-describedby={`bundle-${name}-hint${error ? ` bundle-${name}-error` : ""}`}
            />
            <p id={`bundle-${name}-hint`} className="field-hint">
              {hint}
            </p>
            {error ? (
              <p id={`bundle-${name}-error`} className="field-error">
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
      <button type="submit" className="btn btn-primary sm:mb-6">
        Prepare bundle
      </button>
    </form>
  );
}
