/**
 * The window arithmetic: a one-off window, weekly ones in several zones and across changes of
 * clocks (a start time that stays local, a duration in real minutes, a skipped or doubled start
 * time), windows across midnight and run together, and the next window.
 */
import { describe, expect, it } from "vitest";
import {
  inSpans,
  maintenanceSpans,
  maintenanceState,
  occurrences,
  zonedTime,
  type WindowSchedule,
} from "@/lib/domain/maintenance/windows";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const weekly = (change: Partial<Extract<WindowSchedule, { kind: "weekly" }>>): WindowSchedule => ({
  kind: "weekly",
  days: [2],
  start: "14:00",
  durationMinutes: 60,
  zone: "Europe/Berlin",
  ...change,
});
const spansOf = (schedule: WindowSchedule, from: string, to: string) =>
  occurrences(schedule, at(from), at(to)).map((span) => [iso(span.start), iso(span.end)]);

describe("zonedTime: a wall-clock time in a zone", () => {
  it.each([
    ["Europe/Berlin in winter (UTC+1)", "Europe/Berlin", [2026, 1, 15, 14, 0], "2026-01-15T13:00:00.000Z"],
    ["Europe/Berlin in summer (UTC+2)", "Europe/Berlin", [2026, 7, 15, 14, 0], "2026-07-15T12:00:00.000Z"],
    [
      "America/New_York in summer (UTC-4)",
      "America/New_York",
      [2026, 7, 15, 9, 30],
      "2026-07-15T13:30:00.000Z",
    ],
    [
      "Asia/Kolkata (UTC+5:30, no summer time)",
      "Asia/Kolkata",
      [2026, 7, 15, 0, 15],
      "2026-07-14T18:45:00.000Z",
    ],
    [
      "Pacific/Auckland in its summer, January (UTC+13)",
      "Pacific/Auckland",
      [2026, 1, 10, 8, 0],
      "2026-01-09T19:00:00.000Z",
    ],
    ["UTC", "UTC", [2026, 3, 29, 2, 30], "2026-03-29T02:30:00.000Z"],
    // Berlin's clocks go from 02:00 to 03:00 on 29 March 2026: 02:30 does not happen; it starts as they jump.
    [
      "a skipped time (Berlin, spring forward)",
      "Europe/Berlin",
      [2026, 3, 29, 2, 30],
      "2026-03-29T01:30:00.000Z",
    ],
    // Berlin's clocks go from 03:00 back to 02:00 on 25 October 2026: 02:30 happens twice; the first.
    [
      "a doubled time (Berlin, fall back)",
      "Europe/Berlin",
      [2026, 10, 25, 2, 30],
      "2026-10-25T00:30:00.000Z",
    ],
    [
      "a doubled time (New York, fall back)",
      "America/New_York",
      [2026, 11, 1, 1, 30],
      "2026-11-01T05:30:00.000Z",
    ],
  ] as const)("%s", (_name, zone, [year, month, day, hour, minute], expected) => {
    expect(iso(zonedTime({ year, month, day, hour, minute }, zone))).toBe(expected);
  });
});

describe("occurrences", () => {
  it("a one-off window is its own span, found by any range it overlaps", () => {
    const once: WindowSchedule = {
      kind: "once",
      startsAt: at("2026-12-02T13:00:00Z"),
      endsAt: at("2026-12-02T15:00:00Z"),
      zone: "Europe/Berlin",
    };
    expect(spansOf(once, "2026-12-02T14:59:00Z", "2026-12-03T00:00:00Z")).toEqual([
      ["2026-12-02T13:00:00.000Z", "2026-12-02T15:00:00.000Z"],
    ]);
    expect(spansOf(once, "2026-12-02T15:00:00Z", "2026-12-03T00:00:00Z")).toEqual([]);
    expect(spansOf(once, "2026-12-01T00:00:00Z", "2026-12-02T13:00:00Z")).toEqual([]);
  });

  it("a weekly window keeps its local start across the spring change of clocks, so its UTC start moves", () => {
    // Sundays 14:00 Berlin: 22 March (UTC+1), 29 March (the change), 5 April (UTC+2).
    expect(spansOf(weekly({ days: [7] }), "2026-03-20T00:00:00Z", "2026-04-06T00:00:00Z")).toEqual([
      ["2026-03-22T13:00:00.000Z", "2026-03-22T14:00:00.000Z"],
      ["2026-03-29T12:00:00.000Z", "2026-03-29T13:00:00.000Z"],
      ["2026-04-05T12:00:00.000Z", "2026-04-05T13:00:00.000Z"],
    ]);
  });

  it("lasts its duration in real minutes over a night whose clocks go back: 01:00 + 3 h ends at 03:00 on the clock", () => {
    const night = weekly({ days: [7], start: "01:00", durationMinutes: 180 });
    expect(spansOf(night, "2026-10-24T00:00:00Z", "2026-10-26T00:00:00Z")).toEqual([
      // 01:00 CEST is 23:00 UTC; three real hours later the clock says 03:00 CET (02:00 UTC).
      ["2026-10-24T23:00:00.000Z", "2026-10-25T02:00:00.000Z"],
    ]);
  });

  it("a start time the spring change skips starts as the clocks jump, then keeps its local time", () => {
    const early = weekly({ days: [7], start: "02:30", durationMinutes: 30 });
    expect(spansOf(early, "2026-03-28T00:00:00Z", "2026-04-06T00:00:00Z")).toEqual([
      ["2026-03-29T01:30:00.000Z", "2026-03-29T02:00:00.000Z"],
      ["2026-04-05T00:30:00.000Z", "2026-04-05T01:00:00.000Z"],
    ]);
  });

  it("several days a week, in another zone (New York across its November change)", () => {
    const deploys = weekly({ days: [2, 4], start: "09:00", durationMinutes: 45, zone: "America/New_York" });
    expect(spansOf(deploys, "2026-10-27T00:00:00Z", "2026-11-06T00:00:00Z")).toEqual([
      ["2026-10-27T13:00:00.000Z", "2026-10-27T13:45:00.000Z"], // Tue, UTC-4
      ["2026-10-29T13:00:00.000Z", "2026-10-29T13:45:00.000Z"], // Thu, UTC-4
      ["2026-11-03T14:00:00.000Z", "2026-11-03T14:45:00.000Z"], // Tue, UTC-5
      ["2026-11-05T14:00:00.000Z", "2026-11-05T14:45:00.000Z"], // Thu, UTC-5
    ]);
  });

  it("a window across midnight belongs to the day it starts on", () => {
    const late = weekly({ days: [5], start: "23:00", durationMinutes: 120, zone: "UTC" });
    // Friday 11 December 2026, 23:00 to Saturday 01:00: still on just after midnight.
    expect(spansOf(late, "2026-12-12T00:30:00Z", "2026-12-12T00:31:00Z")).toEqual([
      ["2026-12-11T23:00:00.000Z", "2026-12-12T01:00:00.000Z"],
    ]);
  });

  it("a half-hour zone: Kolkata's Monday 00:15 is Sunday evening in UTC", () => {
    const monday = weekly({ days: [1], start: "00:15", durationMinutes: 30, zone: "Asia/Kolkata" });
    expect(spansOf(monday, "2026-12-06T00:00:00Z", "2026-12-08T00:00:00Z")).toEqual([
      ["2026-12-06T18:45:00.000Z", "2026-12-06T19:15:00.000Z"],
    ]);
  });
});

describe("maintenanceState: now, until when, and the next one", () => {
  const tuesdays = weekly({ days: [2] }); // Tuesdays 14:00–15:00 Berlin (13:00–14:00 UTC in December)

  it.each([
    ["before it: the next is this Tuesday", "2026-12-01T12:59:00Z", null, "2026-12-01T13:00:00.000Z"],
    [
      "at its start: on until 15:00 Berlin, next a week on",
      "2026-12-01T13:00:00Z",
      "2026-12-01T14:00:00.000Z",
      "2026-12-08T13:00:00.000Z",
    ],
    ["its last minute", "2026-12-01T13:59:59Z", "2026-12-01T14:00:00.000Z", "2026-12-08T13:00:00.000Z"],
    ["at its end: over, next a week on", "2026-12-01T14:00:00Z", null, "2026-12-08T13:00:00.000Z"],
  ])("%s", (_name, now, until, next) => {
    const state = maintenanceState([tuesdays], at(now));
    expect(state.current && iso(state.current.end)).toBe(until);
    expect(state.next && iso(state.next.start)).toBe(next);
  });

  it("windows that run together are one: a webhook's own and its application's", () => {
    const own = weekly({ days: [2], start: "14:00", durationMinutes: 60 });
    const application = weekly({ days: [2], start: "15:00", durationMinutes: 90 });
    const state = maintenanceState([own, application], at("2026-12-01T13:30:00Z"));
    expect(state.current).toEqual({ start: at("2026-12-01T13:00:00Z"), end: at("2026-12-01T15:30:00Z") });
  });

  it("every day for 24 hours never ends within the week looked at", () => {
    const always = weekly({
      days: [1, 2, 3, 4, 5, 6, 7],
      start: "00:00",
      durationMinutes: 24 * 60,
      zone: "UTC",
    });
    const state = maintenanceState([always], at("2026-12-01T10:00:00Z"));
    expect(state.current!.end).toBeGreaterThan(at("2026-12-08T00:00:00Z"));
    expect(state.next).toBeNull();
  });

  it("a one-off window a month ahead is the next, however far", () => {
    const once: WindowSchedule = {
      kind: "once",
      startsAt: at("2027-01-05T08:00:00Z"),
      endsAt: at("2027-01-05T10:00:00Z"),
      zone: "UTC",
    };
    expect(maintenanceState([once], at("2026-12-01T10:00:00Z"))).toEqual({
      current: null,
      next: { start: once.startsAt, end: once.endsAt },
    });
    expect(maintenanceState([], at("2026-12-01T10:00:00Z"))).toEqual({ current: null, next: null });
  });
});

describe("maintenanceSpans / inSpans: which moments of a range were in maintenance", () => {
  it("marks the failures sent inside a window, and not those a second outside", () => {
    const spans = maintenanceSpans(
      [weekly({ days: [2] })],
      at("2026-12-01T00:00:00Z"),
      at("2026-12-02T00:00:00Z"),
    );
    expect(inSpans(spans, at("2026-12-01T12:59:59Z"))).toBe(false);
    expect(inSpans(spans, at("2026-12-01T13:00:00Z"))).toBe(true);
    expect(inSpans(spans, at("2026-12-01T13:59:59Z"))).toBe(true);
    expect(inSpans(spans, at("2026-12-01T14:00:00Z"))).toBe(false);
  });
});
