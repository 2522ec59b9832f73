/**
 * The reader's older pages: handed over in offset order, and read on while the caller holds a
 * batch (a question or a poll writing it), never more than `parallel` calls in flight.
 */
import { describe, expect, it } from "vitest";
import type { WebhookLogPage } from "@/lib/domain/hub-schemas";
import { olderPages, PAGE_SIZE, type HubReader } from "@/lib/server/history/reader";

/** A hub whose log pages answer only when the test says so. */
function heldHub(total: number) {
  const calls: Array<{ offset: number; answer: () => void }> = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const pageAt = (offset: number): WebhookLogPage => ({
    data: Array.from({ length: Math.max(0, Math.min(PAGE_SIZE, total - offset)) }, () => ({}) as never),
    pagination: { offset, limit: PAGE_SIZE, total, totalPages: Math.ceil(total / PAGE_SIZE) },
  });
  const hub: HubReader = {
    webhook: () => Promise.reject(new Error("not asked")),
    logs: (offset) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      return new Promise((resolve) => {
        calls.push({
          offset,
          answer: () => {
            inFlight--;
            resolve(pageAt(offset));
          },
        });
      });
    },
  };
  return { hub, calls, mostInFlight: () => mostInFlight };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("olderPages", () => {
  it("goes on calling while the caller holds a batch, within `parallel` calls at once", async () => {
    const { hub, calls, mostInFlight } = heldHub(100 * PAGE_SIZE);
    const pages = olderPages(hub, 0, { parallel: 2, maxPages: 100 }, new AbortController().signal);
    const first = pages.next();
    await settle();
    expect(calls.map((c) => c.offset)).toEqual([0, 50]);
    calls[0]!.answer();
    expect((await first).value).toHaveLength(1);

    // The caller holds the first batch (writing it) while the hub answers: each answer makes room
    // for the next call.
    calls[1]!.answer();
    await settle();
    calls[2]!.answer();
    await settle();
    expect(calls.map((c) => c.offset)).toEqual([0, 50, 100, 150, 200]);
    expect(mostInFlight()).toBe(2);

    // What arrived meanwhile is the next batch, in offset order.
    const second = await pages.next();
    expect((second.value as WebhookLogPage[]).map((page) => page.pagination.offset)).toEqual([50, 100]);
    await pages.return(undefined);
  });

  it("reads no further than `parallel` pages ahead of a caller that holds its batch", async () => {
    const { hub, calls } = heldHub(100 * PAGE_SIZE);
    const pages = olderPages(hub, 0, { parallel: 2, maxPages: 100 }, new AbortController().signal);
    const first = pages.next();
    await settle();
    calls[0]!.answer();
    await first;
    for (let i = 1; i < 10; i++) {
      calls[i]?.answer();
      await settle();
    }
    // Four pages (twice `parallel`) wait for the caller: no more calls until it takes them.
    expect(calls).toHaveLength(5);
    await pages.return(undefined);
  });

  it("asks for no page past the end the answers show, and ends with the short page", async () => {
    const { hub, calls } = heldHub(3 * PAGE_SIZE + 10);
    const batches: number[][] = [];
    const reading = (async () => {
      for await (const pages of olderPages(
        hub,
        0,
        { parallel: 2, maxPages: 100 },
        new AbortController().signal,
      ))
        batches.push(pages.map((page) => page.data.length));
    })();
    for (let i = 0; i < 6; i++) {
      await settle();
      calls[i]?.answer();
    }
    await reading;
    expect(batches.flat()).toEqual([50, 50, 50, 10]);
    // The answers say there are 160 logs: no page from 200 on.
    expect(calls.map((c) => c.offset)).toEqual([0, 50, 100, 150]);
  });
});
