import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { DestinationForm } from "@/components/alerts/destination-form";
import { SANDBOX_INBOX_SIGNING_SECRET } from "@/lib/domain/alerts/sandbox-inbox";
import { fakeApi, fieldRefusal, renderWithQueries, type ApiAnswer } from "@/tests/support/component-api";

const SLACK = "https://hooks.slack.com/services/T000/B000/XXXX";

/** Types `value` as a paste (an empty value leaves the field as it is). */
async function typeInto(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, value: string) {
  if (!value) return;
  await user.click(field);
  await user.paste(value);
}

function setUp(answer: ApiAnswer = { status: 201, body: {} }, sandboxInbox: string | null = null) {
  const calls = fakeApi(() => answer);
  renderWithQueries(<DestinationForm sandboxInbox={sandboxInbox} />);
  const form = screen.getByRole("form", { name: "Add destination" });
  const field = (label: string) => within(form).getByLabelText(label, { exact: true });
  return { calls, form, field, user: userEvent.setup() };
}

describe("DestinationForm", () => {
  it.each([
    {
      kind: "Slack incoming webhook",
      typed: { Name: "" },
      label: "Name",
      message: "Name: give the destination a name, e.g. On-call Slack.",
    },
    {
      kind: "Slack incoming webhook",
      typed: { Name: "n".repeat(81), "Slack webhook URL": SLACK },
      label: "Name",
      message: "Name: shorten it to 80 characters or fewer (it has 81).",
    },
    {
      kind: "Signed JSON webhook",
      typed: { Name: "Typo", "Webhook URL": "alerts.example.com/hook" },
      label: "Webhook URL",
      message: "Webhook URL: enter a whole https:// address, e.g. https://alerts.example.com/hooks/console.",
    },
    {
      kind: "Signed JSON webhook",
      typed: { Name: "Ops", "Webhook URL": "https://alerts.example.com/h", "Signing secret": "hunter2" },
      label: "Signing secret",
      message: "Signing secret: paste a secret starting with whsec_",
    },
    {
      kind: "Email",
      typed: { Name: "Ops", "Email address": "oncall" },
      label: "Email address",
      message: "Email address: enter one address like oncall@example.com.",
    },
  ])(
    "$kind: $label is refused by its label, what was typed stays, and nothing is sent",
    async ({ kind, typed, label, message }) => {
      const { calls, form, field, user } = setUp();
      await user.selectOptions(field("Kind"), kind);
      for (const [name, value] of Object.entries(typed)) await typeInto(user, field(name), value);
      await user.click(within(form).getByRole("button", { name: "Add destination" }));
      expect(field(label)).toHaveAttribute("aria-invalid", "true");
      expect(field(label)).toHaveAccessibleDescription(expect.stringContaining(message));
      expect(field("Name")).toHaveValue(typed.Name);
      expect(calls).toEqual([]);
    },
  );

  it("every field says its cap before anything is typed", () => {
    const { field } = setUp();
    expect(field("Name")).toHaveAccessibleDescription(expect.stringContaining("Up to 80 characters."));
    expect(field("Slack webhook URL")).toHaveAccessibleDescription(
      expect.stringContaining("Up to 2,048 characters."),
    );
  });

  it("shows the server's refusal beside the field it names, and a new kind clears it", async () => {
    const taken = 'Name: this application already has a destination named "Ops".';
    const { calls, field, user } = setUp(fieldRefusal({ label: taken }));
    await typeInto(user, field("Name"), "Ops");
    await typeInto(user, field("Slack webhook URL"), SLACK);
    await user.click(screen.getByRole("button", { name: "Add destination" }));
    expect(calls).toEqual([
      { method: "POST", path: "/api/alerts/destinations", body: { kind: "slack", label: "Ops", url: SLACK } },
    ]);
    await screen.findByText(taken);
    expect(field("Name")).toHaveAccessibleDescription(expect.stringContaining(taken));
    expect(screen.queryByText("The destination was not added")).not.toBeInTheDocument();

    await user.selectOptions(field("Kind"), "Email");
    expect(screen.queryByText(taken)).not.toBeInTheDocument();
    expect(field("Email address")).toBeInTheDocument();
  });

  it("a refusal without fields is said for the whole form", async () => {
    const { field, user } = setUp({
      status: 502,
      body: {
        error: { code: "upstream_error", message: "The store is not answering. Try again in a moment." },
      },
    });
    await typeInto(user, field("Name"), "Ops");
    await typeInto(user, field("Slack webhook URL"), SLACK);
    await user.click(screen.getByRole("button", { name: "Add destination" }));
    expect(await screen.findByText("The destination was not added")).toBeInTheDocument();
    expect(screen.getByText("The store is not answering. Try again in a moment.")).toBeInTheDocument();
  });

  it("added, shows a generated signing secret once and empties the form", async () => {
    const { field, user } = setUp({
      status: 201,
      body: {
        destination: {
          id: "d1",
          appId: "a1",
          kind: "webhook",
          label: "Ops bridge",
          target: "https://…",
          createdAt: "2026-11-25T12:00:00Z",
        },
        signingSecret: "whsec_c2VjcmV0LXNob3duLW9uY2UtMDEyMzQ1Njc4OQ==",
      },
    });
    await user.selectOptions(field("Kind"), "Signed JSON webhook");
    await typeInto(user, field("Name"), "Ops bridge");
    await typeInto(user, field("Webhook URL"), "https://alerts.example.com/hooks/console");
    await user.click(screen.getByRole("button", { name: "Add destination" }));
    expect(await screen.findByText('Added "Ops bridge"')).toBeInTheDocument();
    expect(screen.getByText("whsec_c2VjcmV0LXNob3duLW9uY2UtMDEyMzQ1Njc4OQ==")).toBeInTheDocument();
    expect(field("Name")).toHaveValue("");
  });

  it("offers the sandbox's inbox in one click only when the console started the sandbox", () => {
    setUp();
    expect(screen.queryByRole("button", { name: "Add the sandbox inbox" })).not.toBeInTheDocument();
  });

  it("Add the sandbox inbox adds its signed webhook with the inbox's secret", async () => {
    const added = {
      destination: {
        id: "d1",
        appId: "a1",
        kind: "webhook",
        label: "Sandbox inbox",
        target: "http://127.0.0.1:4010/…/••••hook",
        createdAt: "2026-11-25T12:00:00Z",
      },
      signingSecret: null,
    };
    const { calls, user } = setUp({ status: 201, body: added }, "http://127.0.0.1:4010/_sandbox/inbox");
    await user.click(screen.getByRole("button", { name: "Add the sandbox inbox" }));
    expect(await screen.findByText('Added "Sandbox inbox"')).toBeInTheDocument();
    expect(calls).toEqual([
      {
        method: "POST",
        path: "/api/alerts/destinations",
        body: {
          kind: "webhook",
          label: "Sandbox inbox",
          url: "http://127.0.0.1:4010/_sandbox/inbox/webhook",
          secret: SANDBOX_INBOX_SIGNING_SECRET,
        },
      },
    ]);
  });
});
