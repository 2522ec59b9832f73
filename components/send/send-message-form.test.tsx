import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { SendMessageForm } from "@/components/send/send-message-form";
import { fakeApi, renderWithQueries, type ApiCall } from "@/tests/support/component-api";

const WEBHOOK = "0b7e5a4c-8f0e-4a5b-9c1d-2e3f4a5b6c7d";
const CHANNEL = "3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a7b";
/** The hub's refusal of a channel of another kind, as the console passes it on. */
const REFUSED = `The Messaging Hub has no sms channel ${CHANNEL} for this key.`;

/** A page of the webhook's log, newest first. */
function logPage(data: unknown[]) {
  return { status: 200, body: { data, pagination: { offset: 0, limit: 50, total: data.length } } };
}

/** The form on a webhook's page, with an API that lists no logs and refuses every send as the hub does (unless `answer` says otherwise). */
function setUp(
  answer: (call: ApiCall) => { status: number; body?: unknown } = (call) =>
    call.path.startsWith("/api/messages/")
      ? { status: 404, body: { error: { code: "not_found", message: REFUSED } } }
      : logPage([]),
) {
  const calls = fakeApi(answer);
  const onLanded = vi.fn();
  renderWithQueries(
    <SendMessageForm
      webhookId={WEBHOOK}
      webhookActive
      demoChannels={[]}
      onSent={() => undefined}
      onLanded={onLanded}
      onShowDelivery={() => undefined}
    />,
  );
  const form = screen.getByRole("form");
  const field = (label: string) => within(form).getByLabelText(label, { exact: true });
  const user = userEvent.setup();
  /** Replaces a field's value as a person does: select all, then type (an empty value clears it). */
  const fill = async (label: string, value: string) => {
    await user.clear(field(label));
    if (value) await user.type(field(label), value);
  };
  const send = () => user.click(within(form).getByRole("button", { name: "Send test message" }));
  const sends = () => calls.filter((call) => call.path.startsWith("/api/messages/"));
  return { form, field, fill, send, sends, user, onLanded };
}

describe("SendMessageForm", () => {
  it("refuses bad fields by their labels in the browser, focuses the first, and sends nothing", async () => {
    const { form, field, fill, send, sends } = setUp();
    await fill("Channel kind", "WhatsApp");
    await fill("From (channel ID)", "channel-1");
    await fill("To", "");
    await send();
    expect(
      within(form).getByText("Channel kind: use lowercase letters, digits or dashes", { exact: false }),
    ).toBeTruthy();
    expect(within(form).getByText("From (channel ID): enter a UUID", { exact: false })).toBeTruthy();
    expect(within(form).getByText("Enter the recipient.", { exact: false })).toBeTruthy();
    expect(document.activeElement).toBe(field("Channel kind"));
    expect(field("From (channel ID)").getAttribute("aria-invalid")).toBe("true");
    expect(sends()).toEqual([]);
  });

  it("shows the hub's refusal as Not sent; a later refusal of its own replaces it", async () => {
    const { form, fill, send, sends } = setUp();
    await fill("Channel kind", "sms");
    await fill("From (channel ID)", CHANNEL);
    await fill("To", "5511999990002");
    await send();
    const status = screen.getByRole("status");
    expect(await within(status).findByText("Not sent")).toBeTruthy();
    expect(status.textContent).toContain(CHANNEL);
    expect(sends()).toHaveLength(1);
    expect(sends()[0]).toMatchObject({
      method: "POST",
      path: "/api/messages/sms",
      body: { from: CHANNEL, to: "5511999990002" },
    });

    // The hub's answer was about the earlier values: once the form fails its own check, it goes.
    await fill("To", "");
    await send();
    expect(within(form).getByText("Enter the recipient.", { exact: false })).toBeTruthy();
    expect(status.textContent).not.toContain("Not sent");
    expect(sends()).toHaveLength(1);
  });

  it("keeps text over 4,096 characters as typed, refuses it with the cap by its label, and sends nothing", async () => {
    const { field, fill, send, sends, user } = setUp();
    const text = field("Text");
    expect(text).toHaveAccessibleDescription(/Up to 4,096 characters\./);
    await fill("Channel kind", "whatsapp");
    await fill("From (channel ID)", CHANNEL);
    await fill("To", "5511999990003");
    // Pasted, as a text this long would be.
    await user.clear(text);
    await user.paste("x".repeat(4097));
    expect(text).toHaveValue("x".repeat(4097));
    await send();
    expect(text).toHaveAccessibleDescription(
      /^Text: shorten it to 4,096 characters or fewer \(it has 4,097\)\./,
    );
    expect(document.activeElement).toBe(text);
    expect(sends()).toEqual([]);
  });

  it("follows a sent message until its delivery is in the log, announces it and hands it on to be highlighted", async () => {
    const messageId = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
    const delivery = {
      id: "5f4e3d2c-1b0a-4f9e-8d7c-6b5a4f3e2d1c",
      webhookId: WEBHOOK,
      statusCode: 500,
      responseBody: "boom",
      status: "Failed",
      sendAt: "2026-11-26T00:18:51.000Z",
      createdDate: "2026-11-26T00:18:51.000Z",
      messageId,
      webhook: { id: WEBHOOK },
    };
    let sent = false;
    const { fill, send, onLanded } = setUp((call) => {
      if (call.path.startsWith("/api/messages/")) {
        sent = true;
        return { status: 200, body: { messageId, answer: { id: messageId } } };
      }
      return logPage(sent ? [delivery] : []);
    });
    await fill("Channel kind", "whatsapp");
    await fill("From (channel ID)", CHANNEL);
    await fill("To", "5511999990001");
    await send();
    const status = screen.getByRole("status");
    expect(await within(status).findByText("Its delivery has landed", { exact: false })).toBeTruthy();
    expect(status.textContent).toContain("HTTP 500");
    expect(onLanded).toHaveBeenCalledWith([expect.objectContaining({ id: delivery.id })]);
  });
});
