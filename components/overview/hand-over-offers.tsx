"use client";

import { useState } from "react";
import { ApiError, apiRequest } from "@/lib/browser/api";
import type { HandOverPlan } from "@/lib/domain/watch/hand-over";
import { Notice } from "@/components/ui/notice";
import { HandOverChoices } from "@/components/overview/hand-over-choices";

/**
 * What sign-in or Add application offers to hand over to the key just entered: the data the
 * console keeps for applications whose stored key no longer serves and whose watched webhooks
 * this key reads (a rotation). One offer at a time, each listed before anything moves; "Carry
 * over" sends `POST /api/watches/hand-over` (for application `appId`, else the current one),
 * "Not now" leaves it (it is offered again at the next sign-in). `onDone` once all are answered.
 */
export function HandOverOffers({
  offers,
  appId,
  onDone,
}: {
  offers: HandOverPlan[];
  appId?: string;
  onDone: () => void;
}) {
  const [index, setIndex] = useState(0);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const offer = offers[index];
  if (!offer) return null;

  function next() {
    setError(null);
    if (index + 1 >= offers.length) onDone();
    else setIndex(index + 1);
  }

  async function carry(keepDestinations: string[]) {
    setPending(true);
    setError(null);
    try {
      await apiRequest(`/api/watches/hand-over${appId ? `?app=${appId}` : ""}`, {
        method: "POST",
        body: { from: offer!.from, keepDestinations },
      });
      setPending(false);
      next();
    } catch (caught) {
      setPending(false);
      const apiError = caught instanceof ApiError ? caught : null;
      setError(
        apiError?.fields?.keepDestinations?.[0] ??
          apiError?.message ??
          "Nothing was carried over. Try again.",
      );
    }
  }

  return (
    <Notice tone="info" title="This key takes over an application's watches" role="status">
      <p>
        The console keeps watches of an application whose stored key no longer works, and this key reads every
        one of them: most likely the application&apos;s new key after a rotation. Nothing moves until you
        choose.
      </p>
      <HandOverChoices
        key={offer.from}
        plan={offer}
        title={`What this key would take over${offers.length > 1 ? ` (${index + 1} of ${offers.length})` : ""}`}
        submitLabel="Carry over to this key"
        pending={pending}
        error={error}
        onCarry={(keep) => void carry(keep)}
        onSkip={next}
      />
    </Notice>
  );
}
