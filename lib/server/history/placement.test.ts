import { describe, expect, it } from "vitest";
import { offsetFor, PAGE_SIZE, placePage } from "@/lib/server/history/placement";

describe("page placement", () => {
  it("a page read with no arrivals lands at its offset", () => {
    expect(placePage({ offset: 100, count: PAGE_SIZE, total: 1000 }, 1000)).toEqual({
      start: 100,
      arrived: 0,
      end: null,
    });
  });

  it("a page whose total grew by s holds the positions s earlier than its offset", () => {
    // 7 deliveries arrived since the anchor: offset 150 now starts at the anchor's position 143.
    expect(placePage({ offset: 150, count: PAGE_SIZE, total: 1007 }, 1000)).toEqual({
      start: 143,
      arrived: 7,
      end: null,
    });
  });

  it("a total that shrank moves nothing", () => {
    expect(placePage({ offset: 50, count: PAGE_SIZE, total: 990 }, 1000)).toMatchObject({
      start: 50,
      arrived: 0,
    });
  });

  it("a short page, or one reaching the total, marks the end of the list", () => {
    expect(placePage({ offset: 950, count: 50, total: 1000 }, 1000).end).toBe(1000);
    expect(placePage({ offset: 950, count: 30, total: 1010 }, 1000)).toEqual({
      start: 940,
      arrived: 10,
      end: 970,
    });
    expect(placePage({ offset: 1200, count: 0, total: 1000 }, 1000).end).toBe(1200);
  });

  it("asks for a position at its offset plus the arrivals known so far", () => {
    expect(offsetFor(200, 0)).toBe(200);
    expect(offsetFor(200, 7)).toBe(207);
    // Placed back by its own total, that page starts where it was wanted.
    expect(placePage({ offset: offsetFor(200, 7), count: PAGE_SIZE, total: 1007 }, 1000).start).toBe(200);
  });
});
