import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { DeliveryView, DestinationView } from "@/lib/domain/alerts/destinations";
import { DestinationList } from "@/components/alerts/destination-list";
import { fakeApi, renderWithQueries, type ApiAnswer, type ApiCall } from "@/tests/support/component-api";

const SLACK: DestinationView = {
  id: "5d1e0c3a-2b4f-4e6a-8c9d-0e1f2a3b4c5d",
  appId: "0123456789abcdef",
  kind: "slack",
  label: "On-call Slack",
  target: "https://hooks.slack.com/…/••••XXXX",
  createdAt: "2026-11-25T12:00:00.000Z",
};

/** The list of one destination; `onDelete` answers its removal. */
async function showList(onDelete: () => ApiAnswer) {
  let removed = false;
  const calls = fakeApi((call: ApiCall) => {
    if (call.method === "DELETE") {
      const answer = onDelete();
      removed = answer.status < 300;
      return answer;
    }
    return { status: 200, body: { destinations: removed ? [] : [SLACK] } };
  });
  renderWithQueries(<DestinationList />);
  const item = await screen.findByRole("listitem", { name: "On-call Slack" });
  const remove = within(item).getByRole("button", { name: /^Remove$/ });
  const question = () => screen.queryByRole("group", { name: /^Remove "On-call Slack"\?/ });
  return { calls, item, remove, question, user: userEvent.setup() };
}

describe("DestinationList's Remove", () => {
  it("asks first; Escape and Cancel keep the destination, and focus returns to Remove", async () => {
    const { calls, remove, question, user } = await showList(() => ({ status: 204 }));
    await user.click(remove);
    expect(remove).toHaveAttribute("aria-expanded", "true");
    expect(within(question()!).getByRole("button", { name: "Cancel" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(question()).toBeNull();
    expect(remove).toHaveFocus();

    await user.click(remove);
    await user.click(within(question()!).getByRole("button", { name: "Cancel" }));
    expect(question()).toBeNull();
    expect(remove).toHaveFocus();
    expect(calls.filter((call) => call.method === "DELETE")).toEqual([]);
  });

  it("removed, the item goes, the status says so, and focus stays in the region", async () => {
    const { calls, remove, question, user } = await showList(() => ({ status: 204 }));
    await user.click(remove);
    await user.click(within(question()!).getByRole("button", { name: "Remove destination" }));
    expect(
      await screen.findByText('Removed "On-call Slack": no alert is sent to it any more.'),
    ).toBeInTheDocument();
    await screen.findByText(/None yet/);
    expect(screen.getByRole("heading", { name: "Destinations" })).toHaveFocus();
    expect(calls).toContainEqual({
      method: "DELETE",
      path: `/api/alerts/destinations/${SLACK.id}`,
      body: undefined,
    });
  });

  it("refused, it stays, the status says why, and focus returns to Remove", async () => {
    const { remove, question, user } = await showList(() => ({
      status: 404,
      body: { error: { code: "not_found", message: "This destination was removed already." } },
    }));
    await user.click(remove);
    await user.click(within(question()!).getByRole("button", { name: "Remove destination" }));
    expect(await screen.findByText("Not removed: This destination was removed already.")).toBeInTheDocument();
    expect(question()).toBeNull();
    expect(remove).toHaveFocus();
    expect(screen.getByRole("listitem", { name: "On-call Slack" })).toBeInTheDocument();
  });
});

describe("DestinationList's Send test alert", () => {
  /** The delivery a test alert to the Slack destination got after its first attempt. */
  const delivery = (fields: Partial<DeliveryView>): DeliveryView => ({
    id: "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
    destinationId: SLACK.id,
    destinationLabel: SLACK.label,
    kind: "slack",
    idempotencyKey: "test-1",
    alertKind: "test",
    title: "Test alert: On-call Slack",
    state: "delivered",
    attempts: 1,
    statusCode: 200,
    response: "ok",
    error: null,
    nextAttemptAt: null,
    createdAt: "2026-11-25T12:00:00.000Z",
    updatedAt: "2026-11-25T12:00:00.000Z",
    ...fields,
  });

  it.each([
    [
      "a receiver answering 503 (retried)",
      delivery({ state: "pending", statusCode: 503, nextAttemptAt: "2026-11-25T12:00:04.000Z" }),
      'Test alert to "On-call Slack": not delivered yet (answered 503) after 1 attempt; it is retried with backoff, and Recent deliveries shows each attempt.',
    ],
    [
      "a receiver refusing the signature",
      delivery({ state: "failed", statusCode: 401, error: "invalid_signature" }),
      'Test alert to "On-call Slack": Failed (answered 401) after 1 attempt. invalid_signature',
    ],
    [
      "a receiver that took it",
      delivery({}),
      'Test alert to "On-call Slack": Delivered (answered 200) after 1 attempt.',
    ],
  ])("%s: the status says what its first attempt did", async (_name, answer, said) => {
    const calls = fakeApi((call: ApiCall) =>
      call.method === "POST"
        ? { status: 200, body: { delivery: answer } }
        : { status: 200, body: { destinations: [SLACK] } },
    );
    renderWithQueries(<DestinationList />);
    const item = await screen.findByRole("listitem", { name: "On-call Slack" });
    await userEvent.setup().click(within(item).getByRole("button", { name: "Send test alert" }));
    expect(await screen.findByText(said)).toBeInTheDocument();
    expect(calls.filter((call) => call.method === "POST")).toEqual([
      { method: "POST", path: `/api/alerts/destinations/${SLACK.id}/test`, body: undefined },
    ]);
  });
});
