import { fireEvent, render, screen } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { LogRow } from "@/components/logs/log-row";

const router = { replace: vi.fn() };
vi.mock("next/navigation", () => ({ useRouter: () => router }));

const OPEN = "/webhooks/wh-1?app=a1&status=Failed&page=2&log=l-1";

function renderRow() {
  render(
    <table>
      <tbody>
        <LogRow logId="l-1" openHref={OPEN}>
          <td>Failed</td>
          <td>
            <a href={OPEN} data-details-for="l-1">
              Details
            </a>
            <button type="button">Copy</button>
          </td>
        </LogRow>
      </tbody>
    </table>,
  );
}

describe("LogRow (a click on the row or its Details link opens the delivery in place)", () => {
  beforeEach(() => router.replace.mockClear());

  it.each([
    { what: "a cell", target: () => screen.getByText("Failed"), init: {}, opens: true, cancelled: false },
    {
      what: "the Details link",
      target: () => screen.getByRole("link"),
      init: {},
      opens: true,
      cancelled: true,
    },
    {
      what: "the Details link with Ctrl",
      target: () => screen.getByRole("link"),
      init: { ctrlKey: true },
      opens: false,
    },
    {
      what: "the Details link with ⌘",
      target: () => screen.getByRole("link"),
      init: { metaKey: true },
      opens: false,
    },
    {
      what: "another button",
      target: () => screen.getByRole("button"),
      init: {},
      opens: false,
      cancelled: false,
    },
  ])("$what: opens $opens", ({ target, init, opens, cancelled }) => {
    renderRow();
    const notCancelled = fireEvent.click(target(), init);
    expect(router.replace).toHaveBeenCalledTimes(opens ? 1 : 0);
    if (opens) expect(router.replace).toHaveBeenCalledWith(OPEN, { scroll: false });
    // A plain click on the link is the router's, not a page load; a modified one is the browser's.
    expect(notCancelled).toBe(!cancelled);
  });
});
