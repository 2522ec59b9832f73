import { describe, expect, it } from "vitest";
import {
  channelKindSchema,
  idSchema,
  sendMessageSchema,
  webhookLogPageSchema,
  webhookLogQuerySchema,
  webhookSchema,
} from "@/lib/domain/hub-schemas";
import { fakeLogPage, fakeWebhook } from "@/tests/support/fake-upstream";

describe("idSchema", () => {
  it.each([
    "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d",
    "00000000-0000-0000-0000-000000000000",
    "0B7E5A4C-8F0E-1A5B-9C1D-2E3F4A5B6C7D",
  ])("accepts %s", (id) => {
    expect(idSchema.safeParse(id).success).toBe(true);
  });
  it.each([
    "",
    "0b7e5a4c8f0e4a5b9c1d2e3f4a5b6c7d",
    "../0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d",
    "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d/x",
    " 0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d",
    "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7g",
  ])("refuses %j", (id) => {
    expect(idSchema.safeParse(id).success).toBe(false);
  });
});

describe("webhookLogQuerySchema", () => {
  it("defaults offset 0 and limit 20, and coerces query strings", () => {
    expect(webhookLogQuerySchema.parse({})).toEqual({ offset: 0, limit: 20 });
    expect(webhookLogQuerySchema.parse({ offset: "40", limit: "50", status: "Success" })).toEqual({
      offset: 40,
      limit: 50,
      status: "Success",
    });
  });
  it.each([
    { limit: "51" },
    { limit: "0" },
    { limit: "-1" },
    { limit: "2.5" },
    { limit: "x" },
    { offset: "-1" },
    { offset: "1e400" },
    { offset: "9007199254740992" },
    { status: "failed" },
    { status: "" },
    { page: "1" },
  ])("refuses %j", (query) => {
    expect(webhookLogQuerySchema.safeParse(query).success).toBe(false);
  });
  it.each([
    [{ offset: "x" }, "offset: give a whole number of 0 or more (how many logs to skip)."],
    [{ offset: "-1" }, "offset: give a whole number of 0 or more (how many logs to skip)."],
    [{ limit: "2.5" }, "limit: give a whole number from 1 to 50 (logs per page)."],
    [{ limit: "51" }, "limit: give a whole number from 1 to 50 (logs per page)."],
    [{ status: "failed" }, "status: give Success or Failed, or leave it out."],
  ])("%j: the message names the parameter and says what to give", (query, message) => {
    expect(webhookLogQuerySchema.safeParse(query).error?.issues[0]?.message).toBe(message);
  });
});

describe("channelKindSchema", () => {
  it.each(["sms", "whatsapp", "rcs", "web-chat", "a", "a".repeat(32)])("accepts %s", (kind) => {
    expect(channelKindSchema.safeParse(kind).success).toBe(true);
  });
  it.each(["", "SMS", "..", ".", "sms/x", "sms%2F", "sms?x", "1sms", "-sms", "a".repeat(33), "sms ", "smś"])(
    "refuses %j",
    (kind) => {
      expect(channelKindSchema.safeParse(kind).success).toBe(false);
    },
  );
});

describe("resource schemas keep unknown fields and check known ones", () => {
  it("webhook", () => {
    expect(webhookSchema.parse(fakeWebhook())).toEqual(fakeWebhook());
    expect(webhookSchema.safeParse({ ...fakeWebhook(), numberOfErrors: -1 }).success).toBe(false);
    expect(webhookSchema.safeParse({ ...fakeWebhook(), numberOfErrors: 1.5 }).success).toBe(false);
    expect(webhookSchema.safeParse({ ...fakeWebhook(), active: "true" }).success).toBe(false);
  });

  it("log page: statusCode 0 allowed, messageId optional or null, status only Success|Failed", () => {
    const page = fakeLogPage();
    expect(webhookLogPageSchema.parse(page)).toEqual(page);
    const log = page.data[0]!;
    const variant = (patch: Record<string, unknown>) =>
      webhookLogPageSchema.safeParse({ ...page, data: [{ ...log, ...patch }] }).success;
    expect(variant({ statusCode: 0 })).toBe(true);
    expect(variant({ messageId: null })).toBe(true);
    expect(variant({ messageId: undefined })).toBe(true);
    expect(variant({ status: "Pending" })).toBe(false);
    expect(variant({ statusCode: -1 })).toBe(false);
    expect(variant({ webhook: { id: "x" } })).toBe(false);
    expect(webhookLogPageSchema.safeParse({ data: [] }).success).toBe(false);
  });
});

describe("sendMessageSchema", () => {
  const ok = { from: "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d", to: "5511999999999", content: { text: "hi" } };
  it("accepts the spec's body and trims `to`", () => {
    expect(sendMessageSchema.parse({ ...ok, to: " 55 " }).to).toBe("55");
  });
  it.each([
    { from: "x" },
    { to: "" },
    { to: "1".repeat(65) },
    { content: { text: "" } },
    { content: { text: " \n\t " } },
    { content: { text: "x".repeat(4097) } },
    { content: "hi" },
  ])("refuses %j", (patch) => {
    expect(sendMessageSchema.safeParse({ ...ok, ...patch }).success).toBe(false);
  });
});
