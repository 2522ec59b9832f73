import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Pager } from "@/components/ui/pager";

function render(page: number, total: number) {
  const markup = renderToStaticMarkup(
    createElement(Pager, {
      label: "Log pages",
      page,
      pageSize: 20,
      total,
      noun: "deliveries",
      onPage: () => {},
    }),
  );
  const text = markup.replace(/<[^>]+>/g, "");
  const disabled = markup
    .split("<button")
    .slice(1)
    .filter((button) => / disabled=""/.test(button.slice(0, button.indexOf(">"))))
    .map((button) => /([A-Z][a-z]+ page)/.exec(button)?.[1]);
  return { text, disabled };
}

describe("Pager", () => {
  it("says which rows the page holds, and turns off the buttons that lead nowhere", () => {
    expect(render(1, 45)).toEqual({
      text: expect.stringContaining("Showing 1–20 of 45 deliveries"),
      disabled: ["First page", "Previous page"],
    });
    expect(render(2, 45).disabled).toEqual([]);
    expect(render(3, 45)).toEqual({
      text: expect.stringContaining("Page 3 of 3"),
      disabled: ["Next page", "Last page"],
    });
    expect(render(3, 45).text).toContain("Showing 41–45 of 45 deliveries");
  });

  it("says so when there is nothing to page through", () => {
    expect(render(1, 0)).toEqual({
      text: expect.stringContaining("No deliveries"),
      disabled: ["First page", "Previous page", "Next page", "Last page"],
    });
    expect(render(1, 0).text).toContain("Page 1 of 1");
  });

  it("past the last page, says so, and only Next page is off", () => {
    expect(render(999, 67)).toEqual({
      text: expect.stringContaining("Past the last page: 67 deliveries in all"),
      disabled: ["Next page"],
    });
  });
});
