import { describe, expect, it } from "vitest";
import { refusal } from "@/tests/support/input-refusal";
import { DEFAULT_RULES } from "@/lib/domain/alerts/rules";
import { activeSnooze, snoozedUntilFor, UNTIL_TURNED_ON } from "@/lib/domain/alerts/snooze";
import {
  canonicalZone,
  ruleSettingsSchema,
  webhookAlertSettingsSchema,
} from "@/lib/domain/inputs/alert-rules";

const withRule = (patch: Record<string, unknown>) => ({ ...DEFAULT_RULES, ...patch });

describe("the application's rules", () => {
  it("takes the defaults as they are, and a form's text as numbers", () => {
    expect(ruleSettingsSchema.parse(DEFAULT_RULES)).toEqual(DEFAULT_RULES);
    const typed = withRule({
      rate: { enabled: true, percent: " 70 ", windowMinutes: "10080", minAttempts: "1" },
      cooldownMinutes: "0",
    });
    expect(ruleSettingsSchema.parse(typed)).toMatchObject({
      rate: { percent: 70, windowMinutes: 10080, minAttempts: 1 },
      cooldownMinutes: 0,
    });
  });

  it.each([
    [
      "a negative streak",
      { streak: { enabled: true, min: -3 } },
      "streak.min",
      /^Failing streak: enter a whole number from 1 to 1,000/,
    ],
    ["a streak of 0", { streak: { enabled: true, min: "0" } }, "streak.min", /^Failing streak: /],
    [
      "a rate over 100 %",
      { rate: { ...DEFAULT_RULES.rate, percent: 101 } },
      "rate.percent",
      "Failure rate (%): enter a whole number from 1 to 100 %.",
    ],
    [
      "a rate of 0 %",
      { rate: { ...DEFAULT_RULES.rate, percent: 0 } },
      "rate.percent",
      /^Failure rate \(%\): /,
    ],
    [
      "a window of 0",
      { rate: { ...DEFAULT_RULES.rate, windowMinutes: 0 } },
      "rate.windowMinutes",
      /^Over \(minutes\): enter a whole number from 1 to 10,080 minutes \(7 days\)\.$/,
    ],
    [
      "a window over 7 days",
      { rate: { ...DEFAULT_RULES.rate, windowMinutes: 10081 } },
      "rate.windowMinutes",
      /^Over \(minutes\): /,
    ],
    [
      "a fractional attempt count",
      { rate: { ...DEFAULT_RULES.rate, minAttempts: 2.5 } },
      "rate.minAttempts",
      /^At least \(attempts\): enter a whole number/,
    ],
    ["a jump of text", { errorsJump: { enabled: true, by: "ten" } }, "errorsJump.by", /^Errors jump by: /],
    ["an exponent", { errorsJump: { enabled: true, by: "1e3" } }, "errorsJump.by", /^Errors jump by: /],
    [
      "a huge silence",
      { silence: { enabled: true, minutes: 1e308 } },
      "silence.minutes",
      /^No delivery for \(minutes\): /,
    ],
    [
      "a blank silence",
      { silence: { enabled: false, minutes: "  " } },
      "silence.minutes",
      /^No delivery for \(minutes\): /,
    ],
    [
      "a negative cooldown",
      { cooldownMinutes: -1 },
      "cooldownMinutes",
      /^Cooldown \(minutes\): enter a whole number from 0 to 1,440/,
    ],
    ["a cooldown of null", { cooldownMinutes: null }, "cooldownMinutes", /^Cooldown \(minutes\): /],
    [
      "a number as text with a unit",
      { cooldownMinutes: "30 min" },
      "cooldownMinutes",
      /^Cooldown \(minutes\): /,
    ],
    [
      "a switch given as text",
      { inactive: { enabled: "yes" } },
      "inactive.enabled",
      "Webhook turned inactive: choose on or off (true or false).",
    ],
    ["a rule missing", { watchUnreadable: undefined }, "watchUnreadable", /./],
  ])("refuses %s, naming the field by its label", (_name, patch, field, message) => {
    expect(refusal(ruleSettingsSchema, withRule(patch))[field]).toMatch(message);
  });

  it("refuses fields it does not know, and an object or array where a number goes", () => {
    const errors = refusal(
      ruleSettingsSchema,
      JSON.parse(
        `{"streak":{"enabled":true,"min":[5]},"rate":${JSON.stringify(DEFAULT_RULES.rate)},"__proto__":{"admin":true}}`,
      ),
    );
    expect(errors["streak.min"]).toMatch(/^Failing streak: /);
    expect(errors.__proto__).toMatch(/this request does not take it/);
    expect(refusal(ruleSettingsSchema, "5")._).toBeDefined();
  });
});

describe("a watched webhook's own settings", () => {
  it("takes overrides of some rules, quiet hours across midnight in a zone spelled in any case, and a snooze", () => {
    expect(
      webhookAlertSettingsSchema.parse({
        rules: { streak: { enabled: true, min: "3" }, cooldownMinutes: 5 },
        quietHours: { start: " 22:00", end: "07:30", zone: "europe/berlin" },
        snooze: "4h",
      }),
    ).toEqual({
      rules: { streak: { enabled: true, min: 3 }, cooldownMinutes: 5 },
      quietHours: { start: "22:00", end: "07:30", zone: "Europe/Berlin" },
      snooze: "4h",
    });
    expect(webhookAlertSettingsSchema.parse({ quietHours: null, snooze: "off" })).toEqual({
      quietHours: null,
      snooze: "off",
    });
  });

  it.each([
    ["24:00", "quietHours.start", "Quiet from: enter a time on the 24-hour clock as HH:MM, e.g. 22:00."],
    ["7:30", "quietHours.start", /^Quiet from: /],
    ["22:60", "quietHours.start", /^Quiet from: /],
    ["10pm", "quietHours.start", /^Quiet from: /],
  ])("refuses the time %j", (start, field, message) => {
    const errors = refusal(webhookAlertSettingsSchema, {
      quietHours: { start, end: "07:00", zone: "UTC" },
    });
    expect(errors[field]).toMatch(message);
  });

  it("refuses quiet hours that start and end at the same minute", () => {
    expect(
      refusal(webhookAlertSettingsSchema, { quietHours: { start: "08:00", end: "08:00", zone: "UTC" } })[
        "quietHours.end"
      ],
    ).toBe("Quiet until: choose a time other than Quiet from.");
  });

  it.each([
    "Mars/Olympus_Mons",
    "+02:00",
    "GMT+2 ",
    "../../etc/passwd",
    "",
    "Europe/Berlin; DROP TABLE",
    "x".repeat(65),
  ])("refuses the zone %j", (zone) => {
    expect(
      refusal(webhookAlertSettingsSchema, { quietHours: { start: "22:00", end: "07:00", zone } })[
        "quietHours.zone"
      ],
    ).toMatch(/^Time zone: /);
  });

  it("knows real zones by their canonical names", () => {
    expect(canonicalZone("America/Sao_Paulo")).toBe("America/Sao_Paulo");
    expect(canonicalZone("utc")).toBe("UTC");
    expect(canonicalZone("Nowhere/Atlantis")).toBeNull();
  });

  it.each([["2h"], [3600], [true], [null]])("refuses the snooze %j", (snooze) => {
    expect(refusal(webhookAlertSettingsSchema, { snooze }).snooze).toMatch(
      /^Snooze: choose one of 1h, 4h, 24h, untilTurnedOn .*or off/,
    );
  });

  it("refuses a bad override like a default, and a rule given in part", () => {
    const errors = refusal(webhookAlertSettingsSchema, {
      rules: { rate: { enabled: true, percent: 250 }, bogus: { enabled: true } },
    });
    expect(errors["rules.rate.percent"]).toMatch(/^Failure rate \(%\): /);
    expect(errors["rules.rate.windowMinutes"]).toMatch(/^Over \(minutes\): /);
    expect(errors["rules.bogus"]).toMatch(/this request does not take it/);
  });
});

describe("snooze", () => {
  const now = Date.parse("2026-11-25T13:05:00Z");
  it("ends after the chosen time, or never", () => {
    expect(snoozedUntilFor("1h", now)).toBe("2026-11-25T14:05:00.000Z");
    expect(snoozedUntilFor("24h", now)).toBe("2026-11-26T13:05:00.000Z");
    expect(snoozedUntilFor("untilTurnedOn", now)).toBe(UNTIL_TURNED_ON);
  });

  it("holds alerts only until it ends", () => {
    expect(activeSnooze("2026-11-25T14:05:00.000Z", now)).toBe("2026-11-25T14:05:00.000Z");
    expect(activeSnooze("2026-11-25T13:05:00.000Z", now)).toBeNull();
    expect(activeSnooze(null, now)).toBeNull();
  });
});
