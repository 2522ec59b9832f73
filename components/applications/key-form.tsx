"use client";

import { useState, type FormEvent } from "react";
import { ApiError, apiRequest } from "@/lib/browser/api";
import { useHydrated } from "@/lib/browser/use-hydrated";
import { APPLICATION_NAME_MAX } from "@/lib/domain/applications";
import { Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";

type Errors = { name?: string; apiKey?: string; form?: string };

/**
 * Add an application (`POST /api/applications` `{ name, apiKey }`), or with `appId` replace that
 * application's key (`POST /api/applications/key`). The console checks the key with the hub
 * before keeping it; every refusal is shown beside the field it is about, and nothing is stored.
 * Like the sign-in form, it cannot submit before its script runs (a native submission would
 * carry the key off in the wrong form).
 */
export function KeyForm({ appId, appName }: { appId?: string; appName?: string }) {
  const hydrated = useHydrated();
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const replacing = appId !== undefined;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    const apiKey = String(form.get("apiKey") ?? "").trim();
    const missing: Errors = {};
    if (!replacing && !name) missing.name = "Give the application a name, e.g. Staging.";
    if (!apiKey) missing.apiKey = "Enter the application's API key.";
    setErrors(missing);
    if (missing.name || missing.apiKey) return;
    setPending(true);
    try {
      await apiRequest(replacing ? "/api/applications/key" : "/api/applications", {
        method: "POST",
        body: replacing ? { app: appId, apiKey } : { name, apiKey },
      });
      // A full page load: the header and every list are drawn again from the new session.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign(`/applications?done=${replacing ? "replaced" : "added"}`);
    } catch (caught) {
      setPending(false);
      const error = caught instanceof ApiError ? caught : null;
      const fields = error?.fields ?? {};
      setErrors({
        name: fields.name?.[0],
        apiKey: fields.apiKey?.[0],
        form:
          fields.name || fields.apiKey
            ? undefined
            : (fields._?.[0] ?? error?.message ?? "The application could not be saved. Try again."),
      });
    }
  }

  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-3">
      {replacing ? null : (
        <Field
          label="Name"
          error={errors.name}
          hint={`What you call it, e.g. Staging (at most ${APPLICATION_NAME_MAX} characters).`}
        >
          {(control) => (
            <input
              {...control}
              name="name"
              type="text"
              autoComplete="off"
              maxLength={200}
              className="field-input"
            />
          )}
        </Field>
      )}
      <Field
        label={replacing ? `New API key for ${appName ?? "this application"}` : "API key"}
        error={errors.apiKey}
      >
        {(control) => (
          <input
            {...control}
            name="apiKey"
            type="password"
            autoComplete="off"
            spellCheck={false}
            className="field-input font-mono"
          />
        )}
      </Field>
      <button type="submit" className="btn btn-primary" disabled={!hydrated || pending}>
        {pending ? "Checking the key…" : replacing ? "Replace key" : "Add application"}
      </button>
      <div aria-live="assertive">
        {errors.form ? (
          <Notice
            tone="error"
            title={replacing ? "Could not replace the key" : "Could not add the application"}
          >
            <p>{errors.form}</p>
          </Notice>
        ) : null}
      </div>
    </form>
  );
}
