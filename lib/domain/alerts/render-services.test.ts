/**
 * Rendering for PagerDuty, Microsoft Teams and Discord: the shape each service takes (every field
 * the console relies on, checked as a schema would), one dedup key from firing to recovery,
 * severity from the incident, summaries in each kind, and text from outside staying text
 * (no markdown link, no `@everyone` ping).
 */
import { describe, expect, it } from "vitest";
import type { Condition } from "@/lib/domain/alerts/conditions";
import {
  incidentAlert,
  recoveredMessage,
  summaryMessage,
  type IncidentFacts,
} from "@/lib/domain/alerts/incident-message";
import { alertTitle, testAlert, type AlertMessage } from "@/lib/domain/alerts/message";
import { DISCORD_COLOURS, DISCORD_LIMITS, renderDiscord } from "@/lib/domain/alerts/render-discord";
import { CRITICAL_STREAK, pagerDutySeverity, renderPagerDuty } from "@/lib/domain/alerts/render-pagerduty";
import { ADAPTIVE_CARD_CONTENT_TYPE, renderTeams } from "@/lib/domain/alerts/render-teams";

const NOW = Date.parse("2026-11-25T12:00:00Z");
const CONTEXT = { origin: "https://console.example" };
const KEY = "R0UTINGKEY0123456789abcdefABCDEF";
const HOSTILE = "Acme [click](https://evil.example) **bold** @everyone @here <@123> <@&456> `x`";
const HOSTILE_BODY = "@everyone ```\nbreak out``` <@!789> [x](https://evil.example)";

const streak = (failures: number): Condition => ({
  rule: "streak",
  headline: `${failures} failures in a row`,
  since: NOW - 42 * 60_000,
  failures,
  attempts: failures,
  codes: [{ code: 503, count: failures }],
});
const incident = (change: Partial<IncidentFacts> = {}): IncidentFacts => ({
  id: "0b7e5a4c-1111-4a5b-9c1d-2e3f4a5b6c7d",
  scope: "webhook",
  application: { id: "0123456789abcdef", name: "Production" },
  webhook: { id: "wh-1", name: HOSTILE, endpoint: "https://acme.example/hooks" },
  conditions: [streak(7)],
  since: NOW - 42 * 60_000,
  openedAt: NOW - 40 * 60_000,
  ...change,
});
const samples = [{ logId: "log-1", statusCode: 503, sentAt: "2026-11-25T11:58:00.000Z", body: HOSTILE_BODY }];
const items = [1, 2, 3, 4, 5, 6].map((n) => ({
  webhook: { id: `w${n}`, name: `Shop ${n}`, endpoint: `https://shop${n}.example/hook` },
  failures: 10 - n,
  lastStatusCode: 503,
  link: `https://console.example/webhooks/w${n}?app=0123456789abcdef`,
}));
const summary = incident({
  scope: "summary",
  webhook: null,
  conditions: [{ ...streak(25), rule: "summary" }],
});

const firing = incidentAlert(incident(), samples, CONTEXT, NOW);
const updated = incidentAlert(incident({ conditions: [streak(60)] }), samples, CONTEXT, NOW + 60_000, 1);
const recovered = recoveredMessage(incident(), 60, CONTEXT, NOW + 120_000);
const test = testAlert({
  idempotencyKey: "test_1",
  at: new Date(NOW),
  application: { id: "0123456789abcdef", name: "Production" },
  destinationLabel: "On-call",
  consoleUrl: "https://console.example/alerts",
});
const summaryFiring = summaryMessage(
  summary,
  { webhooks: items.slice(0, 5), added: [], hubFailing: false },
  CONTEXT,
  NOW,
);
const summaryUpdate = summaryMessage(
  summary,
  { webhooks: items, added: [items[5]!], hubFailing: false },
  CONTEXT,
  NOW,
  1,
);

const LINK = "https://console.example/webhooks/wh-1?app=0123456789abcdef";

describe("PagerDuty (Events API v2)", () => {
  it("triggers with the incident's id as dedup_key, every field PagerDuty needs, and a link back", () => {
    const event = renderPagerDuty(firing, KEY);
    expect(event).toEqual({
      routing_key: KEY,
      event_action: "trigger",
      dedup_key: "0b7e5a4c-1111-4a5b-9c1d-2e3f4a5b6c7d",
      payload: {
        summary: alertTitle(firing),
        source: "acme.example",
        severity: "error",
        timestamp: "2026-11-25T12:00:00.000Z",
        component: HOSTILE,
        group: "Production",
        class: "streak",
        custom_details: expect.objectContaining({
          Application: "Production",
          Webhook: HOSTILE,
          "Failing streak": "7 failures in a row",
          "Likely cause": firing.likelyCause,
          conditions: [
            {
              rule: "Failing streak",
              headline: "7 failures in a row",
              since: "2026-11-25T11:18:00.000Z",
              failures: 7,
              attempts: 7,
              codes: [{ code: 503, count: 7 }],
            },
          ],
          samples: firing.samples,
        }),
      },
      client: "Messaging Hub Webhook Console",
      client_url: LINK,
      links: [{ href: LINK, text: "Open the webhook in the console" }],
    });
  });

  it("pairs trigger, re-trigger and resolve under one dedup_key; the resolve carries nothing else", () => {
    const events = [firing, updated, recovered].map((message) => renderPagerDuty(message, KEY));
    expect(events.map((e) => [e.event_action, e.dedup_key])).toEqual([
      ["trigger", firing.incident!.id],
      ["trigger", firing.incident!.id],
      ["resolve", firing.incident!.id],
    ]);
    expect(events[2]).toEqual({ routing_key: KEY, event_action: "resolve", dedup_key: firing.incident!.id });
    expect(events[1]!.payload!.summary).toMatch(/^Worse: /);
  });

  it.each<[string, string, AlertMessage]>([
    ["a short streak", "error", firing],
    [`a streak of ${CRITICAL_STREAK} or more`, "critical", updated],
    [
      "turned inactive",
      "critical",
      incidentAlert(incident({ conditions: [{ ...streak(0), rule: "inactive" }] }), [], CONTEXT, NOW),
    ],
    [
      "the watch cannot read it",
      "critical",
      incidentAlert(incident({ conditions: [{ ...streak(2), rule: "watchUnreadable" }] }), [], CONTEXT, NOW),
    ],
    [
      "a failure rate",
      "error",
      incidentAlert(incident({ conditions: [{ ...streak(9), rule: "rate" }] }), [], CONTEXT, NOW),
    ],
    ["many webhooks at once", "critical", summaryFiring],
    ["a test", "info", test],
  ])("severity for %s: %s", (_name, severity, message) => {
    expect(pagerDutySeverity(message)).toBe(severity);
    expect(renderPagerDuty(message, KEY).payload?.severity).toBe(severity);
  });

  it("a summary's update triggers the summary's key again, listing every webhook and the added one", () => {
    const event = renderPagerDuty(summaryUpdate, KEY);
    expect(event.dedup_key).toBe(summary.id);
    expect(event.payload!.source).toBe("application Production");
    const details = event.payload!.custom_details as { webhooks: Array<{ name: string }>; added: string[] };
    expect(details.webhooks.map((w) => w.name)).toEqual(items.map((i) => i.webhook.name));
    expect(details.added).toEqual(["Shop 6"]);
  });

  it("a test alert has its own dedup_key, so it never touches a real incident", () => {
    expect(renderPagerDuty(test, KEY)).toMatchObject({ event_action: "trigger", dedup_key: "test_1" });
  });
});

describe("Microsoft Teams (Workflows)", () => {
  it("is a message holding one Adaptive Card 1.4 with the title, the facts, the samples and a button back", () => {
    const message = renderTeams(firing);
    expect(message).toEqual({
      type: "message",
      attachments: [
        {
          contentType: ADAPTIVE_CARD_CONTENT_TYPE,
          contentUrl: null,
          content: {
            $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
            type: "AdaptiveCard",
            version: "1.4",
            msteams: { width: "Full" },
            body: expect.any(Array),
            actions: [{ type: "Action.OpenUrl", title: "Open in the console", url: LINK }],
          },
        },
      ],
    });
    const [title, facts, ...rest] = message.attachments[0]!.content.body;
    expect(title).toMatchObject({ type: "TextBlock", weight: "Bolder", color: "Attention", wrap: true });
    expect(facts).toMatchObject({ type: "FactSet" });
    expect((facts as { facts: Array<{ title: string }> }).facts.map((f) => f.title)).toEqual(
      expect.arrayContaining([
        "Application",
        "Webhook",
        "Since",
        "Failures",
        "Codes",
        "Failing streak",
        "Likely cause",
      ]),
    );
    expect(rest).toContainEqual({
      type: "RichTextBlock",
      inlines: [{ type: "TextRun", text: HOSTILE_BODY, fontType: "Monospace" }],
    });
  });

  it("escapes the markdown Teams reads in the title and facts; the sample stays a plain TextRun", () => {
    const card = renderTeams(firing).attachments[0]!.content;
    const title = (card.body[0] as { text: string }).text;
    expect(title).toContain("Acme \\[click\\](https://evil.example) \\*\\*bold\\*\\*");
    expect(title).not.toMatch(/(?<!\\)\[click(?<!\\)\]/);
    const webhookFact = (card.body[1] as { facts: Array<{ title: string; value: string }> }).facts.find(
      (f) => f.title === "Webhook",
    );
    expect(webhookFact!.value).toBe(
      "Acme \\[click\\](https://evil.example) \\*\\*bold\\*\\* @everyone @here <@123> <@&456> \\`x\\`",
    );
  });

  it.each<[string, AlertMessage, string]>([
    ["firing", firing, "Attention"],
    ["updated", updated, "Warning"],
    ["recovered", recovered, "Good"],
    ["test", test, "Accent"],
  ])("colours the %s title", (_kind, message, colour) => {
    expect(renderTeams(message).attachments[0]!.content.body[0]).toMatchObject({ color: colour });
  });

  it("a summary lists its webhooks, each linking to its page; its update names only the added ones", () => {
    const names = (message: AlertMessage) =>
      renderTeams(message)
        .attachments[0]!.content.body.filter((block) => block.type === "RichTextBlock")
        .map(
          (block) =>
            (block as { inlines: Array<{ text: string; selectAction?: { url: string } }> }).inlines[0]!,
        );
    expect(names(summaryFiring).map((run) => run.text)).toEqual([
      "Shop 1",
      "Shop 2",
      "Shop 3",
      "Shop 4",
      "Shop 5",
    ]);
    expect(names(summaryFiring)[0]!.selectAction).toEqual({ type: "Action.OpenUrl", url: items[0]!.link });
    expect(names(summaryUpdate).map((run) => run.text)).toEqual(["Shop 6"]);
  });
});

describe("Discord", () => {
  it("is one embed (title, description, colour, fields, url, timestamp) that pings nobody", () => {
    const payload = renderDiscord(firing);
    expect(payload).toEqual({
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: expect.stringMatching(/^Failing: /),
          description: "7 failures in a row",
          url: LINK,
          color: DISCORD_COLOURS.firing,
          timestamp: "2026-11-25T12:00:00.000Z",
          fields: expect.any(Array),
          footer: { text: `Incident ${firing.incident!.id}` },
        },
      ],
    });
    const [embed] = payload.embeds;
    expect(embed.fields.map((f) => f.name)).toEqual(
      expect.arrayContaining([
        "Application",
        "Webhook",
        "Codes",
        "Failing streak",
        "503 at 2026-11-25T11:58:00.000Z",
      ]),
    );
    for (const field of embed.fields) {
      expect(field.name.length).toBeGreaterThan(0);
      expect(field.value.length).toBeGreaterThan(0);
      expect(typeof field.inline).toBe("boolean");
    }
  });

  it("neutralises @everyone, @here and <@…> mentions and escapes markdown, in names and bodies alike", () => {
    const json = JSON.stringify(renderDiscord(firing));
    expect(json).not.toMatch(/@(everyone|here)/);
    expect(json).not.toMatch(/<@/);
    expect(json).toContain("@\u200beveryone");
    expect(json).toContain("\\\\[click\\\\](https://evil.example)");
    // The sample is one code block no backtick in the body can close early.
    const sample = renderDiscord(firing).embeds[0].fields.find((f) => f.name.startsWith("503 at"))!;
    expect(sample.value.match(/```/g)).toHaveLength(2);
  });

  it.each<[string, AlertMessage, number]>([
    ["firing", firing, DISCORD_COLOURS.firing],
    ["updated", updated, DISCORD_COLOURS.updated],
    ["recovered", recovered, DISCORD_COLOURS.recovered],
    ["test", test, DISCORD_COLOURS.test],
  ])("colours the %s embed", (_kind, message, colour) => {
    expect(renderDiscord(message).embeds[0].color).toBe(colour);
  });

  it("a summary's update names the added webhooks, each a link to its page", () => {
    const fields = renderDiscord(summaryUpdate).embeds[0].fields;
    expect(fields).toContainEqual({
      name: "Shop 6",
      value: `[4 failures](${items[5]!.link}), last 503`,
      inline: false,
    });
    expect(fields.map((f) => f.name)).not.toContain("Shop 1");
  });

  it("stays within Discord's limits when everything is long", () => {
    const long = "y".repeat(5000);
    const message = incidentAlert(
      incident({
        webhook: { id: "wh-1", name: long, endpoint: "https://acme.example" },
        conditions: [{ ...streak(7), headline: long }],
      }),
      [1, 2, 3].map((n) => ({ ...samples[0]!, logId: `l${n}`, body: long })),
      CONTEXT,
      NOW,
    );
    const [embed] = renderDiscord(message).embeds;
    expect(embed.title.length).toBeLessThanOrEqual(DISCORD_LIMITS.title);
    expect(embed.description.length).toBeLessThanOrEqual(DISCORD_LIMITS.description);
    expect(embed.fields.length).toBeLessThanOrEqual(DISCORD_LIMITS.fields);
    for (const field of embed.fields)
      expect(field.value.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldValue);
    const total =
      embed.title.length +
      embed.description.length +
      embed.footer.text.length +
      embed.fields.reduce((sum, f) => sum + f.name.length + f.value.length, 0);
    expect(total).toBeLessThanOrEqual(DISCORD_LIMITS.total);
  });
});
