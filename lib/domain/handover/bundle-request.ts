/**
 * What a support bundle is asked for: `from`, `to` (ISO 8601; the last 24 hours when absent) and
 * `tz` (an IANA time zone; UTC when absent). One schema for the route and the preview page; its
 * messages name each field by the label the preview's form shows.
 */
import { z } from "zod/mini";
import type { FieldErrors } from "@/lib/domain/api-error";
import { fieldErrors } from "@/lib/domain/inputs/field-errors";
import { fieldMessage } from "@/lib/domain/inputs/field-message";
import { filter, timeFilter } from "@/lib/domain/inputs/history-question";
import { parseTimeZone } from "@/lib/domain/handover/time-words";

export const DEFAULT_BUNDLE_SPAN_MS = 86_400_000;

export interface BundleRequest {
  from: number;
  to: number;
  timeZone: string;
}

export const bundleWindowShape = {
  from: timeFilter("From"),
  to: timeFilter("To"),
  tz: filter(parseTimeZone, () =>
    fieldMessage("Time zone", "enter an IANA time zone name, e.g. Europe/Berlin, America/New_York or UTC."),
  ),
};

/** From must come before To; the issue is From's. */
export const fromBeforeTo = z.refine<{ from: number | null; to: number | null }>(
  (window) => window.from === null || window.to === null || window.from < window.to,
  { error: fieldMessage("From", "pick a time before To."), path: ["from"] },
);

const bundleWindowSchema = z.object(bundleWindowShape).check(fromBeforeTo);

/** The window with its defaults filled in: up to now, 24 hours long, in UTC. */
export function bundleRequestOf(
  window: { from: number | null; to: number | null; tz: string | null },
  now: number,
): BundleRequest {
  const to = window.to ?? now;
  return { from: window.from ?? to - DEFAULT_BUNDLE_SPAN_MS, to, timeZone: window.tz ?? "UTC" };
}

type ParamsInput = { get(name: string): string | null };

/** The preview page's reading of its URL: the request, or the errors by field. */
export function parseBundleRequest(
  params: ParamsInput,
  now: number,
): { ok: true; value: BundleRequest } | { ok: false; errors: FieldErrors } {
  const read = (name: string) => params.get(name) ?? undefined;
  const parsed = bundleWindowSchema.safeParse({ from: read("from"), to: read("to"), tz: read("tz") });
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) };
  return { ok: true, value: bundleRequestOf(parsed.data, now) };
}
