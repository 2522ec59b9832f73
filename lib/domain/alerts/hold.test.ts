import { describe, expect, it } from "vitest";
import { holdOf, holdText, quietUntil } from "@/lib/domain/alerts/hold";

const at = (iso: string) => Date.parse(iso);

describe("quietUntil", () => {
  const night = { start: "22:00", end: "07:00", zone: "Europe/Berlin" };

  it("holds inside a period that wraps midnight, in the given zone, until its end", () => {
    // 23:30 in Berlin (UTC+1 in November) is 22:30 UTC; the period ends at 07:00 Berlin, 06:00 UTC.
    expect(quietUntil(night, at("2026-11-25T22:30:00Z"))).toBe(at("2026-11-26T06:00:00Z"));
    expect(quietUntil(night, at("2026-11-26T05:59:00Z"))).toBe(at("2026-11-26T06:00:00Z"));
  });

  it("does not hold outside the period, at its end, or when start equals end", () => {
    expect(quietUntil(night, at("2026-11-26T06:00:00Z"))).toBeNull();
    expect(quietUntil(night, at("2026-11-25T20:59:00Z"))).toBeNull();
    expect(quietUntil({ start: "09:00", end: "09:00", zone: "UTC" }, at("2026-11-25T09:00:00Z"))).toBeNull();
  });

  it("holds within a daytime period", () => {
    const lunch = { start: "12:00", end: "13:30", zone: "UTC" };
    expect(quietUntil(lunch, at("2026-11-25T12:00:00Z"))).toBe(at("2026-11-25T13:30:00Z"));
    expect(quietUntil(lunch, at("2026-11-25T11:59:00Z"))).toBeNull();
  });
});

describe("holdOf", () => {
  const now = at("2026-11-25T12:00:00Z");
  const none = { snoozedUntil: null, quietHours: null };

  it("lets an alert go when nothing holds it (and a past snooze or cooldown holds nothing)", () => {
    expect(holdOf(none, null, now)).toBeNull();
    expect(holdOf({ ...none, snoozedUntil: "2026-11-25T11:00:00Z" }, now - 1, now)).toBeNull();
  });

  it("holds for the reason that lasts longest", () => {
    const snoozed = { ...none, snoozedUntil: "2026-11-25T14:00:00Z" };
    expect(holdOf(snoozed, now + 60_000, now)).toEqual({
      reason: "snooze",
      until: at("2026-11-25T14:00:00Z"),
    });
    expect(holdOf(snoozed, at("2026-11-25T15:00:00Z"), now)).toEqual({
      reason: "cooldown",
      until: at("2026-11-25T15:00:00Z"),
    });
    const quiet = { ...none, quietHours: { start: "11:00", end: "13:00", zone: "UTC" } };
    expect(holdOf(quiet, null, now)).toEqual({ reason: "quiet", until: at("2026-11-25T13:00:00Z") });
    expect(holdText({ reason: "quiet", until: at("2026-11-25T13:00:00Z") })).toBe(
      "Held until 2026-11-25T13:00:00.000Z: it is within the webhook's quiet hours. Sent then if still firing.",
    );
  });

  it("holds while a maintenance window is on, until its end, and not once it ended", () => {
    const end = at("2026-11-25T16:00:00Z");
    expect(holdOf(none, null, now, end)).toEqual({ reason: "maintenance", until: end });
    expect(holdOf(none, null, end, end)).toBeNull();
    // A snooze lasting longer holds longer.
    expect(holdOf({ ...none, snoozedUntil: "2026-11-25T18:00:00Z" }, null, now, end)?.reason).toBe("snooze");
    expect(holdText({ reason: "maintenance", until: end })).toBe(
      "Held until 2026-11-25T16:00:00.000Z: a maintenance window is on. Sent then if still firing.",
    );
  });
});
