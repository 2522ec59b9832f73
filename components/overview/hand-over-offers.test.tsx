import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { HandOverPlan } from "@/lib/domain/watch/hand-over";
import { LoginForm } from "@/components/login/login-form";
import { fakeApi, fieldRefusal, type ApiAnswer } from "@/tests/support/component-api";

const KEY = "mh_live_0123456789abcdef";
const FROM = "0123456789abcdef";

const PLAN: HandOverPlan = {
  from: FROM,
  rejectedAt: "2026-11-25T12:00:00.000Z",
  watches: [{ webhookId: "a", name: "Acme" }],
  destinations: [
    {
      id: "d-team",
      label: "Team",
      kind: "email",
      target: "t•••@example.com",
      createdAt: "2026-11-01T09:00:00.000Z",
    },
    {
      id: "d-planted",
      label: "Planted",
      kind: "slack",
      target: "https://hooks.slack.com/…/••••beef",
      createdAt: "2026-11-25T11:58:00.000Z",
    },
  ],
  rules: { defaults: true, webhooks: [] },
  snoozes: [],
  quietHours: [
    { webhookId: "a", name: "Acme", quietHours: { start: "22:00", end: "07:00", zone: "Europe/Berlin" } },
  ],
};

let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;

beforeEach(() => {
  assign = vi.fn<(url: string | URL) => void>();
  vi.spyOn(window.location, "assign").mockImplementation(assign);
});

/** Signs in with KEY; the sign-in answers that the key may take over PLAN; then `carry` answers the choice. */
async function signedInWithOffer(carry: ApiAnswer = { status: 200, body: { carried: PLAN } }) {
  const calls = fakeApi((call) =>
    call.path === "/api/session"
      ? { status: 200, body: { signedIn: true, keyHint: "cdef", handOver: [PLAN] } }
      : carry,
  );
  const user = userEvent.setup();
  render(<LoginForm next="/overview" sandboxMode={false} />);
  await user.type(screen.getByLabelText("API key"), KEY);
  await user.click(screen.getByRole("button", { name: "Sign in" }));
  const destinations = await screen.findByRole("group", { name: "Alert destinations to keep" });
  return { calls, user, destinations };
}

describe("signing in with a key that takes over an application's watches", () => {
  it("lists everything it would carry before anything moves, each destination ticked, and says unticked ones are removed", async () => {
    const { calls, destinations } = await signedInWithOffer();
    expect(screen.getByText('Watches: 1 webhook: "Acme", with their names and history.')).toBeInTheDocument();
    expect(screen.getByText("Alert rules: the application's own default rules.")).toBeInTheDocument();
    expect(screen.getByText("Snoozes: none.")).toBeInTheDocument();
    expect(screen.getByText('Quiet hours: "Acme" 22:00–07:00 (Europe/Berlin).')).toBeInTheDocument();
    expect(within(destinations).getByRole("checkbox", { name: /^Team/ })).toBeChecked();
    expect(within(destinations).getByRole("checkbox", { name: /^Planted.*hooks\.slack\.com/ })).toBeChecked();
    expect(destinations).toHaveAccessibleDescription(
      expect.stringMatching(/Unticked destinations are removed/),
    );
    expect(calls.map((call) => call.path)).toEqual(["/api/session"]);
    expect(assign).not.toHaveBeenCalled();
  });

  it("carries only the destinations kept, then goes on to the page asked for", async () => {
    const { calls, user, destinations } = await signedInWithOffer();
    await user.click(within(destinations).getByRole("checkbox", { name: /^Planted/ }));
    await user.click(screen.getByRole("button", { name: "Carry over to this key" }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith("/overview"));
    expect(calls[1]).toEqual({
      method: "POST",
      path: "/api/watches/hand-over",
      body: { from: FROM, keepDestinations: ["d-team"] },
    });
  });

  it("Not now carries nothing and goes on", async () => {
    const { calls, user } = await signedInWithOffer();
    await user.click(screen.getByRole("button", { name: "Not now" }));
    expect(assign).toHaveBeenCalledWith("/overview");
    expect(calls).toHaveLength(1);
  });

  it("a refusal stays on the list and says why, by the field's label", async () => {
    const message =
      "Alert destinations to keep: one of them is not among the application's destinations any more.";
    const { user } = await signedInWithOffer(fieldRefusal({ keepDestinations: message }));
    await user.click(screen.getByRole("button", { name: "Carry over to this key" }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });
});
