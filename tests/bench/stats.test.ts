import { describe, expect, it } from "vitest";
import { abbaOrder, median, percentile, ratio, rotationOrder } from "./stats";

describe("percentile", () => {
  it("interpolates between closest ranks", () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([10, 20, 30, 40, 50], 0.9)).toBe(46);
    expect(percentile([4, 1, 3, 2], 0)).toBe(1);
    expect(percentile([4, 1, 3, 2], 1)).toBe(4);
  });

  it("does not reorder its input", () => {
    const samples = [3, 1, 2];
    percentile(samples, 0.5);
    expect(samples).toEqual([3, 1, 2]);
  });

  it("gives the one sample of a single-sample set", () => {
    expect(percentile([7], 0.99)).toBe(7);
  });

  it("refuses no samples and a quantile outside 0..1", () => {
    expect(() => percentile([], 0.5)).toThrow(/no samples/);
    expect(() => percentile([1], 1.5)).toThrow(/0..1/);
    expect(() => percentile([1], Number.NaN)).toThrow(/0..1/);
  });
});

describe("median", () => {
  it("median of odd and even counts", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([1, 2, 3, 10])).toBe(2.5);
  });
});

describe("ratio", () => {
  it("divides", () => {
    expect(ratio(3, 4)).toBe(0.75);
    expect(ratio(0, 4)).toBe(0);
  });

  it("refuses a zero, negative or non-finite side", () => {
    expect(() => ratio(1, 0)).toThrow();
    expect(() => ratio(-1, 2)).toThrow();
    expect(() => ratio(Number.POSITIVE_INFINITY, 2)).toThrow();
    expect(() => ratio(1, Number.NaN)).toThrow();
  });
});

describe("abbaOrder", () => {
  it("alternates pairs so each side goes first as often", () => {
    expect(abbaOrder(4)).toEqual(["A", "B", "B", "A", "A", "B", "B", "A"]);
    expect(abbaOrder(1)).toEqual(["A", "B"]);
    expect(abbaOrder(0)).toEqual([]);
  });

  it("gives each side the same number of turns", () => {
    const order = abbaOrder(7);
    expect(order.filter((s) => s === "A")).toHaveLength(7);
    expect(order.filter((s) => s === "B")).toHaveLength(7);
  });
});

describe("rotationOrder", () => {
  it("goes forwards then backwards, so every side is first and last as often", () => {
    expect(rotationOrder(3, 2)).toEqual([0, 1, 2, 2, 1, 0]);
    expect(rotationOrder(4, 1)).toEqual([0, 1, 2, 3]);
    expect(rotationOrder(2, 0)).toEqual([]);
  });

  it("gives each side `rounds` turns", () => {
    const order = rotationOrder(4, 5);
    for (const sideIndex of [0, 1, 2, 3]) expect(order.filter((s) => s === sideIndex)).toHaveLength(5);
  });
});
