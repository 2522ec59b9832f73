import type { WebhookMaintenance } from "@/lib/domain/maintenance/view";
import { formatCount } from "@/lib/domain/format-count";
import { FIRST_RENDER, formatExactUtc, formatShortTime, VIEWER } from "@/lib/domain/format-time";

/** How far ahead the Overview mentions the next window. */
const SOON_MS = 24 * 3_600_000;

/**
 * A watched webhook's maintenance, as its Overview row says it: "In maintenance until 14:00" and
 * the failures counted apart in the current window, or, within a day, when the next one starts.
 * Nothing when neither. `local`: the viewer's time zone is known (after mount), else UTC.
 */
export function MaintenanceMarker({
  maintenance,
  now,
  local,
}: {
  maintenance: WebhookMaintenance | null;
  now: number;
  local: boolean;
}) {
  const style = local ? VIEWER : FIRST_RENDER;
  const at = (iso: string) => (
    <time dateTime={iso} title={formatExactUtc(iso, style)}>
      {formatShortTime(iso, now, style)}
    </time>
  );
  if (maintenance?.until)
    return (
      <span className="block text-xs">
        <span className="font-semibold text-sky-900 dark:text-sky-200">
          In maintenance until {at(maintenance.until)}
        </span>
        <span className="block text-zinc-600 dark:text-zinc-400">
          {`${formatCount(maintenance.failures)} ${maintenance.failures === 1 ? "failure" : "failures"} in maintenance`}
        </span>
      </span>
    );
  if (maintenance?.next && Date.parse(maintenance.next) - now <= SOON_MS)
    return (
      <span className="block text-xs text-zinc-600 dark:text-zinc-400">
        Maintenance at {at(maintenance.next)}
      </span>
    );
  return null;
}
