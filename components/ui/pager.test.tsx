import { render, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Pager } from "@/components/ui/pager";

const BUTTONS = ["First page", "Previous page", "Next page", "Last page"];

function showPage(page: number, total: number) {
  const onPage = vi.fn();
  const { container } = render(
    <Pager label="Log pages" page={page} pageSize={20} total={total} noun="deliveries" onPage={onPage} />,
  );
  const nav = within(container).getByRole("navigation", { name: "Log pages" });
  const button = (name: string) => within(nav).getByRole("button", { name });
  const off = BUTTONS.filter((name) => button(name).hasAttribute("disabled"));
  return { nav, button, off, onPage };
}

describe("Pager", () => {
  it.each([
    {
      page: 1,
      total: 45,
      says: "Showing 1–20 of 45 deliveries",
      where: "Page 1 of 3",
      off: ["First page", "Previous page"],
    },
    { page: 2, total: 45, says: "Showing 21–40 of 45 deliveries", where: "Page 2 of 3", off: [] },
    {
      page: 3,
      total: 45,
      says: "Showing 41–45 of 45 deliveries",
      where: "Page 3 of 3",
      off: ["Next page", "Last page"],
    },
    { page: 1, total: 0, says: "No deliveries", where: "Page 1 of 1", off: BUTTONS },
    {
      page: 999,
      total: 67,
      says: "Past the last page: 67 deliveries in all",
      where: "Page 999 of 4",
      off: ["Next page"],
    },
    {
      page: 1,
      total: 12_345,
      says: "Showing 1–20 of 12,345 deliveries",
      where: "Page 1 of 618",
      off: ["First page", "Previous page"],
    },
  ])(
    "page $page of $total: says “$says”, and turns off the buttons that lead nowhere",
    ({ page, total, says, where, off }) => {
      const shown = showPage(page, total);
      expect(shown.nav).toHaveTextContent(says);
      expect(shown.nav).toHaveTextContent(where);
      expect(shown.off).toEqual(off);
    },
  );

  it("each button asks for its page; past the end, Previous goes to the last one", async () => {
    const user = userEvent.setup();
    const { button, onPage } = showPage(2, 45);
    for (const name of BUTTONS) await user.click(button(name));
    expect(onPage.mock.calls).toEqual([[1], [1], [3], [3]]);

    const past = showPage(999, 67);
    await user.click(past.button("Previous page"));
    expect(past.onPage).toHaveBeenCalledWith(4);
  });

  it("announces the page it moved to", () => {
    const { nav } = showPage(2, 45);
    expect(within(nav).getByText("Page 2 of 3")).toHaveAttribute("aria-live", "polite");
  });
});
