import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { DestinationView } from "@/lib/domain/alerts/destinations";
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
