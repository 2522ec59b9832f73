import { describe, expect, it } from "vitest";
import { refusal } from "@/tests/support/input-refusal";
import { signInSchema } from "@/lib/domain/inputs/api-key";
import { addApplicationSchema } from "@/lib/domain/inputs/application";
import { addDestinationSchema } from "@/lib/domain/inputs/alert-destination";
import { issueChangeSchema } from "@/lib/domain/inputs/failure-issue";
import { findInput } from "@/lib/domain/inputs/find-delivery";
import { readTime } from "@/lib/domain/inputs/history-filters";
import { historyQuestionSchema } from "@/lib/domain/inputs/history-question";
import { messageBodySchema, sendMessageFormSchema } from "@/lib/domain/inputs/send-message";
import { logIdInput, webhookIdInput, webhookIdOrLinkInput } from "@/lib/domain/inputs/uuid";

const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
const CHANNEL = "3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b";

describe("IDs in any case, with spaces around them", () => {
  it.each([WEBHOOK.toUpperCase(), `  ${WEBHOOK}\n`, ` ${WEBHOOK.toUpperCase()}\t`, WEBHOOK])(
    "%j is the webhook ID in lowercase",
    (typed) => {
      expect(webhookIdInput.parse(typed)).toBe(WEBHOOK);
      expect(logIdInput.parse(typed)).toBe(WEBHOOK);
      expect(webhookIdOrLinkInput.parse(typed)).toBe(WEBHOOK);
    },
  );

  it("the Open box takes a pasted link in any case", () => {
    expect(
      webhookIdOrLinkInput.parse(`  http://localhost:3000/webhooks/${WEBHOOK.toUpperCase()}?status=Failed `),
    ).toBe(WEBHOOK);
    expect(webhookIdOrLinkInput.parse(`/webhooks/${WEBHOOK}`)).toBe(WEBHOOK);
  });

  it("Find reads an ID or a link to a delivery in any case", () => {
    expect(findInput.parse(` ${CHANNEL.toUpperCase()} `)).toEqual({ kind: "id", id: CHANNEL });
    expect(findInput.parse(`/webhooks/${WEBHOOK.toUpperCase()}?log=${CHANNEL.toUpperCase()}`)).toEqual({
      kind: "log",
      id: CHANNEL,
      webhookId: WEBHOOK,
    });
  });

  it("the send form's channel ID too", () => {
    const form = { channelKind: " whatsapp ", from: ` ${CHANNEL.toUpperCase()} `, to: "55", text: "hi" };
    expect(sendMessageFormSchema.parse(form)).toMatchObject({ channelKind: "whatsapp", from: CHANNEL });
  });

  it.each(["", "   ", "webhook-1", `id=${WEBHOOK}`, `${WEBHOOK}x`])(
    "refuses %j, naming the field",
    (typed) => {
      expect(refusal(webhookIdOrLinkInput, typed)._).toMatch(/^Webhook ID: enter/);
    },
  );
});

describe("caps are in the hint's words and refused, never cut", () => {
  it.each([
    [
      sendMessageFormSchema,
      { channelKind: "sms", from: CHANNEL, to: "55", text: "x".repeat(4097) },
      "text",
      "Text: shorten it to 4,096 characters or fewer (it has 4,097).",
    ],
    [
      sendMessageFormSchema,
      { channelKind: "sms", from: CHANNEL, to: "5".repeat(65), text: "hi" },
      "to",
      "To: shorten it to 64 characters or fewer (it has 65).",
    ],
    [
      sendMessageFormSchema,
      { channelKind: "a".repeat(33), from: CHANNEL, to: "5", text: "hi" },
      "channelKind",
      "Channel kind: shorten it to 32 characters or fewer (it has 33).",
    ],
    [
      historyQuestionSchema,
      { contains: "x".repeat(201) },
      "contains",
      "Response contains: shorten it to 200 characters or fewer (it has 201).",
    ],
    [
      addApplicationSchema,
      { name: "x".repeat(41), apiKey: "a-valid-key-123" },
      "name",
      "Name: shorten it to 40 characters or fewer (it has 41).",
    ],
    [
      signInSchema,
      { apiKey: "k".repeat(513) },
      "apiKey",
      "API key: shorten it to 512 characters or fewer (it has 513).",
    ],
    [
      issueChangeSchema,
      { action: "resolve", name: "n".repeat(81) },
      "name",
      "Your name: shorten it to 80 characters or fewer (it has 81).",
    ],
    [
      issueChangeSchema,
      { action: "acknowledge", name: "Ana", note: "n".repeat(1001) },
      "note",
      "Note: shorten it to 1,000 characters or fewer (it has 1,001).",
    ],
    [
      addDestinationSchema,
      { kind: "slack", label: "l".repeat(81), url: "https://hooks.slack.com/services/T0" },
      "label",
      "Name: shorten it to 80 characters or fewer (it has 81).",
    ],
    [
      addDestinationSchema,
      { kind: "webhook", label: "Hooks", url: `https://alerts.example.com/${"u".repeat(2030)}` },
      "url",
      "Webhook URL: shorten it to 2,048 characters or fewer (it has 2,057).",
    ],
  ] as const)("row %#", (schema, input, field, message) => {
    expect(refusal(schema, input)[field]).toBe(message);
  });

  it("Find refuses more than 2,048 characters", () => {
    expect(refusal(findInput, `/webhooks/${WEBHOOK}?log=${CHANNEL}&x=${"y".repeat(2048)}`)._).toMatch(
      /^Find a delivery: shorten it to 2,048 characters or fewer \(it has 2,1\d\d\)\.$/,
    );
  });

  it("text at the cap is kept whole", () => {
    const text = "x".repeat(4096);
    expect(messageBodySchema.parse({ from: CHANNEL, to: "5", content: { text } }).content.text).toBe(text);
    expect(historyQuestionSchema.parse({ contains: "Y".repeat(200) }).contains).toBe("y".repeat(200));
  });
});

describe("every message names the field by its label and says what to do", () => {
  it.each([
    [signInSchema, {}, "apiKey", "API key: enter your API key."],
    [
      signInSchema,
      { apiKey: "short" },
      "apiKey",
      "API key: enter at least 8 characters: paste the whole key.",
    ],
    [signInSchema, { apiKey: "has a space" }, "apiKey", /^API key: use only printable ASCII/],
    [
      addApplicationSchema,
      { name: " ", apiKey: "a-valid-key-123" },
      "name",
      "Name: give the application a name, e.g. Staging.",
    ],
    [
      sendMessageFormSchema,
      { channelKind: "", from: CHANNEL, to: "5", text: "hi" },
      "channelKind",
      /^Channel kind: enter/,
    ],
    [
      sendMessageFormSchema,
      { channelKind: "WhatsApp!", from: CHANNEL, to: "5", text: "hi" },
      "channelKind",
      /^Channel kind: use lowercase/,
    ],
    [
      sendMessageFormSchema,
      { channelKind: "sms", from: "nope", to: "5", text: "hi" },
      "from",
      /^From \(channel ID\): enter a UUID/,
    ],
    [
      sendMessageFormSchema,
      { channelKind: "sms", from: CHANNEL, to: " ", text: "hi" },
      "to",
      "To: enter the recipient.",
    ],
    [
      sendMessageFormSchema,
      { channelKind: "sms", from: CHANNEL, to: "5", text: "  " },
      "text",
      "Text: enter the text of the message.",
    ],
    [messageBodySchema, { from: CHANNEL, to: "5" }, "content", "Text: enter the text of the message."],
    [historyQuestionSchema, { code: "-1" }, "code", /^HTTP status: enter a code from 0 to 599/],
    [historyQuestionSchema, { since: "yesterday" }, "since", /^Since: enter a date and time/],
    [historyQuestionSchema, { since: "2025-02-30T00:00Z" }, "since", /^Since: enter a date and time/],
    [historyQuestionSchema, { until: "2025-01-31T24:00Z" }, "until", /^Until: enter a date and time/],
    [
      historyQuestionSchema,
      { since: "2025-02-01T00:00:00Z", until: "2025-01-01T00:00:00Z" },
      "since",
      "Since: pick a time before Until.",
    ],
    [historyQuestionSchema, { status: "Pending" }, "status", "Status: choose Success or Failed."],
    [
      findInput,
      "not an id",
      "_",
      /^Find a delivery: this is not an ID or a console link: paste a message ID/,
    ],
    [
      findInput,
      `/webhooks/${WEBHOOK}`,
      "_",
      /^Find a delivery: this links to a webhook, not to one delivery/,
    ],
    [
      findInput,
      `/webhooks/%E0%A4%A?log=${CHANNEL}`,
      "_",
      /^Find a delivery: this link's webhook ID is not a UUID/,
    ],
  ] as const)("row %#", (schema, input, field, message) => {
    const found = refusal(schema, input)[field];
    if (typeof message === "string") expect(found).toBe(message);
    else expect(found).toMatch(message);
  });

  it("never repeats an API key in its message", () => {
    const key = "secret key with spaces";
    expect(JSON.stringify(refusal(signInSchema, { apiKey: key }))).not.toContain(key);
  });
});

describe("readTime", () => {
  it("reads real calendar times, in UTC unless a zone is given", () => {
    expect(readTime("2024-02-29T23:59:59Z")).toBe(Date.parse("2024-02-29T23:59:59Z"));
    expect(readTime("2025-03-01 10:00")).toBe(Date.parse("2025-03-01T10:00:00Z"));
    expect(readTime("2025-03-01T10:00+02:00")).toBe(Date.parse("2025-03-01T08:00:00Z"));
  });

  it("refuses a time that is not on the calendar, rather than rolling it over", () => {
    for (const raw of [
      "2025-02-29T00:00Z",
      "2025-02-30",
      "2025-13-01T00:00Z",
      "2025-01-31T24:00Z",
      "2025-01-01T10:60Z",
    ])
      expect(readTime(raw), raw).toBeNull();
  });
});
