/**
 * The application's alert rules, called directly with a real (embedded, in-memory) store: read
 * (the defaults until someone saves), saved whole and read back, nonsense refused with each
 * field's label and nothing stored, and each session reads and changes only its own application's.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_RULES, type RuleSettings } from "@/lib/domain/alerts/rules";
import { RULE_KEYS } from "@/lib/domain/alerts/rule-text";
import { errorOf, request, signedInCookie } from "@/tests/support/route-requests";
import { FIRST, SECOND, watchRouteHub } from "@/tests/support/watch-route-hub";
import * as rulesRoute from "@/app/api/alerts/rules/route";

watchRouteHub();

const put = (cookie: string, body: unknown, headers?: Record<string, string>) =>
  rulesRoute.PUT(request("PUT", "/api/alerts/rules", { cookie, body, headers }));

async function read(cookie: string): Promise<RuleSettings> {
  const response = await rulesRoute.GET(request("GET", "/api/alerts/rules", { cookie }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { rules: RuleSettings }).rules;
}

let owner: string;
let stranger: string;
beforeEach(async () => {
  owner = await signedInCookie(FIRST);
  stranger = await signedInCookie(SECOND);
  // Each test starts from the defaults.
  for (const cookie of [owner, stranger]) expect((await put(cookie, DEFAULT_RULES)).status).toBe(200);
});

const CHANGED: RuleSettings = {
  streak: { enabled: true, min: 3 },
  rate: { enabled: true, percent: 70, windowMinutes: 30, minAttempts: 20 },
  inactive: { enabled: false },
  errorsJump: { enabled: true, by: 25 },
  silence: { enabled: true, minutes: 120 },
  watchUnreadable: { enabled: true },
  cooldownMinutes: 10,
};

describe("the application's rules", () => {
  it("are saved whole and read back, for this application only", async () => {
    const response = await put(owner, CHANGED);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ rules: CHANGED });
    expect(await read(owner)).toEqual(CHANGED);
    expect(await read(stranger)).toEqual(DEFAULT_RULES);
  });

  it.each([
    [
      "a negative streak",
      { streak: { enabled: true, min: -5 } },
      "streak.min",
      /^Failing streak: enter a whole number from 1/,
    ],
    [
      "a window of 0",
      { rate: { ...DEFAULT_RULES.rate, windowMinutes: 0 } },
      "rate.windowMinutes",
      /^Over \(minutes\): enter a whole number from 1 to 10,080/,
    ],
    [
      "a rate over 100 %",
      { rate: { ...DEFAULT_RULES.rate, percent: 150 } },
      "rate.percent",
      /^Failure rate \(%\): enter a whole number from 1 to 100/,
    ],
    [
      "a fractional attempt count",
      { rate: { ...DEFAULT_RULES.rate, minAttempts: 0.5 } },
      "rate.minAttempts",
      /^At least \(attempts\): /,
    ],
    ["a negative cooldown", { cooldownMinutes: -30 }, "cooldownMinutes", /^Cooldown \(minutes\): /],
    ["a key it does not take", { admin: true }, "admin", /^admin: this request does not take it/],
    [
      "a __proto__ key",
      JSON.parse('{"__proto__": {"polluted": true}}') as object,
      "__proto__",
      /this request does not take it/,
    ],
  ])("refuses %s with the field's message and stores nothing", async (_name, patch, field, message) => {
    const response = await put(owner, { ...CHANGED, ...patch });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("bad_request");
    expect(error.fields?.[field]?.[0]).toMatch(message);
    expect(await read(owner)).toEqual(DEFAULT_RULES);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses a rule given in part: every rule is saved whole", async () => {
    const response = await put(owner, { streak: { enabled: true, min: 3 } });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(
      RULE_KEYS.filter((key) => key !== "streak").sort(),
    );
    expect(await read(owner)).toEqual(DEFAULT_RULES);
  });

  it("needs a session, and refuses a cross-site change", async () => {
    expect((await rulesRoute.GET(request("GET", "/api/alerts/rules"))).status).toBe(401);
    expect((await put(owner, CHANGED, { origin: "https://evil.example" })).status).toBe(403);
    expect(await read(owner)).toEqual(DEFAULT_RULES);
  });
});
