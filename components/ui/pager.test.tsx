import { render, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Pager } from "@/components/ui/pager";

const LINKS = ["First page", "Previous page", "Next page", "Last page"];

function showPage(page: number, total: number) {
  const { container } = render(
    <Pager
      label="Log pages"
      page={page}
      pageSize={20}
      total={total}
      noun="deliveries"
      hrefFor={(to) => `/logs?page=${to}`}
    />,
  );
  const nav = within(container).getByRole("navigation", { name: "Log pages" });
  const link = (name: string) => within(nav).getByRole("link", { name });
  const off = LINKS.filter((name) => link(name).getAttribute("aria-disabled") === "true");
  return { nav, link, off };
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
    { page: 1, total: 0, says: "No deliveries", where: "Page 1 of 1", off: LINKS },
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
    "page $page of $total: says “$says”, and turns off the links that lead nowhere",
    ({ page, total, says, where, off }) => {
      const shown = showPage(page, total);
      expect(shown.nav).toHaveTextContent(says);
      expect(shown.nav).toHaveTextContent(where);
      expect(shown.off).toEqual(off);
      for (const name of off) expect(shown.link(name)).not.toHaveAttribute("href");
    },
  );

  it("each link leads to its page; past the end, Previous leads to the last one", () => {
    const { link } = showPage(2, 45);
    expect(LINKS.map((name) => link(name).getAttribute("href"))).toEqual([
      "/logs?page=1",
      "/logs?page=1",
      "/logs?page=3",
      "/logs?page=3",
    ]);
    expect(showPage(999, 67).link("Previous page")).toHaveAttribute("href", "/logs?page=4");
  });

  it("announces the page it moved to", () => {
    const { nav } = showPage(2, 45);
    expect(within(nav).getByText("Page 2 of 3")).toHaveAttribute("aria-live", "polite");
  });
});
