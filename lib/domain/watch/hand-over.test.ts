import { describe, expect, it } from "vitest";
import { UNTIL_TURNED_ON } from "@/lib/domain/alerts/snooze";
import { handOverLines, type HandOverPlan } from "@/lib/domain/watch/hand-over";

const EMPTY: HandOverPlan = {
  from: "0123456789abcdef",
  rejectedAt: null,
  watches: [],
  destinations: [],
  rules: { defaults: false, webhooks: [] },
  snoozes: [],
  quietHours: [],
};

const acme = { webhookId: "a", name: "Acme" };
const bravo = { webhookId: "b", name: "Bravo" };

describe("what a hand-over lists", () => {
  it("names every kind it carries, and says so when there is none of one", () => {
    expect(handOverLines(EMPTY, (iso) => iso)).toEqual([
      "Watches: none.",
      "Alert rules: none of its own (the console's defaults).",
      "Snoozes: none.",
      "Quiet hours: none.",
    ]);
  });

  it("lists the watches, rules, snoozes and quiet hours by the webhooks' names, times as given", () => {
    const plan: HandOverPlan = {
      ...EMPTY,
      watches: [acme, bravo],
      rules: { defaults: true, webhooks: [bravo] },
      snoozes: [
        { ...acme, until: "2026-11-25T13:00:00.000Z" },
        { ...bravo, until: UNTIL_TURNED_ON },
      ],
      quietHours: [{ ...acme, quietHours: { start: "22:00", end: "07:00", zone: "Europe/Berlin" } }],
    };
    expect(handOverLines(plan, (iso) => `at ${iso.slice(11, 16)}`)).toEqual([
      'Watches: 2 webhooks: "Acme", "Bravo", with their names and history.',
      'Alert rules: the application\'s own default rules; rules of their own on "Bravo".',
      'Snoozes: "Acme" until at 13:00, "Bravo" until turned back on.',
      'Quiet hours: "Acme" 22:00–07:00 (Europe/Berlin).',
    ]);
  });
});
