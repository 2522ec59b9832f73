import { render, screen, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
import userEvent from "@testing-library/user-event";
import { beforeAll, describe, expect, it } from "vitest";
import type { FailureIssue, IssueAction, IssueState } from "@/lib/domain/watch/failure-issue";
import { issueView } from "@/lib/domain/watch/issue-view";
import { IssueLines } from "@/components/issues/issue-lines";
import { fakeApi, renderWithQueries, type ApiCall } from "@/tests/support/component-api";

// A line's details and its actions' form are chunks loaded when first opened: imported once here,
// so that a test waits for React, not for the first transform of those modules.
beforeAll(async () => {
  await Promise.all([
    import("@/components/issues/issue-details"),
    import("@/components/issues/issue-actions"),
  ]);
}, 60_000);

const WEBHOOK = "9d7c1e20-4b3a-4c8e-a1f5-6e2d8b0c3a08";

function issue(id: string, statusCode: number, firstAt: string, state: IssueState = "open"): FailureIssue {
  return {
    id,
    webhookId: WEBHOOK,
    appId: "0123456789abcdef",
    webhookName: "Busy shop",
    endpoint: "https://shop.example/hooks",
    statusCode,
    signature: `sig-${statusCode}`,
    signatureText: `failure ${statusCode}`,
    state,
    failures: 7,
    firstFailure: { at: firstAt, logId: `${id.slice(0, 8)}-0000-4000-8000-000000000001` },
    lastFailure: { at: "2026-11-26T10:00:00.000Z", logId: `${id.slice(0, 8)}-0000-4000-8000-000000000002` },
    samples: [],
    resolved: null,
    reopenedAt: null,
    lastChange: null,
    resolveAfter: 3,
  };
}

const ISSUES = [
  issue("11111111-1111-4111-8111-111111111111", 500, "2026-11-26T09:00:00.000Z"),
  issue("22222222-2222-4222-8222-222222222222", 503, "2026-11-26T08:00:00.000Z"),
  issue("33333333-3333-4333-8333-333333333333", 404, "2026-11-26T07:00:00.000Z"),
];

const STATE_AFTER: Record<IssueAction, IssueState> = {
  acknowledge: "acknowledged",
  resolve: "resolved",
  ignore: "ignored",
  reopen: "open",
};

/** The lines of ISSUES (`listed` of them); the API changes an issue as asked, under the name typed. */
function showLines(listed = ISSUES, settled = false) {
  const calls = fakeApi((call: ApiCall) => {
    const changed = ISSUES.find((one) => call.path === `/api/issues/${one.id}`)!;
    const { action, name, note } = call.body as { action: IssueAction; name: string; note: string };
    const at = "2026-11-26T11:00:00.000Z";
    return {
      status: 200,
      body: {
        issue: { ...changed, state: STATE_AFTER[action], lastChange: { name, note: note || null, at } },
      },
    };
  });
  renderWithQueries(<IssueLines issues={listed.map(issueView)} settled={settled} />);
  const lines = () => screen.getAllByRole("listitem").filter((item) => item.hasAttribute("data-issue-id"));
  return { calls, lines, user: userEvent.setup() };
}

/** Opens a line and its actions, types a name, and presses `button`. */
async function act(user: ReturnType<typeof userEvent.setup>, line: HTMLElement, button: string) {
  await user.click(within(line).getAllByRole("group")[0]!.querySelector("summary")!);
  await user.click(within(line).getByText("Acknowledge, resolve or ignore"));
  // The form is a chunk of its own, loaded when its section is first opened.
  await user.type(await within(line).findByRole("textbox", { name: "Your name" }), "Grace Hopper");
  if (button === "Acknowledge") await user.type(within(line).getByRole("textbox", { name: "Note" }), "On it");
  await user.click(within(line).getByRole("button", { name: button }));
}

describe("IssueLines", () => {
  it("a line opened before React hydrated it shows its details once hydrated", async () => {
    fakeApi(() => ({ status: 500, body: {} }));
    const lines = () => (
      <QueryClientProvider client={new QueryClient()}>
        <IssueLines issues={ISSUES.map(issueView)} />
      </QueryClientProvider>
    );
    const container = document.createElement("div");
    container.innerHTML = renderToString(lines());
    document.body.append(container);
    // The person opens the first line while the page is still plain HTML.
    container.querySelector("details")!.open = true;
    render(lines(), { container, hydrate: true });
    expect(
      await within(container.querySelector("li")!).findByRole("link", { name: /Compare with last success/ }),
    ).toBeTruthy();
  });

  it("shows one line per issue, newest cause first: its state, cause, count and since when", () => {
    const { lines } = showLines([ISSUES[2]!, ISSUES[0]!, ISSUES[1]!]);
    expect(lines().map((line) => line.getAttribute("data-issue-id"))).toEqual(ISSUES.map((one) => one.id));
    const first = within(lines()[0]!).getAllByRole("group")[0]!.querySelector("summary")!;
    expect(first).toHaveTextContent(/^OpenHTTP 500 Internal Server Error.*failure 500.*7 failures since/);
  });

  it.each([
    ["Acknowledge", "Acknowledged", "Acknowledged."],
    ["Resolve", "Resolved", "Resolved. A new failure of this cause reopens it."],
    ["Ignore", "Ignored", "Ignored. Its failures still count, and it stays ignored."],
  ])(
    "%s keeps the issue where it was, open, and says it worked where the focus is",
    async (button, state, said) => {
      const { calls, lines, user } = showLines();
      const second = lines()[1]!;
      await act(user, second, button);

      const status = await within(second).findByText(said);
      expect(status).toHaveFocus();
      expect(status).toHaveAttribute("role", "status");
      // The same line, at the same place, still open, now in its new state.
      expect(lines()[1]).toBe(second);
      expect(lines().map((line) => line.getAttribute("data-issue-id"))).toEqual(ISSUES.map((one) => one.id));
      expect(second.querySelector("details")).toHaveAttribute("open");
      expect(within(second).getAllByText(state, { exact: true })[0]).toBeInTheDocument();
      expect(calls).toEqual([
        {
          method: "POST",
          path: `/api/issues/${ISSUES[1]!.id}`,
          body: {
            action: button.toLowerCase(),
            name: "Grace Hopper",
            note: button === "Acknowledge" ? "On it" : "",
          },
        },
      ]);
    },
  );

  it("keeps an issue changed here in the list, even once the list it came from leaves it out", async () => {
    const { lines, user } = showLines(ISSUES, true);
    await act(user, lines()[0]!, "Resolve");
    await screen.findByText("Resolved. A new failure of this cause reopens it.");
    // Not folded away under "Resolved and ignored": it stays in view until the page is left.
    expect(screen.queryByText(/^Resolved and ignored/)).toBeNull();
    expect(lines()[0]).toHaveAttribute("data-issue-id", ISSUES[0]!.id);
  });

  it("a refused change names its field and changes nothing", async () => {
    const { calls, lines, user } = showLines();
    const line = lines()[0]!;
    await user.click(line.querySelector("summary")!);
    await user.click(within(line).getByText("Acknowledge, resolve or ignore"));
    await user.click(await within(line).findByRole("button", { name: "Acknowledge" }));
    expect(within(line).getByText(/^Your name: /)).toBeInTheDocument();
    expect(within(line).getByText(/^Note: /)).toBeInTheDocument();
    expect(within(line).getAllByText("Open", { exact: true })[0]).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
