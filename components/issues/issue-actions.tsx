"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { isApiError } from "@/lib/browser/api";
import type { FieldErrors } from "@/lib/domain/api-error";
import { fieldErrors } from "@/lib/domain/inputs/field-errors";
import { capHint } from "@/lib/domain/inputs/field-message";
import {
  ISSUE_LABELS,
  ISSUE_NAME_MAX,
  ISSUE_NOTE_MAX,
  issueChangeSchema,
} from "@/lib/domain/inputs/failure-issue";
import type { FailureIssue, IssueAction, IssueState } from "@/lib/domain/watch/failure-issue";
import { Field } from "@/components/ui/field";
import { changeIssue } from "@/components/issues/issues-api";
import { QueryProvider } from "@/components/ui/query-provider";

/** The actions that make sense from each state, and the words of their buttons and outcomes. */
const ACTIONS: Record<IssueState, IssueAction[]> = {
  open: ["acknowledge", "resolve", "ignore"],
  acknowledged: ["acknowledge", "resolve", "ignore"],
  resolved: ["reopen", "ignore"],
  ignored: ["reopen"],
};
const BUTTON: Record<IssueAction, string> = {
  acknowledge: "Acknowledge",
  resolve: "Resolve",
  ignore: "Ignore",
  reopen: "Reopen",
};
const DONE: Record<IssueAction, string> = {
  acknowledge: "Acknowledged.",
  resolve: "Resolved. A new failure of this cause reopens it.",
  ignore: "Ignored. Its failures still count, and it stays ignored.",
  reopen: "Reopened.",
};

/** The actions with the query client their change goes through (a chunk loaded when opened: see QueryProvider). */
export function IssueActions(props: { issue: FailureIssue; onChanged: (issue: FailureIssue) => void }) {
  return (
    <QueryProvider>
      <IssueActionsForm {...props} />
    </QueryProvider>
  );
}

/**
 * A person's change of an issue: the name they type (every change records it) and a note (needed
 * to acknowledge), checked with the route's own schema before it is sent. Once saved, the issue
 * as it now is goes to `onChanged`, and the line that says so takes the focus: the button pressed
 * may be gone (a resolved issue cannot be resolved again), and the person stays where they were.
 */
function IssueActionsForm({
  issue,
  onChanged,
}: {
  issue: FailureIssue;
  onChanged: (issue: FailureIssue) => void;
}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [done, setDone] = useState<string | null>(null);
  const said = useRef<HTMLParagraphElement>(null);
  const mutation = useMutation({
    mutationFn: (change: { action: IssueAction; name: string; note: string }) =>
      changeIssue(issue.id, change),
    onSuccess: (changed, change) => {
      setDone(DONE[change.action]);
      onChanged(changed);
    },
    onError: (error) => setErrors(isApiError(error) && error.fields ? error.fields : {}),
  });

  useEffect(() => {
    if (done) said.current?.focus();
  }, [done]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const form = new FormData(event.currentTarget);
    const parsed = issueChangeSchema.safeParse({
      action: submitter?.value,
      name: String(form.get("name") ?? ""),
      note: String(form.get("note") ?? ""),
    });
    setDone(null);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    mutation.mutate(parsed.data);
  }

  const error = mutation.error;
  const failure = error && !(isApiError(error) && error.fields) ? error.message : null;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <div className="grid gap-2 sm:grid-cols-[12rem_minmax(0,1fr)]">
        <Field label={ISSUE_LABELS.name} hint={capHint(ISSUE_NAME_MAX)} error={errors.name?.[0]}>
          {(control) => (
            <input {...control} name="name" type="text" autoComplete="name" className="field-input" />
          )}
        </Field>
        <Field
          label={ISSUE_LABELS.note}
          hint={`Needed to acknowledge: what is being done about it. ${capHint(ISSUE_NOTE_MAX)}`}
          error={errors.note?.[0]}
        >
          {(control) => <textarea {...control} name="note" rows={2} className="field-input" />}
        </Field>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {ACTIONS[issue.state].map((action, index) => (
          <button
            key={action}
            type="submit"
            name="action"
            value={action}
            disabled={mutation.isPending}
            className={index === 0 ? "btn btn-primary" : "btn btn-secondary"}
          >
            {BUTTON[action]}
          </button>
        ))}
        <p ref={said} role="status" tabIndex={-1} className="rounded-sm text-sm font-medium">
          {done}
          {failure ? <span className="text-red-800 dark:text-red-300">{failure}</span> : null}
          {errors._?.[0] ?? errors.action?.[0]}
        </p>
      </div>
    </form>
  );
}
