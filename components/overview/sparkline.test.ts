import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Sparkline } from "@/components/overview/sparkline";

/** Hours as [success, failed] pairs, oldest first. */
function render(pairs: Array<[number, number]>): string {
  const hours = { success: pairs.map(([success]) => success), failed: pairs.map(([, failed]) => failed) };
  return renderToStaticMarkup(createElement(Sparkline, { hours, label: "Last 24 h by hour: 12 deliveries" }));
}

/** Each path's `d`, by the colour its class names. */
function paths(markup: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [, d = "", className = ""] of markup.matchAll(/<path d="([^"]*)" class="([^"]*)"/g)) {
    found[className.split(" ")[0] ?? className] = d;
  }
  return found;
}

describe("Sparkline", () => {
  it("is one image named by its label, one path per series", () => {
    const markup = render([
      [2, 0],
      [0, 0],
      [6, 4],
    ]);
    expect(markup).toContain('role="img"');
    expect(markup).toContain('aria-label="Last 24 h by hour: 12 deliveries"');
    expect(markup).toContain('viewBox="0 0 15 20"');
    expect(markup.match(/<path /g)).toHaveLength(3);
    expect(markup).not.toContain("<rect");
  });

  it("stacks failures in red on top of the successes, the busiest hour full height", () => {
    const markup = render([
      [2, 0],
      [0, 0],
      [6, 4],
    ]);
    // Each bar a line 4 wide (the bar's width) through the middle of its 5-wide slot.
    expect(markup).toContain('<g fill="none" stroke-width="4">');
    const drawn = paths(markup);
    // Hour 2 (10 attempts, the most): red from 8 down to the top, green from the baseline up to 8.
    expect(drawn["stroke-red-600"]).toBe("M12 8V0");
    // Hour 0: 2 of 10 attempts, 4 high; then hour 2's green below its red.
    expect(drawn["stroke-emerald-600"]).toBe("M2 20V16M12 20V8");
    // An hour without attempts: a 1-high grey tick.
    expect(drawn["stroke-zinc-300"]).toBe("M7 20V19");
  });

  it("draws only the series that have bars", () => {
    const drawn = paths(
      render([
        [3, 0],
        [1, 0],
      ]),
    );
    expect(Object.keys(drawn)).toEqual(["stroke-emerald-600"]);
    // A third of the busiest hour: 6.7 high (one decimal is a tenth of a pixel).
    expect(drawn["stroke-emerald-600"]).toBe("M2 20V0M7 20V13.3");
    // An hour with any attempt shows at least 2 high.
    expect(
      paths(
        render([
          [100, 0],
          [1, 0],
        ]),
      )["stroke-emerald-600"],
    ).toBe("M2 20V0M7 20V18");
  });
});
