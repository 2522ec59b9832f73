/**
 * What a support bundle is asked for: `from`, `to` (ISO 8601; the last 24 hours when absent) and
 * `tz` (an IANA time zone; UTC when absent). One parser for the route and the preview page;
 * plain TypeScript, so the browser can use it too. Errors name the field by the label the
 * preview's form shows.
 */
import type { FieldErrors } from "@/lib/domain/api-error";
import { parseTime, type ParseResult } from "@/lib/domain/history/question";
import { parseTimeZone } from "@/lib/domain/handover/time-words";

export const DEFAULT_BUNDLE_SPAN_MS = 86_400_000;

export interface BundleRequest {
  from: number;
  to: number;
  timeZone: string;
}

type ParamsInput = { get(name: string): string | null };

export function parseBundleRequest(params: ParamsInput, now: number): ParseResult<BundleRequest> {
  const errors: FieldErrors = {};
  const get = (name: string) => {
    const value = params.get(name);
    return value === null || value.trim() === "" ? null : value;
  };
  const time = (name: "from" | "to", label: string, fallback: number) => {
    const raw = get(name);
    if (raw === null) return fallback;
    const parsed = parseTime(raw);
    if (parsed === null)
      errors[name] = [`${label} must be a date and time in ISO 8601, e.g. 2026-01-31T09:00:00Z`];
    return parsed ?? fallback;
  };
  const to = time("to", "To", now);
  const from = time("from", "From", to - DEFAULT_BUNDLE_SPAN_MS);
  if (!errors.from && !errors.to && from >= to) errors.from = ["From must be before To"];
  const rawZone = get("tz");
  const timeZone = rawZone === null ? "UTC" : parseTimeZone(rawZone);
  if (timeZone === null)
    errors.tz = ["Time zone must be an IANA time zone name, e.g. Europe/Berlin, America/New_York or UTC"];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { from, to, timeZone: timeZone! } };
}
