import { fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FIRST_RENDER, VIEWER, formatExactUtc, formatTimestamp } from "@/lib/domain/format-time";
import { LogRowsBody } from "@/components/logs/log-rows-body";
import { Moment } from "@/components/ui/moment";
import { Highlighted } from "@/components/webhook/highlighted";

const router = { replace: vi.fn() };
vi.mock("next/navigation", () => ({ useRouter: () => router }));

const OPEN = (id: string) => `/webhooks/wh-1?app=a1&status=Failed&page=2&log=${id}`;
const RECENT = new Date(Date.now() - 4 * 60_000 - 5000).toISOString();
const OLD = "2025-11-20T20:07:09.000Z";

/** Two rows as the server renders them (components/logs/log-table.tsx), inside the body. */
function rows(highlighted: ReadonlySet<string> = new Set()) {
  return (
    <Highlighted value={highlighted}>
      <table>
        <LogRowsBody>
          {[
            { id: "l-1", at: RECENT },
            { id: "l-2", at: OLD },
          ].map(({ id, at }) => (
            <tr key={id} data-log-id={id}>
              <td>Failed {id}</td>
              <td>
                <Moment iso={at} form="relative" now={0} />
              </td>
              <td>
                <a href={OPEN(id)} data-details-for={id}>
                  Details {id}
                </a>
                <button type="button">Retry {id}</button>
              </td>
            </tr>
          ))}
        </LogRowsBody>
      </table>
    </Highlighted>
  );
}

describe("LogRowsBody: a click on a row or its Details link opens that delivery in place", () => {
  beforeEach(() => router.replace.mockClear());
  afterEach(() => window.getSelection()?.removeAllRanges());

  it.each([
    { what: "a cell", target: "Failed l-2", init: {}, opens: true, cancelled: false },
    { what: "the Details link", target: "Details l-2", init: {}, opens: true, cancelled: true },
    { what: "the Details link with Ctrl", target: "Details l-2", init: { ctrlKey: true }, opens: false },
    { what: "the Details link with ⌘", target: "Details l-2", init: { metaKey: true }, opens: false },
    { what: "the Details link with Shift", target: "Details l-2", init: { shiftKey: true }, opens: false },
    { what: "another button", target: "Retry l-2", init: {}, opens: false, cancelled: false },
  ])("$what: opens $opens", ({ target, init, opens, cancelled = false }) => {
    render(rows());
    const notCancelled = fireEvent.click(screen.getByText(target), init);
    expect(router.replace).toHaveBeenCalledTimes(opens ? 1 : 0);
    if (opens) expect(router.replace).toHaveBeenCalledWith(OPEN("l-2"), { scroll: false });
    // A plain click on the link is the router's, not a page load; a modified one is the browser's.
    expect(notCancelled).toBe(!cancelled);
  });

  it("selecting text in a row is not a click", () => {
    render(rows());
    const cell = screen.getByText("Failed l-1");
    window.getSelection()?.selectAllChildren(cell);
    fireEvent.click(cell);
    expect(router.replace).not.toHaveBeenCalled();
  });
});

describe("LogRowsBody: the followed message's rows and the rows' times", () => {
  it("highlights the rows of the followed message's deliveries, and follows a change of them", () => {
    const { rerender } = render(rows(new Set(["l-2"])));
    const row = (id: string) => screen.getByText(`Failed ${id}`).closest("tr");
    expect(row("l-1")).not.toHaveAttribute("data-highlighted");
    expect(row("l-2")).toHaveAttribute("data-highlighted", "true");
    rerender(rows(new Set(["l-1"])));
    expect(row("l-1")).toHaveAttribute("data-highlighted", "true");
    expect(row("l-2")).not.toHaveAttribute("data-highlighted");
  });

  it("writes the server's UTC times in the viewer's form once mounted, the exact UTC time on hover", () => {
    render(rows());
    expect(formatTimestamp(OLD, FIRST_RENDER)).toMatch(/UTC$/);
    expect(screen.getByText("4 min ago")).toHaveAttribute("datetime", RECENT);
    const old = screen.getByText(formatTimestamp(OLD, VIEWER));
    expect(old).toHaveAttribute("title", formatExactUtc(OLD, VIEWER));
  });
});
