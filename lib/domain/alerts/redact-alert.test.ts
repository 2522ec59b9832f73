/**
 * Nothing secret leaves in an alert: every kind (firing, updated, recovered, summaries, test), rendered for
 * every destination (Slack, email, signed JSON, PagerDuty, Teams, Discord), from an incident whose endpoint and response
 * bodies carry credentials, tokens, a JWT, a card number and secret query values.
 */
import { describe, expect, it } from "vitest";
import {
  incidentAlert,
  recoveredMessage,
  summaryMessage,
  type IncidentFacts,
} from "@/lib/domain/alerts/incident-message";
import { alertTitle, SAMPLE_BODY_MAX, testAlert, type AlertMessage } from "@/lib/domain/alerts/message";
import { renderEmail } from "@/lib/domain/alerts/render-email";
import { renderJson } from "@/lib/domain/alerts/render-json";
import { renderDiscord } from "@/lib/domain/alerts/render-discord";
import { renderPagerDuty } from "@/lib/domain/alerts/render-pagerduty";
import { renderSlack } from "@/lib/domain/alerts/render-slack";
import { renderTeams } from "@/lib/domain/alerts/render-teams";
import { statusMeaning } from "@/lib/domain/status-meaning";

const NOW = Date.parse("2026-11-25T12:00:00Z");
const CONTEXT = { origin: "https://console.example" };
const JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjdXN0b21lci0xIn0.c2lnbmF0dXJlLW9mLXRoZS1qd3Q";

/** Every value that must not reach a destination. */
const SECRETS = [
  "hunter2",
  "tok-query-abc123",
  "pw-query-9xy",
  "shop-acme-77",
  "bearer-secret-123456",
  "pw-body-5566",
  "c2lnbmF0dXJlLW9mLXRoZS1qd3Q",
  "4111 1111 1111 1111",
  "tok-link-445",
  "pw-link-556",
  "db-pw-667",
  "sid-cookie-778",
  "DE89 3704 0044 0532 0130 00",
  "ops@acme.example",
];

const ENDPOINT =
  "https://ops:hunter2@acme.example/hooks?token=tok-query-abc123&password=pw-query-9xy&shop=shop-acme-77";
const BODY = [
  '{"error":"unauthorized","password":"pw-body-5566",',
  `"jwt":"${JWT}","card":"4111 1111 1111 1111"}`,
  "Authorization: Bearer bearer-secret-123456",
  "retry at https://acme.example/cb?token=tok-link-445&password=pw-link-556",
  "db_password=db-pw-667",
  "Cookie: sid=sid-cookie-778; theme=dark",
  "refund to DE89 3704 0044 0532 0130 00, contact ops@acme.example",
].join("\n");

const webhook = { id: "wh-1", name: "Acme orders", endpoint: ENDPOINT };
const streak = {
  rule: "streak" as const,
  headline: "7 failures in a row",
  since: NOW - 42 * 60_000,
  failures: 7,
  attempts: 7,
  codes: [{ code: 401, count: 7 }],
};
const incident = (change: Partial<IncidentFacts> = {}): IncidentFacts => ({
  id: "inc-1",
  scope: "webhook",
  application: { id: "0123456789abcdef", name: "Production" },
  webhook,
  conditions: [streak],
  since: NOW - 42 * 60_000,
  openedAt: NOW - 40 * 60_000,
  ...change,
});
const summary = (): IncidentFacts =>
  incident({ scope: "summary", webhook: null, conditions: [{ ...streak, rule: "summary" }] });
/** A condition whose words carry a secret (an error text read back from somewhere). */
const unreadable = {
  ...streak,
  rule: "watchUnreadable" as const,
  headline: `the watch cannot read the webhook: ${ENDPOINT} answered with Bearer bearer-secret-123456`,
};
const samples = [1, 2].map((n) => ({
  logId: `log-${n}`,
  statusCode: 401,
  sentAt: new Date(NOW - n * 60_000).toISOString(),
  body: BODY,
}));
const summaryItems = [1, 2, 3, 4, 5].map((n) => ({
  webhook: { id: `wh-${n}`, name: `Shop ${n}`, endpoint: ENDPOINT },
  failures: 5,
  lastStatusCode: 500,
  link: `https://console.example/webhooks/wh-${n}`,
}));

const MESSAGES: Array<[string, AlertMessage]> = [
  ["firing", incidentAlert(incident(), samples, CONTEXT, NOW)],
  [
    "firing, the watch named after its endpoint",
    incidentAlert(incident({ webhook: { ...webhook, name: ENDPOINT } }), samples, CONTEXT, NOW),
  ],
  [
    "firing, a condition without samples (inactive)",
    incidentAlert(incident({ conditions: [{ ...streak, rule: "inactive" }] }), [], CONTEXT, NOW),
  ],
  [
    "updated, a condition's words carrying secrets",
    incidentAlert(incident({ conditions: [streak, unreadable] }), samples, CONTEXT, NOW, 1),
  ],
  ["recovered", recoveredMessage(incident({ conditions: [streak, unreadable] }), 9, CONTEXT, NOW)],
  ["recovered, a summary", recoveredMessage(summary(), 25, CONTEXT, NOW, summaryItems)],
  [
    "summary",
    summaryMessage(summary(), { webhooks: summaryItems, added: [], hubFailing: false }, CONTEXT, NOW),
  ],
  [
    "summary, the hub failing",
    summaryMessage(summary(), { webhooks: summaryItems, added: [], hubFailing: true }, CONTEXT, NOW),
  ],
  [
    "summary's update, webhooks added",
    summaryMessage(
      summary(),
      { webhooks: summaryItems, added: summaryItems.slice(3), hubFailing: false },
      CONTEXT,
      NOW,
      1,
    ),
  ],
  [
    "test",
    testAlert({
      idempotencyKey: "test_1",
      at: new Date(NOW),
      application: { id: "0123456789abcdef", name: "Production" },
      destinationLabel: "On-call (ops@acme.example)",
      consoleUrl: "https://console.example/alerts",
    }),
  ],
];

const RENDERERS: Array<[string, (message: AlertMessage) => string]> = [
  ["Slack", (message) => JSON.stringify(renderSlack(message))],
  ["email", (message) => JSON.stringify(renderEmail(message))],
  ["signed JSON webhook", (message) => JSON.stringify(renderJson(message))],
  ["PagerDuty", (message) => JSON.stringify(renderPagerDuty(message, "R0UTINGKEY0123456789abcdefABCDEF"))],
  ["Microsoft Teams", (message) => JSON.stringify(renderTeams(message))],
  ["Discord", (message) => JSON.stringify(renderDiscord(message))],
  ["the outbox's title", alertTitle],
];

describe("an alert leaves redacted", () => {
  it.each(
    MESSAGES.flatMap(([kind, message]) => RENDERERS.map(([to, render]) => [kind, to, render(message)])),
  )("%s, to %s: no secret survives", (_kind, _to, rendered) => {
    for (const secret of SECRETS) expect(rendered).not.toContain(secret);
  });

  it("keeps what the reader needs: the host, the names of the parameters, the error, the console's own words", () => {
    const message = incidentAlert(incident(), samples, CONTEXT, NOW);
    expect(message.webhook!.endpoint).toBe(
      "https://[redacted]@acme.example/hooks?token=[redacted]&password=[redacted]&shop=[redacted]",
    );
    expect(message.samples[0]!.body).toContain('{"error":"unauthorized","password":"[redacted]"');
    expect(message.headline).toBe("7 failures in a row");
    expect(message.likelyCause).toBe(statusMeaning(401).cause);
    expect(message.customerFix).toBe(statusMeaning(401).nextStep);
    expect(message.links.webhook).toBe("https://console.example/webhooks/wh-1?app=0123456789abcdef");
  });

  it("masks the operator's patterns too", () => {
    const body = "order ORD-123456 failed";
    const message = incidentAlert(
      incident(),
      [{ ...samples[0]!, body }],
      { ...CONTEXT, redactPatterns: ["ORD-\\d{6}"] },
      NOW,
    );
    expect(message.samples[0]!.body).toBe("order [redacted] failed");
  });

  it("cuts a sample body after redacting it: a card number across the cut is still masked", () => {
    // Cut first, the body would end in "4111 1111 1111": too short to be a card, so never masked.
    const body = `${"x".repeat(SAMPLE_BODY_MAX - 15)} 4111 1111 1111 1111 then more`;
    const [sample] = incidentAlert(incident(), [{ ...samples[0]!, body }], CONTEXT, NOW).samples;
    expect(sample!.body).toBe(`${"x".repeat(SAMPLE_BODY_MAX - 15)} [redacted] the… (cut)`);
    expect(sample!.body).not.toContain("4111");
  });
});
