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

  it("answers PagerDuty events as the Events API v2 does: 202 with the dedup_key, 400 naming what is invalid", async () => {
    const key = "R0UTINGKEY0123456789abcdefABCDEF";
    const trigger = {
      routing_key: key,
      event_action: "trigger",
      dedup_key: "inc-1",
      payload: { summary: "Failing: Acme", source: "acme.example", severity: "error" },
    };
    const ok = await post("pagerduty", JSON.stringify(trigger));
    expect([ok.status, await ok.json()]).toEqual([
      202,
      { status: "success", message: "Event processed", dedup_key: "inc-1" },
    ]);
    const resolve = await post(
      "pagerduty",
      JSON.stringify({ routing_key: key, event_action: "resolve", dedup_key: "inc-1" }),
    );
    expect(resolve.status).toBe(202);
    const bad = await post(
      "pagerduty",
      JSON.stringify({
        ...trigger,
        routing_key: "short",
        payload: { summary: "", source: "x", severity: "loud" },
      }),
    );
    expect([bad.status, await bad.json()]).toEqual([
      400,
      {
        status: "invalid event",
        message: "Event object is invalid",
        errors: [
          "'routing_key' is invalid",
          "'payload.summary' is missing or invalid",
          "'payload.severity' is missing or invalid",
        ],
      },
    ]);
    expect((await items()).map((item) => [item.channel, item.title, item.messageId])).toEqual([
      ["pagerduty", "resolve: inc-1", "inc-1"],
      ["pagerduty", "trigger: Failing: Acme", "inc-1"],
    ]);
  });

  it("takes a Teams Workflows post holding an Adaptive Card (202), and refuses anything else (400)", async () => {
    const card = {
      type: "message",
      attachments: [
        {
          contentType: "application/vnd.microsoft.card.adaptive",
          content: {
            type: "AdaptiveCard",
            version: "1.4",
            body: [{ type: "TextBlock", text: "Failing: Acme" }],
          },
        },
      ],
    };
    const ok = await post("teams", JSON.stringify(card));
    expect([ok.status, await ok.text()]).toEqual([202, ""]);
    const bad = await post("teams", JSON.stringify({ text: "a connector's MessageCard" }));
    expect(bad.status).toBe(400);
    expect(await items()).toEqual([expect.objectContaining({ channel: "teams", title: "Failing: Acme" })]);
  });

  it("takes a Discord webhook message (204), and refuses an empty one or one past an embed's limits (400)", async () => {
    const ok = await post("discord", JSON.stringify({ embeds: [{ title: "Failing: Acme", fields: [] }] }));
    expect(ok.status).toBe(204);
    const empty = await post("discord", JSON.stringify({ allowed_mentions: { parse: [] } }));
    expect([empty.status, await empty.json()]).toEqual([
      400,
      { code: 50035, message: "Invalid Form Body", errors: { content: "Cannot send an empty message" } },
    ]);
    const long = await post("discord", JSON.stringify({ embeds: [{ title: "t".repeat(257) }] }));
    expect(((await long.json()) as { errors: object }).errors).toEqual({
      "embeds.0.title": "Must be 256 or fewer in length.",
    });
    expect(await items()).toEqual([expect.objectContaining({ channel: "discord", title: "Failing: Acme" })]);
  });

  it("shows each service's page with the posts' text escaped, and whom a Discord message would ping", async () => {
    await post(
      "discord",
      JSON.stringify({
        content: "@everyone look",
        embeds: [{ title: "<img src=x onerror=alert(1)>", url: "javascript:alert(1)" }],
      }),
    );
    const page = await fetch(`${sandbox.url}${INBOX_PATH}/discord`);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
    const html = await page.text();
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("<img");
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain("pings @everyone");
  });
});
