import { describe, expect, it } from "vitest";
import { bundleGrowthFigure, findAcrossFigure } from "./handover-figures";

describe("findAcrossFigure", () => {
  const find = (acrossMs: number[], insideMs: number[]) =>
    findAcrossFigure({
      large: { webhooks: 200, logs: 1_000_000, ms: acrossMs },
      small: { logs: 10_000, ms: insideMs },
    });

  it("divides the medians, across ÷ inside, and holds up to 2", () => {
    const figure = find([3, 4, 100], [2, 3, 1]);
    expect(figure).toMatchObject({
      figure: "Find across 200 watched webhooks and 1,000,000 stored logs ÷ inside one webhook of 10,000",
      goal: "≤ 2",
      holds: "yes",
    });
    expect(figure.details.ratio).toBe(2);
  });

  it("misses past 2", () => {
    expect(find([7, 7, 7], [3, 3, 3]).holds).toBe("no");
  });
});

describe("bundleGrowthFigure", () => {
  it("compares the time per failure of the larger incident with the smaller one's, in either order", () => {
    const small = { failures: 100, ms: [10, 10, 10], chars: 30_000 };
    const large = { failures: 1000, ms: [150, 150, 150], chars: 31_000 };
    const figure = bundleGrowthFigure([large, small]);
    expect(figure.figure).toBe(
      "support bundle of a 1,000-failure incident, per failure ÷ a 100-failure one's",
    );
    expect(figure.details.ratio).toBeCloseTo(1.5);
    expect(figure.holds).toBe("yes");
    expect(bundleGrowthFigure([small, { ...large, ms: [250, 250, 250] }]).holds).toBe("no");
  });
});
