/**
 * Where a page of the hub's list lands in a history read over time. Positions are counted from
 * the newest log when the reading was anchored (its first page, whose total is `anchorTotal`).
 * Deliveries arriving meanwhile push every offset down: a page read at `offset` while the hub's
 * total has grown by `s` holds positions `offset - s …`. Pure: no I/O, no state.
 */

/** Logs per call: the most the API hands out. */
export const PAGE_SIZE = 50;

export interface PagePlacement {
  /** Position of the page's first log. */
  start: number;
  /** Deliveries that arrived after the anchor, as this page's total tells. */
  arrived: number;
  /** Where the list ends (the position after its oldest log), when this page reached it; else null. */
  end: number | null;
}

/** A page of `count` logs read at `offset`, whose answer gave `total`. */
export function placePage(
  page: { offset: number; count: number; total: number },
  anchorTotal: number,
): PagePlacement {
  const arrived = Math.max(0, page.total - anchorTotal);
  const start = page.offset - arrived;
  // Fewer rows than asked, or rows up to the total: the end of the list as this page saw it.
  const atEnd = page.count < PAGE_SIZE || page.offset + page.count >= page.total;
  return { start, arrived, end: atEnd ? start + page.count : null };
}

/**
 * The offset to ask for the page starting at `position`, given the arrivals known so far. They
 * only grow, so a page asked this way can start early (its extra logs are already known), never late.
 */
export function offsetFor(position: number, arrived: number): number {
  return position + arrived;
}
