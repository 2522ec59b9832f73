import { describe, expect, it } from "vitest";
import {
  durationText,
  incidentAlert,
  recoveredMessage,
  recoveryText,
  summaryMessage,
  type IncidentFacts,
} from "@/lib/domain/alerts/incident-message";
import { statusMeaning } from "@/lib/domain/status-meaning";

const NOW = Date.parse("2026-11-25T12:00:00Z");
const MINUTE = 60_000;
const ORIGIN = { origin: "https://console.example" };

const STREAK = {
  rule: "streak" as const,
  headline: "7 failures in a row",
  since: NOW - 42 * MINUTE,
  failures: 7,
  attempts: 7,
  codes: [{ code: 404, count: 7 }],
};
const JUMP = {
  rule: "errorsJump" as const,
  headline: "numberOfErrors rose by 11 (3 → 14) in 15 minutes",
  since: NOW - 41 * MINUTE,
  failures: 11,
  attempts: 0,
  codes: [{ code: 404, count: 7 }],
};

const incident = (change: Partial<IncidentFacts> = {}): IncidentFacts => ({
  id: "inc-1",
  scope: "webhook",
  application: { id: "0123456789abcdef", name: "Application 0123456789abcdef" },
  webhook: { id: "wh-1", name: "Acme orders", endpoint: "https://acme.example/hook" },
  conditions: [STREAK, JUMP],
  since: NOW - 42 * MINUTE,
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
  it("a firing alert names its incident and every condition, with the leading one's diagnosis, its start and the links back", () => {
    const message = incidentAlert(incident(), [], ORIGIN, NOW);
    expect(message).toMatchObject({
      version: 2,
      idempotencyKey: "inc-1.firing",
      kind: "firing",
      incident: { id: "inc-1", scope: "webhook", openedAt: new Date(NOW - 40 * MINUTE).toISOString() },
      headline: "7 failures in a row; numberOfErrors rose by 11 (3 → 14) in 15 minutes",
      counts: { failures: 7, attempts: 7 },
      since: new Date(NOW - 42 * MINUTE).toISOString(),
      likelyCause: statusMeaning(404).cause,
      customerFix: statusMeaning(404).nextStep,
      links: {
        console: "https://console.example/overview?app=0123456789abcdef",
        webhook: "https://console.example/webhooks/wh-1?app=0123456789abcdef",
      },
    });
    expect(message.conditions.map((c) => [c.rule, c.headline, c.since])).toEqual([
      [{ id: "streak", name: "Failing streak" }, STREAK.headline, new Date(STREAK.since).toISOString()],
      [{ id: "errorsJump", name: "Errors jumped" }, JUMP.headline, new Date(JUMP.since).toISOString()],
    ]);
  });

  it("an update of the same incident is numbered: its own key each time, the incident's id the same", () => {
    const first = incidentAlert(incident(), [], ORIGIN, NOW, 1);
    const second = incidentAlert(incident(), [], ORIGIN, NOW + MINUTE, 2);
    expect([first.kind, first.idempotencyKey, second.idempotencyKey]).toEqual([
      "updated",
      "inc-1.updated.1",
      "inc-1.updated.2",
    ]);
    expect(second.incident!.id).toBe("inc-1");
  });

  it("a condition without a status code explains itself; an incident without a start says when it opened", () => {
    const silent = incident({
      conditions: [
        {
          rule: "silence",
          headline: "no delivery for 61 minutes",
          since: null,
          failures: 0,
          attempts: 0,
          codes: [],
        },
      ],
      since: null,
    });
    const message = incidentAlert(silent, [], ORIGIN, NOW);
    expect(message.likelyCause).toMatch(/No event reached this webhook/);
    expect(message.since).toBe(new Date(NOW - 40 * MINUTE).toISOString());
  });

  it("a recovered notice has its own key, the recovery sentence and what held last", () => {
    const message = recoveredMessage(incident(), 9, ORIGIN, NOW);
    expect(message.idempotencyKey).toBe("inc-1.recovered");
    expect(message.kind).toBe("recovered");
    expect(message.headline).toBe(
      "recovered after 9 failures, 42 minutes (7 failures in a row; numberOfErrors rose by 11 (3 → 14) in 15 minutes)",
    );
    expect(message.counts).toEqual({ failures: 9, attempts: 7 });
    expect(message.conditions).toHaveLength(2);
  });

  it("a summary of a hub failure blames the hub, not the customers; its update says which webhooks were added", () => {
    const summary = incident({
      scope: "summary",
      webhook: null,
      conditions: [{ ...STREAK, rule: "summary", headline: "6 webhooks failing at once" }],
    });
    const item = (id: string) => ({
      webhook: { id, name: id, endpoint: `https://acme.example/${id}` },
      failures: 5,
      lastStatusCode: 500,
      link: `https://console.example/webhooks/${id}`,
    });
    const hub = summaryMessage(summary, { webhooks: [], added: [], hubFailing: true }, ORIGIN, NOW);
    expect(hub).toMatchObject({
      kind: "firing",
      incident: { scope: "summary" },
      conditions: [],
      webhook: null,
      links: { webhook: null },
    });
    expect(hub.customerFix).toMatch(/^Nothing for the customer to fix/);
    const content = { webhooks: [item("a"), item("b")], added: [item("b")], hubFailing: false };
    const update = summaryMessage(summary, content, ORIGIN, NOW, 1);
    expect(update).toMatchObject({ kind: "updated", idempotencyKey: "inc-1.updated.1" });
    expect(update.added.map((a) => a.webhook.id)).toEqual(["b"]);
    expect(update.likelyCause).toMatch(/^Many webhooks/);
  });
});
