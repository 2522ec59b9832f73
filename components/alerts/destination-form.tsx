"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { isApiError } from "@/lib/browser/api";
import {
  DESTINATION_KIND_NAMES,
  DESTINATION_KINDS,
  PAGERDUTY_EVENTS_URLS,
  PAGERDUTY_REGION_NAMES,
  PAGERDUTY_REGIONS,
  type DestinationKind,
  type UrlKind,
} from "@/lib/domain/alerts/destinations";
import { SANDBOX_INBOX_SIGNING_SECRET, sandboxInboxUrls } from "@/lib/domain/alerts/sandbox-inbox";
import { firstErrors } from "@/lib/domain/inputs/field-errors";
import { capHint } from "@/lib/domain/inputs/field-message";
import {
  addDestinationSchema,
  DESTINATION_EMAIL_MAX,
  DESTINATION_LABEL_MAX,
  DESTINATION_LABELS,
  DESTINATION_URL_MAX,
  urlFieldLabel,
} from "@/lib/domain/inputs/alert-destination";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { addDestination, alertKeys } from "@/components/alerts/alerts-api";

const URL_HINTS: Record<UrlKind, string> = {
  slack: "From Slack: Apps → Incoming Webhooks → Add to a channel. Stored sealed; shown masked.",
  webhook: "Your receiver's https:// address. Each alert is signed the Standard Webhooks way.",
  teams:
    "In Teams: the channel's … → Workflows → “Post to a channel when a webhook request is received”; copy the URL it shows. Stored sealed; shown masked.",
  discord:
    "In Discord: Server Settings → Integrations → Webhooks → New Webhook → Copy Webhook URL. Stored sealed; shown masked.",
};

const ROUTING_KEY_HINT =
  "In PagerDuty: the service → Integrations → Add an integration → Events API v2; " +
  "copy its Integration Key (32 characters). Stored sealed; never shown again.";

/** The kinds the sandbox's inbox stands in for by URL (lib/sandbox/inbox.ts). */
const SANDBOX_STAND_INS: ReadonlySet<DestinationKind> = new Set(["slack", "teams", "discord"]);

/** A hint's last words: the sandbox inbox's stand-in of this kind, to try it without the service. */
function sandboxHint(kind: DestinationKind, sandboxInbox: string | null): string {
  return sandboxInbox && SANDBOX_STAND_INS.has(kind) ? ` To try it: ${sandboxInbox}/${kind}.` : "";
}

/** The name the sandbox's inbox is added under. */
const SANDBOX_INBOX_LABEL = "Sandbox inbox";

/**
 * "Add destination": where this application's alerts go. The fields follow the kind; the same
 * schema as the route checks them first, and the server's refusals (an address it will not call)
 * appear beside the field they name. When the console started the local sandbox (`sandboxInbox`,
 * its inbox's base URL), one button adds the inbox's signed-webhook stand-in, so alerts can be
 * tried at once.
 */
export function DestinationForm({ sandboxInbox }: { sandboxInbox: string | null }) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<DestinationKind>("slack");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const add = useMutation({
    mutationFn: addDestination,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertKeys.destinations }),
    onError: (error) => {
      const fields = isApiError(error) ? error.fields : null;
      if (fields)
        setErrors(Object.fromEntries(Object.entries(fields).map(([name, [first]]) => [name, first!])));
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = Object.fromEntries(new FormData(form)) as Record<string, string>;
    const parsed = addDestinationSchema.safeParse(values);
    add.reset();
    if (!parsed.success) return setErrors(firstErrors(parsed.error));
    setErrors({});
    add.mutate(parsed.data, { onSuccess: () => form.reset() });
  }

  function addSandboxInbox() {
    if (!sandboxInbox) return;
    setKind("webhook");
    setErrors({});
    add.reset();
    add.mutate({
      kind: "webhook",
      label: SANDBOX_INBOX_LABEL,
      url: sandboxInboxUrls(sandboxInbox).webhook,
      secret: SANDBOX_INBOX_SIGNING_SECRET,
    });
  }

  const fieldError = (name: string) => errors[name] ?? null;
  const formError = add.error && !(isApiError(add.error) && add.error.fields) ? add.error.message : null;

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="card space-y-3 p-4"
      aria-labelledby="add-destination-heading"
    >
      <h2 id="add-destination-heading" className="text-base font-semibold">
        Add destination
      </h2>
      {sandboxInbox ? (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
          <p className="text-zinc-700 dark:text-zinc-300">
            This console started the local sandbox: its alert inbox receives signed alerts (what arrives:{" "}
            <code>GET /_sandbox/inbox</code>).
          </p>
          <button
            type="button"
            className="btn btn-secondary btn-small"
            onClick={addSandboxInbox}
            disabled={add.isPending}
          >
            Add the sandbox inbox
          </button>
        </div>
      ) : null}
      <Field label={DESTINATION_LABELS.kind} error={fieldError("kind")}>
        {(control) => (
          <select
            {...control}
            name="kind"
            value={kind}
            onChange={(event) => {
              setKind(event.target.value as DestinationKind);
              setErrors({});
            }}
            className="field-select"
          >
            {DESTINATION_KINDS.map((value) => (
              <option key={value} value={value}>
                {DESTINATION_KIND_NAMES[value]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <TextField
        name="label"
        label={DESTINATION_LABELS.label}
        hint={`How the console names it, e.g. On-call Slack. ${capHint(DESTINATION_LABEL_MAX)}`}
        error={fieldError("label")}
      />
      {kind === "email" ? (
        <TextField
          name="to"
          type="email"
          label={DESTINATION_LABELS.to}
          hint={`Sent through the console's SMTP_URL relay. Stored sealed; shown masked. ${capHint(DESTINATION_EMAIL_MAX)}`}
          error={fieldError("to")}
        />
      ) : kind === "pagerduty" ? (
        <>
          <TextField
            name="routingKey"
            type="password"
            mono
            label={DESTINATION_LABELS.routingKey}
            hint={ROUTING_KEY_HINT}
            error={fieldError("routingKey")}
          />
          <Field
            label={DESTINATION_LABELS.region}
            hint={`Where the PagerDuty account lives: events go to ${PAGERDUTY_EVENTS_URLS.us} (US) or ${PAGERDUTY_EVENTS_URLS.eu} (EU).`}
            error={fieldError("region")}
          >
            {(control) => (
              <select {...control} name="region" defaultValue="us" className="field-select">
                {PAGERDUTY_REGIONS.map((value) => (
                  <option key={value} value={value}>
                    {PAGERDUTY_REGION_NAMES[value]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </>
      ) : (
        <TextField
          name="url"
          type="url"
          mono
          label={urlFieldLabel(kind)}
          hint={`${URL_HINTS[kind]} ${capHint(DESTINATION_URL_MAX)}${sandboxHint(kind, sandboxInbox)}`}
          error={fieldError("url")}
        />
      )}
      {kind === "webhook" ? (
        <TextField
          name="secret"
          type="password"
          mono
          label={DESTINATION_LABELS.secret}
          hint="whsec_… as your receiver expects it; blank, and the console makes one and shows it once."
          error={fieldError("secret")}
        />
      ) : null}
      <button type="submit" className="btn btn-primary" disabled={add.isPending}>
        {add.isPending ? "Adding…" : "Add destination"}
      </button>
      <div aria-live="polite">
        {formError ? (
          <Notice tone="error" title="The destination was not added">
            <p>{formError}</p>
          </Notice>
        ) : null}
        {add.data ? (
          <Notice tone="success" title={`Added "${add.data.destination.label}"`}>
            {add.data.signingSecret ? (
              <p>
                Its signing secret, shown this once (give it to the receiver):{" "}
                <code className="break-all">{add.data.signingSecret}</code>
              </p>
            ) : (
              <p>Send it a test alert to check it receives.</p>
            )}
          </Notice>
        ) : null}
      </div>
    </form>
  );
}

/** One text field of the form: label, hint and error wired by Field. */
function TextField({
  name,
  label,
  hint,
  error,
  type = "text",
  mono = false,
}: {
  name: string;
  label: string;
  hint: string;
  error: string | null;
  type?: "text" | "url" | "email" | "password";
  mono?: boolean;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => (
        <input
          {...control}
          name={name}
          type={type}
          autoComplete="off"
          spellCheck={false}
          className={mono ? "field-input font-mono" : "field-input"}
        />
      )}
    </Field>
  );
}
