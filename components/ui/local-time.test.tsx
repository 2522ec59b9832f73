import { act, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  FIRST_RENDER,
  formatExactUtc,
  formatShortTime,
  formatTimestamp,
  VIEWER,
} from "@/lib/domain/format-time";
import { LocalTime } from "@/components/ui/local-time";

const AT = "2026-11-20T20:07:09.000Z";

describe("LocalTime", () => {
  it.each(["full", "short", "relative"] as const)(
    "%s: the server writes UTC, said as such; the browser then writes the viewer's form, exact UTC on hover",
    async (form) => {
      const html = renderToString(<LocalTime iso={AT} form={form} />);
      const serverText =
        form === "short" ? formatShortTime(AT, 0, FIRST_RENDER) : formatTimestamp(AT, FIRST_RENDER);
      expect(html).toContain(`>${serverText}</time>`);
      expect(serverText).toMatch(/UTC$/);

      const container = document.createElement("div");
      container.innerHTML = html;
      document.body.append(container);
      await act(async () => {
        render(<LocalTime iso={AT} form={form} />, { container, hydrate: true });
      });
      const time = screen.getByText((_, element) => element?.tagName === "TIME");
      const now = Date.now();
      expect(time).toHaveTextContent(
        form === "short" ? formatShortTime(AT, now, VIEWER) : formatTimestamp(AT, VIEWER),
      );
      expect(time).toHaveAttribute("datetime", AT);
      expect(time).toHaveAttribute("title", formatExactUtc(AT, VIEWER));
    },
  );

  it("relative: how long ago when under a day", () => {
    render(<LocalTime iso={new Date(Date.now() - 4 * 60_000 - 5000).toISOString()} form="relative" />);
    expect(screen.getByText("4 min ago")).toBeInTheDocument();
  });

  it("with the answer's time (asOf), the server writes the short and relative forms as of it: the same length the browser writes", () => {
    const asOf = Date.parse(AT) + 5 * 60_000;
    expect(renderToString(<LocalTime iso={AT} form="short" asOf={asOf} />)).toContain(
      `>${formatShortTime(AT, asOf, FIRST_RENDER)}</time>`,
    );
    expect(formatShortTime(AT, asOf, FIRST_RENDER)).toBe("20:07 UTC");
    expect(renderToString(<LocalTime iso={AT} form="relative" asOf={asOf} />)).toContain(">5 min ago</time>");
  });
});
