import { z } from "zod/mini";
import { canonicalZone } from "@/lib/domain/inputs/alert-rules";
import { fieldMessage } from "@/lib/domain/inputs/field-message";
import { maxChars, textInput } from "@/lib/domain/inputs/text";
import { uuidInput, uuidParam } from "@/lib/domain/inputs/uuid";
import {
  ONCE_MAX_MS,
  WEEKDAYS,
  WEEKLY_MAX_MINUTES,
  zonedTime,
  type Weekday,
  type WindowSchedule,
} from "@/lib/domain/maintenance/windows";

/**
 * A maintenance window as people set it (the webhook's settings and the Alerts page, `POST
 * /api/maintenance`): once, from a local date and time to another, or every week on some days
 * from a time for a number of minutes, each in a time zone. Every refusal names the field by its
 * label and says what to enter; that the end is not already past is checked on the server, which
 * knows the time.
 */

export const MAINTENANCE_LABELS = {
  webhookId: "Webhook",
  repeats: "Repeats",
  "once.start": "Starts",
  "once.end": "Ends",
  days: "Days",
  "weekly.start": "Starts at",
  durationMinutes: "Duration (minutes)",
  zone: "Time zone",
  note: "Note",
} as const;

export const MAINTENANCE_NOTE_MAX = 200;

/** "2026-12-02T14:00" as a date-time field gives it; null when it is not a real date and time. */
export function parseLocal(value: string) {
  const match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const probe = new Date(Date.UTC(year, month - 1, day, hour, minute));
  const real =
    probe.getUTCFullYear() === year &&
    probe.getUTCMonth() === month - 1 &&
    probe.getUTCDate() === day &&
    hour < 24 &&
    minute < 60;
  return real ? { year, month, day, hour, minute } : null;
}

function localInput(field: "once.start" | "once.end") {
  const label = MAINTENANCE_LABELS[field];
  const what = "enter a date and a time, e.g. 2026-12-02T14:00.";
  return textInput(label, what).check(
    z.trim(),
    z.refine((value: string) => parseLocal(value) !== null, { error: fieldMessage(label, what) }),
  );
}

const zoneLabel = MAINTENANCE_LABELS.zone;
const zoneInput = textInput(zoneLabel, "choose a time zone, e.g. Europe/Berlin.").check(
  z.trim(),
  maxChars(zoneLabel, 64),
  z.refine((zone: string) => canonicalZone(zone) !== null, {
    error: fieldMessage(zoneLabel, "choose a time zone from the list (an IANA name such as Europe/Berlin)."),
    abort: true,
  }),
  z.overwrite((zone: string) => canonicalZone(zone) ?? zone),
);

const noteInput = z._default(
  textInput(MAINTENANCE_LABELS.note, "write a short note, or leave it blank.").check(
    z.trim(),
    maxChars(MAINTENANCE_LABELS.note, MAINTENANCE_NOTE_MAX),
  ),
  "",
);

/** null (or left out): the whole application. */
const webhookInput = z._default(z.nullable(uuidInput(MAINTENANCE_LABELS.webhookId)), null);

/** A form's text as a number; anything else is left for the schema to refuse. */
const numberOfText = (raw: unknown) =>
  typeof raw === "string" && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;

const daysError = fieldMessage(MAINTENANCE_LABELS.days, "tick at least one day of the week.");
const isWeekday = (day: unknown): day is Weekday => (WEEKDAYS as readonly unknown[]).includes(day);
/** Days of the week, 1 (Monday) to 7 (Sunday), as numbers or a form's text; each once, in order. */
const daysInput = z.pipe(
  z.transform((raw: unknown) => (Array.isArray(raw) ? raw.map(numberOfText) : raw)),
  z.pipe(
    z.array(z.unknown(), { error: daysError }).check(
      z.minLength(1, { error: daysError }),
      z.refine((days: unknown[]) => days.every(isWeekday), { error: daysError }),
    ),
    z.transform((days: unknown[]) => [...new Set(days.filter(isWeekday))].sort()),
  ),
);

const durationError = fieldMessage(
  MAINTENANCE_LABELS.durationMinutes,
  `enter a whole number of minutes from 1 to ${WEEKLY_MAX_MINUTES} (a day).`,
);
const durationInput = z.pipe(
  z.transform(numberOfText),
  z.number({ error: durationError }).check(
    z.refine((value: number) => Number.isInteger(value), { error: durationError, abort: true }),
    z.gte(1, { error: durationError }),
    z.lte(WEEKLY_MAX_MINUTES, { error: durationError }),
  ),
);

const clockError = fieldMessage(
  MAINTENANCE_LABELS["weekly.start"],
  "enter a time on the 24-hour clock as HH:MM, e.g. 14:00.",
);
const clockInput = textInput(MAINTENANCE_LABELS["weekly.start"], "enter a time as HH:MM, e.g. 14:00.").check(
  z.trim(),
  z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: clockError }),
);

/** A one-off window's start and end as moments, read in its zone; null while a field is not valid yet. */
export function onceSpan(input: { start: string; end: string; zone: string }) {
  const [start, end, zone] = [parseLocal(input.start), parseLocal(input.end), canonicalZone(input.zone)];
  if (!start || !end || !zone) return null;
  return { startsAt: zonedTime(start, zone), endsAt: zonedTime(end, zone) };
}

/** Whether a one-off window's span passes `test`; one whose fields are not valid yet is refused by them. */
const spanPasses =
  (test: (span: { startsAt: number; endsAt: number }) => boolean) =>
  (input: { start: string; end: string; zone: string }) => {
    const span = onceSpan(input);
    return span === null || test(span);
  };

const onceSchema = z
  .strictObject({
    webhookId: webhookInput,
    repeats: z.literal("once"),
    start: localInput("once.start"),
    end: localInput("once.end"),
    zone: zoneInput,
    note: noteInput,
  })
  .check(
    z.refine(
      spanPasses(({ startsAt, endsAt }) => endsAt > startsAt),
      {
        error: fieldMessage(MAINTENANCE_LABELS["once.end"], "pick a time after the start."),
        path: ["end"],
        abort: true,
      },
    ),
    z.refine(
      spanPasses(({ startsAt, endsAt }) => endsAt - startsAt <= ONCE_MAX_MS),
      {
        error: fieldMessage(
          MAINTENANCE_LABELS["once.end"],
          "a one-off window lasts at most 7 days; pick an earlier end, or set a weekly window.",
        ),
        path: ["end"],
      },
    ),
  );

const weeklySchema = z.strictObject({
  webhookId: webhookInput,
  repeats: z.literal("weekly"),
  days: daysInput,
  start: clockInput,
  durationMinutes: durationInput,
  zone: zoneInput,
  note: noteInput,
});

export const maintenanceWindowSchema = z.discriminatedUnion("repeats", [onceSchema, weeklySchema], {
  error: fieldMessage(MAINTENANCE_LABELS.repeats, "choose once or weekly."),
});
export type MaintenanceWindowInput = z.infer<typeof maintenanceWindowSchema>;

/** The schedule the store keeps for a window as entered. */
export function scheduleOf(input: MaintenanceWindowInput): WindowSchedule {
  if (input.repeats === "once") return { kind: "once", ...onceSpan(input)!, zone: input.zone };
  return {
    kind: "weekly",
    days: input.days,
    start: input.start,
    durationMinutes: input.durationMinutes,
    zone: input.zone,
  };
}

export const maintenanceParamsSchema = z.strictObject({
  windowId: uuidParam("Window ID", "maintenance window ID"),
});

/** `GET /api/maintenance?webhookId=`: one webhook's windows (its own and its application's); none: the application's. */
export const maintenanceQuerySchema = z.strictObject({
  webhookId: z.optional(uuidInput(MAINTENANCE_LABELS.webhookId)),
});
