import { describe, expect, it } from "vitest";
import {
  FIRST_RENDER,
  formatClock,
  formatDay,
  formatDayClock,
  formatExactUtc,
  formatRelative,
  formatShortTime,
  formatTimestamp,
  formatUtc,
  timeStyleAt,
  VIEWER,
  type TimeStyle,
} from "@/lib/domain/format-time";

const AT = "2026-11-26T00:18:51.045Z";
/** Noon UTC on the 26th: still the 26th in every zone below. */
const NOW = Date.parse("2026-11-26T12:00:00Z");

const GB_BERLIN: TimeStyle = { locale: "en-GB", timeZone: "Europe/Berlin" };
const US_NEW_YORK: TimeStyle = { locale: "en-US", timeZone: "America/New_York" };
const DE_BERLIN: TimeStyle = { locale: "de-DE", timeZone: "Europe/Berlin" };
const US_UTC: TimeStyle = { locale: "en-US", timeZone: "UTC" };

/** Every form a style writes for one moment, on NOW's day and on others. */
function forms(style: TimeStyle) {
  return {
    full: formatTimestamp(AT, style),
    exactUtc: formatExactUtc(AT, style),
    clock: formatClock(AT, style),
    day: formatDay(AT, style),
    dayClock: formatDayClock(AT, style),
    sameDay: formatShortTime("2026-11-26T08:07:00Z", NOW, style),
    otherDay: formatShortTime("2026-11-20T20:07:00Z", NOW, style),
    otherYear: formatShortTime("2025-11-20T20:07:00Z", NOW, style),
  };
}

describe("the console's time forms", () => {
  it.each([
    {
      style: GB_BERLIN,
      full: "26 Nov 2026, 01:18:51 CET",
      exactUtc: "26 Nov 2026, 00:18:51.045 UTC",
      clock: "01:18",
      day: "26 Nov",
      dayClock: "26 Nov, 01:18",
      sameDay: "09:07",
      otherDay: "20 Nov, 21:07",
      otherYear: "20 Nov 2025, 21:07",
    },
    {
      // The three shapes (20:07, 08:07 PM, Nov 26, 2026, 12:18:51 AM UTC) were one viewer's.
      style: US_NEW_YORK,
      full: "Nov 25, 2026, 07:18:51 PM EST",
      exactUtc: "Nov 26, 2026, 12:18:51.045 AM UTC",
      clock: "07:18 PM",
      day: "Nov 25",
      dayClock: "Nov 25, 07:18 PM",
      sameDay: "03:07 AM",
      otherDay: "Nov 20, 03:07 PM",
      otherYear: "Nov 20, 2025, 03:07 PM",
    },
    {
      style: DE_BERLIN,
      full: "26. Nov. 2026, 01:18:51 MEZ",
      exactUtc: "26. Nov. 2026, 00:18:51,045 UTC",
      clock: "01:18",
      day: "26. Nov.",
      dayClock: "26. Nov., 01:18",
      sameDay: "09:07",
      otherDay: "20. Nov., 21:07",
      otherYear: "20. Nov. 2025, 21:07",
    },
  ])(
    "$style.locale in $style.timeZone: one full form and one short form, in the locale's own order and clock",
    ({ style, ...expected }) => {
      expect(forms(style)).toEqual(expected);
    },
  );

  it("before mount: UTC in one locale, the zone said in the short forms too", () => {
    expect(timeStyleAt(0)).toBe(FIRST_RENDER);
    expect(timeStyleAt(NOW)).toBe(VIEWER);
    expect(forms(FIRST_RENDER)).toEqual({
      full: "26 Nov 2026, 00:18:51 UTC",
      exactUtc: "26 Nov 2026, 00:18:51.045 UTC",
      clock: "00:18 UTC",
      day: "26 Nov",
      dayClock: "26 Nov, 00:18 UTC",
      sameDay: "08:07 UTC",
      otherDay: "20 Nov, 20:07 UTC",
      otherYear: "20 Nov 2025, 20:07 UTC",
    });
  });

  it("the exact form adds milliseconds only when there are some", () => {
    expect(formatExactUtc("2026-11-26T00:18:51Z", US_UTC)).toBe("Nov 26, 2026, 12:18:51 AM UTC");
    expect(formatTimestamp(AT, US_UTC, true)).toBe("Nov 26, 2026, 12:18:51.045 AM UTC");
  });

  it("decides 'today' on the style's clock, not UTC's", () => {
    // 23:30 UTC on the 24th is already the 25th in Tokyo, and still the 24th in UTC.
    const now = Date.parse("2026-11-25T06:40:00Z");
    expect(formatShortTime("2026-11-24T23:30:00Z", now, { locale: "en-GB", timeZone: "Asia/Tokyo" })).toBe(
      "08:30",
    );
    expect(formatShortTime("2026-11-24T23:30:00Z", now, { locale: "en-GB", timeZone: "UTC" })).toBe(
      "24 Nov, 23:30",
    );
    // 01:30 UTC on the 25th is 22:30 on the 24th in São Paulo, where it is the 25th by noon UTC.
    expect(
      formatShortTime("2026-11-25T01:30:00Z", Date.parse("2026-11-25T12:00:00Z"), {
        locale: "en-GB",
        timeZone: "America/Sao_Paulo",
      }),
    ).toBe("24 Nov, 22:30");
  });

  it("the viewer's style is the runtime's locale and zone", () => {
    const runtime = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" }).format(
      Date.parse(AT),
    );
    expect(formatClock(AT, VIEWER)).toBe(runtime);
  });

  it.each([formatTimestamp, formatExactUtc, formatClock, formatDay, formatDayClock])(
    "%o gives back what it cannot read",
    (format) => {
      expect(format("yesterday", GB_BERLIN)).toBe("yesterday");
    },
  );

  it("the short form gives back what it cannot read", () => {
    expect(formatShortTime("yesterday", NOW, GB_BERLIN)).toBe("yesterday");
  });
});

describe("formatUtc (what the server writes, knowing no viewer)", () => {
  it("writes exact UTC", () => {
    expect(formatUtc("2025-11-21T16:07:03Z")).toBe("2025-11-21 16:07:03 UTC");
    expect(formatUtc("2025-11-21T17:07:03.045+01:00")).toBe("2025-11-21 16:07:03.045 UTC");
  });

  it("returns what it cannot parse", () => {
    expect(formatUtc("yesterday")).toBe("yesterday");
  });
});

describe("formatRelative", () => {
  const now = Date.parse("2025-11-21T16:07:03Z");
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it("says just now under a minute, also for a clock a little ahead", () => {
    expect(formatRelative(ago(0), now)).toBe("just now");
    expect(formatRelative(ago(59_999), now)).toBe("just now");
    expect(formatRelative(ago(-30_000), now)).toBe("just now");
  });

  it("counts whole minutes, then whole hours", () => {
    expect(formatRelative(ago(60_000), now)).toBe("1 min ago");
    expect(formatRelative(ago(4 * 60_000 + 59_000), now)).toBe("4 min ago");
    expect(formatRelative(ago(59 * 60_000), now)).toBe("59 min ago");
    expect(formatRelative(ago(3_600_000), now)).toBe("1 h ago");
    expect(formatRelative(ago(23 * 3_600_000 + 59 * 60_000), now)).toBe("23 h ago");
  });

  it("gives up (absolute time) from a day old, far ahead, or unparseable", () => {
    expect(formatRelative(ago(24 * 3_600_000), now)).toBeNull();
    expect(formatRelative(ago(40 * 24 * 3_600_000), now)).toBeNull();
    expect(formatRelative(ago(-60_000), now)).toBeNull();
    expect(formatRelative("yesterday", now)).toBeNull();
  });
});
