"use client";

import { useState, type FormEvent } from "react";
import { ApiError, apiRequest } from "@/lib/browser/api";
import { useHydrated } from "@/lib/browser/use-hydrated";
import { APPLICATION_NAME_MAX } from "@/lib/domain/applications";
import { capHint } from "@/lib/domain/inputs/field-message";
import { API_KEY_HINT } from "@/lib/domain/inputs/api-key";
import { addApplicationSchema, renameSchema, replaceKeySchema } from "@/lib/domain/inputs/application";
import { firstErrors } from "@/lib/domain/inputs/field-errors";
import { ApiKeyField } from "@/components/ui/api-key-field";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import type { HandOverPlan } from "@/lib/domain/watch/hand-over";
import { HandOverChoices } from "@/components/overview/hand-over-choices";
import { HandOverOffers } from "@/components/overview/hand-over-offers";

type Errors = { name?: string; apiKey?: string; form?: string };

/** What the form does: add an application, or replace the key of / rename `app`. */
export type KeyFormMode = { mode: "add" } | { mode: "replace" | "rename"; app: { id: string; name: string } };

const MODES = {
  add: {
    path: "/api/applications",
    schema: addApplicationSchema,
    done: "added",
    submit: "Add application",
    failed: "Could not add the application",
  },
  replace: {
    path: "/api/applications/key",
    schema: replaceKeySchema,
    done: "replaced",
    submit: "Replace key",
    failed: "Could not replace the key",
  },
  rename: {
    path: "/api/applications/name",
    schema: renameSchema,
    done: "renamed",
    submit: "Rename",
    failed: "Could not rename it",
  },
} as const;

/** What the routes answer: the application kept, or (Replace key) the list of what the new key would take over. */
interface KeyAnswer {
  application?: { id: string };
  /** Add application: what the new key may take over (HandOverOffers); Replace key: what it would (HandOverChoices). */
  handOver?: HandOverPlan[] | HandOverPlan;
}

/**
 * Add an application (`POST /api/applications` `{ name, apiKey }`), replace an application's key
 * (`POST /api/applications/key`) or rename it (`POST /api/applications/name`). The console checks a
 * key with the hub before keeping it; every refusal is shown beside the field it is about, and
 * nothing is stored. Like the sign-in form, it cannot submit before its script runs (a native
 * submission would carry the key off in the wrong form). A key that would take over what the
 * console keeps for an application first lists it, and the person chooses the destinations to keep.
 */
export function KeyForm(props: KeyFormMode) {
  const hydrated = useHydrated();
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [sent, setSent] = useState<Record<string, unknown> | null>(null);
  const [plan, setPlan] = useState<HandOverPlan | null>(null);
  const [offers, setOffers] = useState<{ appId: string; plans: HandOverPlan[] } | null>(null);
  const mode = MODES[props.mode];
  const asksName = props.mode !== "replace";
  const asksKey = props.mode !== "rename";

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = mode.schema.safeParse({
      ...(props.mode === "add" ? {} : { app: props.app.id }),
      ...(asksName ? { name: form.get("name") ?? "" } : {}),
      ...(asksKey ? { apiKey: form.get("apiKey") ?? "" } : {}),
    });
    if (!parsed.success) {
      const found = firstErrors(parsed.error);
      setErrors({ name: found.name, apiKey: found.apiKey, form: found.app ?? found._ });
      return;
    }
    setErrors({});
    void send(parsed.data);
  }

  function finished() {
    // A full page load: the header and every list are drawn again from the new session.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.assign(`/applications?done=${mode.done}`);
  }

  async function send(body: Record<string, unknown>) {
    setPending(true);
    try {
      const answer = await apiRequest<KeyAnswer>(mode.path, { method: "POST", body });
      setPending(false);
      const { handOver, application } = answer ?? {};
      if (handOver && !Array.isArray(handOver)) {
        setSent(body);
        setPlan(handOver);
      } else if (handOver?.length && application) {
        setOffers({ appId: application.id, plans: handOver });
      } else finished();
    } catch (caught) {
      setPending(false);
      const error = caught instanceof ApiError ? caught : null;
      const fields = error?.fields ?? {};
      if (fields.apiKey) setPlan(null);
      setErrors({
        name: fields.name?.[0],
        apiKey: fields.apiKey?.[0],
        form:
          fields.name || fields.apiKey
            ? undefined
            : (fields._?.[0] ??
              fields.keepDestinations?.[0] ??
              error?.message ??
              "The change could not be saved. Try again."),
      });
    }
  }

  if (offers) return <HandOverOffers offers={offers.plans} appId={offers.appId} onDone={finished} />;
  if (plan && sent && props.mode !== "add") {
    return (
      <HandOverChoices
        plan={plan}
        title={`What the new key of ${props.app.name} takes over`}
        submitLabel="Carry over and replace the key"
        pending={pending}
        error={errors.form ?? null}
        onCarry={(keepDestinations) => void send({ ...sent, keepDestinations })}
        onSkip={() => setPlan(null)}
        skipLabel="Back"
      />
    );
  }

  const of = props.mode === "add" ? "" : ` for ${props.app.name}`;
  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-3">
      {asksName ? (
        <Field
          label={props.mode === "rename" ? `New name${of}` : "Name"}
          error={errors.name}
          hint={`What you call it, e.g. Staging. ${capHint(APPLICATION_NAME_MAX)}`}
        >
          {(control) => (
            <input
              {...control}
              name="name"
              type="text"
              autoComplete="off"
              defaultValue={props.mode === "rename" ? props.app.name : undefined}
              className="field-input"
            />
          )}
        </Field>
      ) : null}
      {asksKey ? (
        <ApiKeyField
          label={props.mode === "replace" ? `New API key${of}` : "API key"}
          hint={API_KEY_HINT}
          error={errors.apiKey}
        />
      ) : null}
      <button type="submit" className="btn btn-primary" disabled={!hydrated || pending}>
        {pending ? (asksKey ? "Checking the key…" : "Saving…") : mode.submit}
      </button>
      <div aria-live="assertive">
        {errors.form ? (
          <Notice tone="error" title={mode.failed}>
            <p>{errors.form}</p>
          </Notice>
        ) : null}
      </div>
    </form>
  );
}
