/**
 * What a support bundle is asked for: `from`, `to` (ISO 8601; the last 24 hours when absent, or a
 * failure issue's span), `tz` (an IANA time zone; UTC when absent) and `issue` (a failure issue of
 * the webhook: the bundle of its failures). One schema for the route and the preview page; its
 * messages name each field by the label the preview's form shows.
 */
import { z } from "zod/mini";
import type { FieldErrors } from "@/lib/domain/api-error";
import { fieldErrors } from "@/lib/domain/inputs/field-errors";
import { fieldMessage } from "@/lib/domain/inputs/field-message";
import { filter, timeFilter } from "@/lib/domain/inputs/history-question";
import { parseTimeZone } from "@/lib/domain/bundle/time-words";
import { uuidInput } from "@/lib/domain/inputs/uuid";

export const DEFAULT_BUNDLE_SPAN_MS = 86_400_000;

/** The request as given: what is absent is null. */
export interface BundleAsk {
  from: number | null;
  to: number | null;
  tz: string | null;
  issue: string | null;
}

export interface BundleRequest {
  from: number;
  to: number;
  timeZone: string;
  /** The failure issue whose failures the bundle is about; null for every failure of the window. */
  issue: string | null;
}

export const bundleWindowShape = {
  from: timeFilter("From"),
  to: timeFilter("To"),
  tz: filter(parseTimeZone, () =>
    fieldMessage("Time zone", "enter an IANA time zone name, e.g. Europe/Berlin, America/New_York or UTC."),
  ),
  issue: z.optional(uuidInput("Failure issue")),
};

/** From must come before To; the issue is From's. */
export const fromBeforeTo = z.refine<{ from: number | null; to: number | null }>(
  (window) => window.from === null || window.to === null || window.from < window.to,
  { error: fieldMessage("From", "pick a time before To."), path: ["from"] },
);

const bundleWindowSchema = z.object(bundleWindowShape).check(fromBeforeTo);

/**
 * The window with its defaults filled in: a failure issue's span (its first to its last failure)
 * when the bundle is an issue's, else up to now and 24 hours long; in UTC.
 */
export function bundleRequestOf(
  ask: { from: number | null; to: number | null; tz: string | null; issue?: string | null },
  now: number,
  issueSpan: { from: number; to: number } | null = null,
): BundleRequest {
  const to = ask.to ?? issueSpan?.to ?? now;
  const from = ask.from ?? issueSpan?.from ?? to - DEFAULT_BUNDLE_SPAN_MS;
  return { from, to, timeZone: ask.tz ?? "UTC", issue: ask.issue ?? null };
}

type ParamsInput = { get(name: string): string | null };

/** The preview page's reading of its URL: what is asked, or the errors by field. */
export function parseBundleRequest(
  params: ParamsInput,
): { ok: true; value: BundleAsk } | { ok: false; errors: FieldErrors } {
  const read = (name: string) => params.get(name) ?? undefined;
  const parsed = bundleWindowSchema.safeParse({
    from: read("from"),
    to: read("to"),
    tz: read("tz"),
    issue: read("issue"),
  });
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) };
  return { ok: true, value: { ...parsed.data, issue: parsed.data.issue ?? null } };
}
