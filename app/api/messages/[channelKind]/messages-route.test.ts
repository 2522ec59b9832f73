/** POST /api/messages/{channelKind}, called directly against a fake hub: what is sent, and the input refused before anything is. */
import { describe, expect, it } from "vitest";
import { sendJson } from "@/tests/support/fake-upstream";
import {
  CHANNEL,
  ctx,
  errorOf,
  fakeHubForRoutes,
  ORIGIN,
  request,
  signedInCookie,
} from "@/tests/support/route-requests";
import * as messagesRoute from "@/app/api/messages/[channelKind]/route";

const upstream = fakeHubForRoutes();

describe("POST /api/messages/{channelKind}", () => {
  const message = { from: CHANNEL, to: "5511999999999", content: { text: "hello" } };

  it("sends the message and answers 202 { messageId, answer }", async () => {
    upstream.handle = (_req, res) =>
      sendJson(res, 201, { messageId: "4f5a6b7c-8d9e-4f0a-8b1c-2d3e4f5a6b7c", status: "queued" });
    const cookie = await signedInCookie();
    const response = await messagesRoute.POST(
      request("POST", "/api/messages/sms", {
        cookie,
        body: { ...message, extra: "dropped", content: { text: "hello", html: "<b>x</b>" } },
        headers: { origin: ORIGIN },
      }),
      ctx({ channelKind: "sms" }),
    );
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({
      messageId: "4f5a6b7c-8d9e-4f0a-8b1c-2d3e4f5a6b7c",
      answer: { messageId: "4f5a6b7c-8d9e-4f0a-8b1c-2d3e4f5a6b7c", status: "queued" },
    });
    const sent = upstream.requests[0]!;
    expect(sent.method).toBe("POST");
    expect(sent.url).toBe("/v1/communication/sms/message");
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(sent.body)).toEqual(message);
  });

  it("maps a 404 from the hub (channel of another application) to 404", async () => {
    upstream.handle = (_req, res) => sendJson(res, 404, {});
    const cookie = await signedInCookie();
    const response = await messagesRoute.POST(
      request("POST", "/api/messages/sms", { cookie, body: message }),
      ctx({ channelKind: "sms" }),
    );
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).toContain(CHANNEL);
  });

  it.each([
    ["upper case", "SMS"],
    ["traversal", ".."],
    ["an encoded slash", "sms%2F..%2Fadmin"],
    ["a slash", "sms/../../v1"],
    ["a full URL", "https://evil.example"],
    ["too long", "a".repeat(33)],
    ["empty", ""],
    ["a leading digit", "1sms"],
  ])("refuses a channel kind that is %s: 400, nothing upstream", async (_name, channelKind) => {
    const cookie = await signedInCookie();
    const response = await messagesRoute.POST(
      request("POST", "/api/messages/x", { cookie, body: message }),
      ctx({ channelKind }),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.channelKind).toBeDefined();
    expect(upstream.requests).toHaveLength(0);
  });

  it.each([
    ["from not a UUID", { ...message, from: "channel-1" }, "from"],
    ["to missing", { from: CHANNEL, content: { text: "x" } }, "to"],
    ["to blank", { ...message, to: "   " }, "to"],
    ["text missing", { ...message, content: {} }, "content.text"],
    ["text too long", { ...message, content: { text: "x".repeat(4097) } }, "content.text"],
  ])("refuses a body with %s: 400 naming the field, nothing upstream", async (_name, body, field) => {
    const cookie = await signedInCookie();
    const response = await messagesRoute.POST(
      request("POST", "/api/messages/sms", { cookie, body }),
      ctx({ channelKind: "sms" }),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).fields?.[field]).toBeDefined();
    expect(upstream.requests).toHaveLength(0);
  });

  it("refuses other content types (415) and bodies over 32 KiB (413) before anything is sent", async () => {
    const cookie = await signedInCookie();
    const plain = await messagesRoute.POST(
      request("POST", "/api/messages/sms", {
        cookie,
        raw: JSON.stringify(message),
        headers: { "content-type": "text/plain" },
      }),
      ctx({ channelKind: "sms" }),
    );
    expect(plain.status).toBe(415);
    const huge = await messagesRoute.POST(
      request("POST", "/api/messages/sms", { cookie, body: { ...message, pad: "x".repeat(33 * 1024) } }),
      ctx({ channelKind: "sms" }),
    );
    expect(huge.status).toBe(413);
    expect(upstream.requests).toHaveLength(0);
  });

  it("is 401 without a session, after checking the input", async () => {
    const response = await messagesRoute.POST(
      request("POST", "/api/messages/sms", { body: message }),
      ctx({ channelKind: "sms" }),
    );
    expect(response.status).toBe(401);
    expect(upstream.requests).toHaveLength(0);
  });
});
