import { describe, expect, it } from "vitest";
import {
  durationText,
  firingMessage,
  recoveryText,
  resolvedMessage,
  summaryMessage,
  type IncidentFacts,
} from "@/lib/domain/alerts/incident-message";
import { statusMeaning } from "@/lib/domain/status-meaning";

const NOW = Date.parse("2026-11-25T12:00:00Z");
const MINUTE = 60_000;
const ORIGIN = { origin: "https://console.example" };

const incident = (change: Partial<IncidentFacts> = {}): IncidentFacts => ({
  id: "inc-1",
  rule: "streak",
  application: { id: "0123456789abcdef", name: "Application 0123456789abcdef" },
  webhook: { id: "wh-1", name: "Acme orders", endpoint: "https://acme.example/hook" },
  breach: {
    headline: "7 failures in a row",
    since: NOW - 42 * MINUTE,
    failures: 7,
    attempts: 7,
    codes: [{ code: 404, count: 7 }],
  },
  openedAt: NOW - 40 * MINUTE,
  ...change,
});

describe("recoveryText", () => {
  it("says how many failures and how long", () => {
    expect(recoveryText(37, 42 * MINUTE + 59_000)).toBe("recovered after 37 failures, 42 minutes");
    expect(recoveryText(1, MINUTE)).toBe("recovered after 1 failure, 1 minute");
    expect(recoveryText(0, 30_000)).toBe("recovered after under a minute");
    expect(durationText(185 * MINUTE)).toBe("3 hours 5 minutes");
    expect(durationText(120 * MINUTE)).toBe("2 hours");
  });
});

describe("incident messages", () => {
  it("a firing alert carries the code's diagnosis, its start and the links back", () => {
    const message = firingMessage(incident(), [], ORIGIN, NOW);
    expect(message).toMatchObject({
      idempotencyKey: "inc-1.firing",
      kind: "firing",
      rule: { id: "streak", name: "Failing streak" },
      since: new Date(NOW - 42 * MINUTE).toISOString(),
      likelyCause: statusMeaning(404).cause,
      customerFix: statusMeaning(404).nextStep,
      links: {
        console: "https://console.example/overview?app=0123456789abcdef",
        webhook: "https://console.example/webhooks/wh-1?app=0123456789abcdef",
      },
    });
  });

  it("a rule without a status code explains itself; an incident without a start says when it opened", () => {
    const silent = incident({
      rule: "silence",
      breach: { headline: "no delivery for 61 minutes", since: null, failures: 0, attempts: 0, codes: [] },
    });
    const message = firingMessage(silent, [], ORIGIN, NOW);
    expect(message.likelyCause).toMatch(/No event reached this webhook/);
    expect(message.since).toBe(new Date(NOW - 40 * MINUTE).toISOString());
  });

  it("a resolved notice has its own key and the recovery sentence", () => {
    const message = resolvedMessage(incident(), 9, ORIGIN, NOW);
    expect(message.idempotencyKey).toBe("inc-1.resolved");
    expect(message.headline).toBe("recovered after 9 failures, 42 minutes (7 failures in a row)");
    expect(message.counts).toEqual({ failures: 9, attempts: 7 });
  });

  it("a summary of a hub failure blames the hub, not the customers", () => {
    const summary = incident({ rule: "summary", webhook: null });
    const hub = summaryMessage(summary, [], true, ORIGIN, NOW);
    expect(hub).toMatchObject({ kind: "summary", webhook: null, links: { webhook: null } });
    expect(hub.customerFix).toMatch(/^Nothing for the customer to fix/);
    expect(summaryMessage(summary, [], false, ORIGIN, NOW).likelyCause).toMatch(/^Many webhooks/);
  });
});
