/**
 * Maintenance windows as the console shows them (the webhook's settings, the Alerts page, the
 * Overview's rows): plain data and words, safe for client components.
 */
import { WEEKDAY_NAMES, type WindowSchedule } from "@/lib/domain/maintenance/windows";

/** A span as the browser gets it. */
export interface SpanView {
  start: string;
  end: string;
}

/** One window: what it is on, when it is, and where it stands now. */
export interface MaintenanceWindowView {
  id: string;
  appId: string;
  /** null: the whole application. */
  webhookId: string | null;
  /** The watch's name; null for the whole application (or a webhook no longer watched). */
  webhookName: string | null;
  schedule: WindowSchedule;
  note: string;
  /** This window's occurrence now, if it is on. */
  current: SpanView | null;
  /** Its next occurrence; null when it will not occur again (a one-off that ended). */
  next: SpanView | null;
  createdAt: string;
}

/** A webhook's maintenance, as its Overview row says it: in one now (until when), and the next. */
export interface WebhookMaintenance {
  /** The end of the window (or windows run together) it is in now; null when none. */
  until: string | null;
  /** When the next window starts; null when none is set. */
  next: string | null;
  /** Failures sent in the current window so far (0 when none is on). */
  failures: number;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** "Every Tuesday and Thursday, 14:00 for 60 minutes (Europe/Berlin)", "Once" for a one-off (its times are shown apart). */
export function scheduleText(schedule: WindowSchedule): string {
  if (schedule.kind === "once") return `Once (${schedule.zone})`;
  const days = schedule.days.map((day) => WEEKDAY_NAMES[day]);
  const list =
    days.length === 7
      ? "day"
      : days.length > 1
        ? `${days.slice(0, -1).join(", ")} and ${days.at(-1)}`
        : days[0];
  const minutes = schedule.durationMinutes;
  const duration =
    minutes % 60 === 0
      ? `${minutes / 60} h`
      : minutes > 60
        ? `${Math.floor(minutes / 60)} h ${pad(minutes % 60)} min`
        : `${minutes} min`;
  return `Every ${list}, ${schedule.start} for ${duration} (${schedule.zone})`;
}
