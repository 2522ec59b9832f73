/**
 * Why an incident's alert waits instead of going out now: the webhook is snoozed, it is within
 * its quiet hours or a maintenance window, or its last incident resolved less than a cooldown
 * ago. A held alert goes out when the reason ends, if its incident is still firing then.
 */
import type { QuietHours, WebhookRuleOverride } from "@/lib/domain/alerts/rules";

export type HoldReason = "snooze" | "quiet" | "cooldown" | "maintenance";

export interface Hold {
  reason: HoldReason;
  /** Epoch ms at which the hold ends (for quiet hours, the end of today's quiet period). */
  until: number;
}

const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;

function minutesOf(clock: string): number {
  const [hours, minutes] = clock.split(":").map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/** The minute of the day at `now` in `zone` (0…1439). */
function localMinute(now: number, zone: string): number {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(now));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return part("hour") * 60 + part("minute");
}

/**
 * When the quiet period that `now` falls in ends (epoch ms, to the minute), or null when `now`
 * is not quiet. A period may wrap midnight (22:00–07:00); start = end is no quiet time at all.
 */
export function quietUntil(quiet: QuietHours, now: number): number | null {
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return null;
  const minute = localMinute(now, quiet.zone);
  const inside = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  if (!inside) return null;
  const left = (end - minute + DAY_MINUTES) % DAY_MINUTES;
  return Math.floor(now / MINUTE) * MINUTE + left * MINUTE;
}

/**
 * The hold on an alert now, the longest-lasting reason first; null when it may go out.
 * `maintenanceUntil`: the end of the maintenance window the webhook (or its application) is in.
 */
export function holdOf(
  override: Pick<WebhookRuleOverride, "snoozedUntil" | "quietHours">,
  cooldownUntil: number | null,
  now: number,
  maintenanceUntil: number | null = null,
): Hold | null {
  const holds: Hold[] = [];
  const snoozed = override.snoozedUntil === null ? NaN : Date.parse(override.snoozedUntil);
  if (snoozed > now) holds.push({ reason: "snooze", until: snoozed });
  const quiet = override.quietHours ? quietUntil(override.quietHours, now) : null;
  if (quiet !== null) holds.push({ reason: "quiet", until: quiet });
  if (cooldownUntil !== null && cooldownUntil > now) holds.push({ reason: "cooldown", until: cooldownUntil });
  if (maintenanceUntil !== null && maintenanceUntil > now)
    holds.push({ reason: "maintenance", until: maintenanceUntil });
  return holds.sort((a, b) => b.until - a.until)[0] ?? null;
}

const HOLD_WORDS: Record<HoldReason, string> = {
  snooze: "the webhook is snoozed",
  quiet: "it is within the webhook's quiet hours",
  cooldown: "this webhook's last incident resolved less than a cooldown ago",
  maintenance: "a maintenance window is on",
};

/** "Held until 07:00 UTC: it is within the webhook's quiet hours", for an incident's detail. */
export function holdText(hold: Hold): string {
  return `Held until ${new Date(hold.until).toISOString()}: ${HOLD_WORDS[hold.reason]}. Sent then if still firing.`;
}
