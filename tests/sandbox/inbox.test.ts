/**
 * The sandbox's alert inbox, against a real sandbox: Slack-shaped posts, signed webhooks checked
 * with the Standard Webhooks reference code (a bad signature is answered 401 and kept, marked),
 * email through its SMTP listener (nodemailer), and the list of what arrived.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import nodemailer from "nodemailer";
import { Webhook } from "standardwebhooks";
import { INBOX_PATH, INBOX_SIGNING_SECRET, type InboxItem } from "@/lib/sandbox/inbox";
import { startSandbox, type Sandbox } from "@/lib/sandbox/server";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dbPath: ":memory:", seed: "none", log: () => {} });
});
afterAll(() => sandbox.close({ graceMs: 0 }));
beforeEach(async () => {
  await fetch(`${sandbox.url}${INBOX_PATH}`, {
    method: "DELETE",
    headers: { "content-type": "application/json" },
  });
});

async function items(): Promise<InboxItem[]> {
  const response = await fetch(`${sandbox.url}${INBOX_PATH}`);
  expect(response.status).toBe(200);
  const answer = (await response.json()) as {
    items: InboxItem[];
    smtp: { port: number };
    signingSecret: string;
  };
  expect(answer.smtp.port).toBe(sandbox.smtpPort);
  expect(answer.signingSecret).toBe(INBOX_SIGNING_SECRET);
  return answer.items;
}

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${sandbox.url}${INBOX_PATH}/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });

describe("the alert inbox", () => {
  it("takes a Slack message as Slack does (200 ok), and refuses one without text", async () => {
    const ok = await post("slack", JSON.stringify({ text: "Failing: Acme", blocks: [{ type: "section" }] }));
    expect([ok.status, await ok.text()]).toEqual([200, "ok"]);
    const bad = await post("slack", JSON.stringify({ blocks: [] }));
    expect(bad.status).toBe(400);
    expect(await items()).toEqual([
      expect.objectContaining({ channel: "slack", title: "Failing: Acme", verified: null }),
    ]);
  });

  it("verifies a signed webhook, and answers a wrong signature 401 while keeping it, marked", async () => {
    const body = JSON.stringify({
      type: "alert.test",
      timestamp: new Date().toISOString(),
      data: { headline: "hello" },
    });
    const at = new Date();
    const sign = (secret: string) => ({
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign("msg_1", at, body),
    });
    const good = await post("webhook", body, sign(INBOX_SIGNING_SECRET));
    expect(good.status).toBe(204);
    const otherSecret = `whsec_${Buffer.from("not the inbox's secret, but well formed").toString("base64")}`;
    const forged = await post("webhook", body, sign(otherSecret));
    expect(forged.status).toBe(401);
    const [newest, oldest] = await items();
    expect(oldest).toMatchObject({
      channel: "webhook",
      verified: true,
      title: "alert.test: hello",
      messageId: "msg_1",
    });
    expect(newest).toMatchObject({ channel: "webhook", verified: false });
    expect(newest!.problem).toMatch(/signature/i);
  });

  it("receives email on its SMTP listener, with the subject decoded", async () => {
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: sandbox.smtpPort,
      secure: false,
    });
    await transport.sendMail({
      from: "alerts@console.test",
      to: "oncall@example.com",
      subject: "Failing: Acme — 5 failures",
      text: "plain",
      html: "<p>html</p>",
    });
    transport.close();
    expect(await items()).toEqual([
      expect.objectContaining({
        channel: "email",
        title: "Failing: Acme — 5 failures",
        from: "alerts@console.test",
        to: ["oncall@example.com"],
      }),
    ]);
  });
});
