import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DeliveryView } from "@/lib/domain/alerts/destinations";
import { DeliveryLog } from "@/components/alerts/delivery-log";
import { fakeApi, renderWithQueries } from "@/tests/support/component-api";

/** A test alert to a Slack destination answering 503, after its first attempt. */
const WAITING: DeliveryView = {
  id: "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  destinationId: "5d1e0c3a-2b4f-4e6a-8c9d-0e1f2a3b4c5d",
  destinationLabel: "Down Slack",
  kind: "slack",
  idempotencyKey: "test-1",
  alertKind: "test",
  title: "Test alert: Down Slack",
  state: "pending",
  attempts: 1,
  statusCode: 503,
  response: "busy",
  error: null,
  nextAttemptAt: "2026-11-25T12:00:04.000Z",
  createdAt: "2026-11-25T12:00:00.000Z",
  updatedAt: "2026-11-25T12:00:00.000Z",
};
/** The same delivery once the dispatcher gave up. */
const GAVE_UP: DeliveryView = { ...WAITING, state: "failed", attempts: 4, nextAttemptAt: null };

afterEach(() => {
  vi.useRealTimers();
});

describe("DeliveryLog", () => {
  it("shows a waiting delivery with its answer and next attempt, reads it again by itself, and stops once it is final", async () => {
    // The log's 2 s re-reads, on a clock the test moves.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers = [WAITING, GAVE_UP];
    const calls = fakeApi(() => ({ status: 200, body: { deliveries: [answers.shift() ?? GAVE_UP] } }));
    renderWithQueries(<DeliveryLog />);
    const region = screen.getByRole("region", { name: "Recent deliveries" });
    const row = await within(region).findByRole("row", { name: /Down Slack/ });
    const cells = () =>
      within(row)
        .getAllByRole("cell")
        .map((cell) => cell.textContent);
    expect(cells()[3]).toMatch(/^Waiting to send \(503\)Next attempt at /);
    expect(cells()[4]).toBe("1");
    expect(cells()[5]).toBe("busy");

    // No reload: the log is read again while the delivery waits.
    await vi.advanceTimersByTimeAsync(2000);
    await within(region).findByText("Failed (503)");
    expect(cells()[4]).toBe("4");
    expect(row.textContent).not.toContain("Next attempt at");
    const reads = calls.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(reads);
  });
});
