import { describe, expect, it } from "vitest";
import { CHANNEL_KIND_PATTERN, MESSAGE_TEXT_MAX, MESSAGE_TO_MAX } from "@/lib/domain/api-limits";
import { channelKindSchema, sendMessageSchema } from "@/lib/domain/hub-schemas";
import { messageBody, validateMessageForm } from "@/lib/domain/message-rules";

const valid = {
  channelKind: "whatsapp",
  from: "0b7d4c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e",
  to: "5511999999999",
  text: "Hello",
};

describe("validateMessageForm", () => {
  it("accepts a valid form", () => {
    expect(validateMessageForm(valid)).toEqual({});
  });

  it("requires every field", () => {
    expect(
      Object.keys(validateMessageForm({ channelKind: "", from: " ", to: "", text: "  " })).sort(),
    ).toEqual(["channelKind", "from", "text", "to"]);
  });

  it("checks shapes and lengths", () => {
    expect(validateMessageForm({ ...valid, channelKind: "WhatsApp" }).channelKind).toMatch(/lowercase/);
    expect(validateMessageForm({ ...valid, from: "channel-1" }).from).toMatch(/UUID/);
    expect(validateMessageForm({ ...valid, to: "1".repeat(MESSAGE_TO_MAX + 1) }).to).toMatch(/at most/);
    expect(validateMessageForm({ ...valid, text: "x".repeat(MESSAGE_TEXT_MAX + 1) }).text).toMatch(/at most/);
  });

  it("builds the API body with trimmed ids", () => {
    expect(messageBody({ ...valid, from: ` ${valid.from} `, to: " 55 " })).toEqual({
      from: valid.from,
      to: "55",
      content: { text: "Hello" },
    });
  });
});

describe("agreement with the server's schema", () => {
  it("draws the line at the same lengths", () => {
    for (const [to, text] of [
      ["1".repeat(MESSAGE_TO_MAX), "x".repeat(MESSAGE_TEXT_MAX)],
      ["1".repeat(MESSAGE_TO_MAX + 1), "x"],
      ["1", "x".repeat(MESSAGE_TEXT_MAX + 1)],
    ] as const) {
      const form = { ...valid, to, text };
      const browserAccepts = Object.keys(validateMessageForm(form)).length === 0;
      expect(browserAccepts, `${to.length}/${text.length}`).toBe(
        sendMessageSchema.safeParse(messageBody(form)).success,
      );
    }
  });

  it("accepts the same channel kinds", () => {
    const pattern = new RegExp(`^${CHANNEL_KIND_PATTERN}$`);
    for (const kind of [
      "whatsapp",
      "sms",
      "a",
      "web-chat2",
      "A",
      "1sms",
      "-x",
      "x".repeat(33),
      "x".repeat(32),
      "sms_1",
    ]) {
      expect(pattern.test(kind), kind).toBe(channelKindSchema.safeParse(kind).success);
    }
  });
});
