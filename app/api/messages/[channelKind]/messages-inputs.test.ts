/**
 * `POST /api/messages/{channelKind}` parses with the send form's own schema: IDs in any case,
 * caps refused (never cut), and 400s that name the form's fields by their labels.
 */
import { describe, expect, it } from "vitest";
import { fakeWebhook, sendJson } from "@/tests/support/fake-upstream";
import { request, errorOf, ctx, fakeHubForRoutes, signedInCookie } from "@/tests/support/route-requests";
import * as messagesRoute from "@/app/api/messages/[channelKind]/route";

const KEY = "messages-route-key-0123456789ab";
const CHANNEL = "3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b";

const fake = fakeHubForRoutes((req, res) =>
  req.url?.includes("/communication/")
    ? sendJson(res, 200, { id: CHANNEL })
    : sendJson(res, 200, fakeWebhook()),
);

async function send(channelKind: string, body: unknown) {
  const cookie = await signedInCookie(KEY);
  fake.requests.length = 0;
  return messagesRoute.POST(
    request("POST", `/api/messages/${encodeURIComponent(channelKind)}`, { body, cookie }),
    ctx({ channelKind }),
  );
}

describe("POST /api/messages/{channelKind}", () => {
  it("takes the channel ID in any case, with spaces, and sends it lowercase", async () => {
    const response = await send(" whatsapp ", {
      from: ` ${CHANNEL.toUpperCase()} `,
      to: " 5511999990000 ",
      content: { text: "hi" },
    });
    expect(response.status).toBe(202);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.url).toContain("/communication/whatsapp/message");
    expect(JSON.parse(fake.requests[0]!.body)).toEqual({
      from: CHANNEL,
      to: "5511999990000",
      content: { text: "hi" },
    });
  });

  it("refuses text over 4,096 characters whole, saying so, and sends nothing", async () => {
    const response = await send("whatsapp", { from: CHANNEL, to: "55", content: { text: "x".repeat(4097) } });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.message).toBe("Text: shorten it to 4,096 characters or fewer (it has 4,097).");
    expect(error.fields).toEqual({ "content.text": [error.message] });
    expect(fake.requests).toHaveLength(0);
  });

  it("names every field by its label, not by its JSON name", async () => {
    const response = await send("WhatsApp", { from: "nope", to: "", content: { text: " " } });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.message).toMatch(/^Channel kind: use lowercase letters/);
    expect(error.message).not.toMatch(/not valid|content\.text|channelKind/);
    const body = await send("whatsapp", { from: "nope", to: "", content: { text: " " } });
    const fields = (await errorOf(body)).fields!;
    expect(fields.from![0]).toMatch(/^From \(channel ID\): enter a UUID/);
    expect(fields.to).toEqual(["To: enter the recipient."]);
    expect(fields["content.text"]).toEqual(["Text: enter the text of the message."]);
    expect(fake.requests).toHaveLength(0);
  });
});
