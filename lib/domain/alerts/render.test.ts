/**
 * Rendering one alert for each destination: the facts every alert must carry (what, since when,
 * likely cause, the customer's fix, a link back), and text from outside (names, endpoints,
 * response bodies) staying text in Slack's mrkdwn and in the email's HTML.
 */
import { describe, expect, it } from "vitest";
import {
  alertTitle,
  sampleBody,
  SAMPLE_BODY_MAX,
  testAlert,
  type AlertMessage,
} from "@/lib/domain/alerts/message";
import { renderEmail } from "@/lib/domain/alerts/render-email";
import { renderJson } from "@/lib/domain/alerts/render-json";
import { renderSlack } from "@/lib/domain/alerts/render-slack";

const HOSTILE = `Acme <!channel> <script>alert(1)</script> & <https://evil.example|click here>`;
const HOSTILE_BODY = "```\n<img src=x onerror=alert(1)> <@U123> &amp;";

function firing(overrides: Partial<AlertMessage> = {}): AlertMessage {
  return {
    version: 2,
    idempotencyKey: "inc_0b7e5a4c.firing",
    kind: "firing",
    at: "2026-11-25T10:00:00.000Z",
    incident: { id: "inc_0b7e5a4c", scope: "webhook", openedAt: "2026-11-25T09:21:00.000Z" },
    conditions: [
      {
        rule: { id: "streak", name: "Failing streak" },
        headline: "7 failures in a row",
        since: "2026-11-25T09:20:00.000Z",
        counts: { failures: 7, attempts: 7 },
        codes: [{ code: 500, count: 7 }],
      },
    ],
    application: { id: "0123456789abcdef", name: "Production" },
    webhook: {
      id: "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d",
      name: HOSTILE,
      endpoint: "https://acme.example/hooks",
    },
    webhooks: [],
    added: [],
    counts: { failures: 7, attempts: 9 },
    codes: [
      { code: 500, count: 5 },
      { code: 0, count: 2 },
    ],
    samples: [
      {
        logId: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
        statusCode: 500,
        sentAt: "2026-11-25T09:58:00.000Z",
        body: HOSTILE_BODY,
      },
    ],
    since: "2026-11-25T09:20:00.000Z",
    headline: "7 failures in a row",
    likelyCause: "The customer's server fails while handling the event (500).",
    customerFix: "Check the endpoint's error logs at the times shown and fix the handler.",
    links: {
      console: "https://console.example/overview",
      webhook: "https://console.example/webhooks/0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d",
    },
    ...overrides,
  };
}

describe("Slack", () => {
  it("leads with a title, and carries the facts, cause, fix and a button back to the console", () => {
    const { text, blocks } = renderSlack(
      firing({ webhook: { id: "w", name: "Acme orders", endpoint: "https://acme.example/hooks" } }),
    );
    expect(text).toBe("Failing: Acme orders — 7 failures in a row");
    const all = JSON.stringify(blocks);
    for (const part of [
      "*Application:* Production",
      "*Since:* 2026-11-25T09:20:00.000Z",
      "*Failures:* 7 of 9 attempts",
      "*Codes:* 500 ×5, 0 (no connection) ×2",
      "*Failing streak:* 7 failures in a row",
      "*Likely cause:* The customer's server fails",
      "*What the customer must fix:* Check the endpoint's error logs",
    ]) {
      expect(all).toContain(part);
    }
    expect(blocks).toContainEqual({
      type: "actions",
      elements: [
        expect.objectContaining({
          url: "https://console.example/webhooks/0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d",
        }),
      ],
    });
    expect(blocks[0]).toEqual({ type: "header", text: { type: "plain_text", text, emoji: false } });
  });

  it("escapes mentions, links and markup from outside, and no backtick closes the sample's code block", () => {
    const { text, blocks } = renderSlack(firing());
    const mrkdwn = [text, ...blocks.slice(1).map((block) => JSON.stringify(block))].join("\n");
    expect(mrkdwn).not.toContain("<!channel>");
    expect(mrkdwn).not.toContain("<https://evil.example|click here>");
    expect(mrkdwn).not.toContain("<@U123>");
    expect(mrkdwn).toContain("&lt;!channel&gt;");
    expect(mrkdwn).toContain(
      "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;https://evil.example|click here&gt;",
    );
    const sample = JSON.stringify(blocks.find((block) => JSON.stringify(block).includes("onerror")));
    expect(sample.match(/```/g)).toHaveLength(2);
    expect(sample).toContain("&amp;amp;");
  });
});

describe("a summary's update", () => {
  const item = (n: number) => ({
    webhook: { id: `w${n}`, name: `Shop ${n}`, endpoint: `https://shop${n}.example/hook` },
    failures: 5,
    lastStatusCode: 503,
    link: `https://console.example/webhooks/w${n}`,
  });
  const update = firing({
    kind: "updated",
    idempotencyKey: "inc_s.updated.1",
    incident: { id: "inc_s", scope: "summary", openedAt: "2026-11-25T09:21:00.000Z" },
    conditions: [],
    webhook: null,
    webhooks: [1, 2, 3, 4, 5, 6, 7].map(item),
    added: [item(6), item(7)],
    headline: "7 webhooks failing at once",
    samples: [],
  });

  // Slack and email cannot edit the first message: the update is one follow-up naming only the added webhooks.
  it.each([
    ["Slack", JSON.stringify(renderSlack(update))],
    ["email", renderEmail(update).text],
  ])("to %s, a follow-up that names the webhooks added", (_to, text) => {
    expect(text).toContain("More webhooks failing: Production — 7 webhooks failing at once");
    expect(text).toContain("Shop 6");
    expect(text).toContain("Shop 7");
    expect(text).not.toContain("Shop 1");
  });

  it("to a signed JSON webhook, the same incident's id with every webhook and the added ones", () => {
    const payload = renderJson(update);
    expect(payload.type).toBe("alert.updated");
    expect(payload.data.incident!.id).toBe("inc_s");
    expect(payload.data.webhooks).toHaveLength(7);
    expect(payload.data.added.map((a) => a.webhook.id)).toEqual(["w6", "w7"]);
  });
});

describe("counts", () => {
  it("say one in the singular in every destination", () => {
    const one = firing({
      counts: { failures: 1, attempts: 1 },
      webhooks: [
        {
          webhook: { id: "w", name: "Acme", endpoint: "https://acme.example" },
          failures: 1,
          lastStatusCode: 500,
          link: "https://console.example/w",
        },
      ],
    });
    const slack = JSON.stringify(renderSlack(one));
    const email = renderEmail(one);
    for (const text of [slack, email.text, email.html]) {
      expect(text).toContain("1 of 1 attempt");
      expect(text).toContain("1 failure");
      expect(text).not.toMatch(/\b1 (?:attempts|failures)\b/);
    }
  });
});

describe("email", () => {
  it("says the same in text and HTML, with the hostile name and body shown as text", () => {
    const email = renderEmail(firing());
    expect(email.subject).toBe(alertTitle(firing()));
    expect(email.text).toContain(`Webhook: ${HOSTILE}`);
    expect(email.text).toContain(HOSTILE_BODY);
    expect(email.text).toContain("Open in the console: https://console.example/webhooks/");
    expect(email.html).not.toMatch(/<script|<img|<!channel/);
    expect(email.html).toContain(
      "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;https://evil.example|click here&gt;",
    );
    expect(email.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(email.html).toContain(
      '<a href="https://console.example/webhooks/0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d">',
    );
  });

  it("keeps line breaks out of the subject", () => {
    const email = renderEmail(firing({ headline: "two\r\nlines\nBcc: victim@example.com" }));
    expect(email.subject).not.toMatch(/[\r\n]/);
  });
});

describe("JSON", () => {
  it("is the Standard Webhooks envelope with the message as data", () => {
    const message = firing();
    const payload = renderJson(message);
    expect(payload).toEqual({ type: "alert.firing", timestamp: message.at, data: message });
    expect(JSON.parse(JSON.stringify(payload))).toEqual(payload);
  });
});

describe("the test alert", () => {
  it("is shaped like a real one, marked test, and says nothing is failing", () => {
    const message = testAlert({
      idempotencyKey: "test_1",
      at: new Date("2026-11-25T10:00:00Z"),
      application: { id: "0123456789abcdef", name: "Production" },
      destinationLabel: "On-call",
      consoleUrl: "https://console.example/alerts",
    });
    expect(renderJson(message).type).toBe("alert.test");
    expect(alertTitle(message)).toBe('Test alert: Production — "On-call" receives the console\'s alerts');
    expect(renderEmail(message).text).toContain("Likely cause: Nothing is failing");
  });

  it("cuts a long sample body and says so", () => {
    expect(sampleBody("y".repeat(SAMPLE_BODY_MAX + 10))).toBe(`${"y".repeat(SAMPLE_BODY_MAX)}… (cut)`);
  });
});
