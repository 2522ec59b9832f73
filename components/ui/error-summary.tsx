"use client";

import { useEffect, useRef } from "react";

/**
 * "N fields need a change" above a form, shown after a refused submit: it takes the focus (so a
 * screen reader reads it), and each message is a button that moves to its field.
 */
export function ErrorSummary({
  errors,
  title,
}: {
  /** Field name (the control's `name`) → its message. */
  errors: Record<string, string>;
  title: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const entries = Object.entries(errors);
  useEffect(() => {
    if (entries.length > 0) ref.current?.focus();
  }, [errors]); // eslint-disable-line react-hooks/exhaustive-deps -- a new refusal, not a new length
  if (entries.length === 0) return null;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-950 dark:border-red-900 dark:bg-red-950/50 dark:text-red-100"
    >
      <p className="font-semibold">
        {title}: {entries.length === 1 ? "1 field needs" : `${entries.length} fields need`} a change
      </p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {entries.map(([name, message]) => (
          <li key={name}>
            <button
              type="button"
              className="text-left underline underline-offset-2"
              onClick={() => document.getElementsByName(name)[0]?.focus()}
            >
              {message}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
